package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.model.ReportFixtures;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import java.util.List;
import java.util.Map;
import java.util.regex.MatchResult;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The report page on the fixtures: which plots, how many series and points, which axes, what provenance. */
class ReportPageTest {

    private static Map<String, PlotsInHtml.PlotInfo> plots(String html) {
        return PlotsInHtml.read(html);
    }

    @Test
    void bandwidthSweepsGetSizeAxesAndTheLinesOfPortAndPcie() {
        String html = ReportPage.render(null, ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_ib_2.json",
                "bw_sweep_roce.json"));
        Map<String, PlotsInHtml.PlotInfo> p = plots(html);
        assertEquals(List.of("bandwidth", "msgrate", "timeseries-1-65536"), List.copyOf(p.keySet()));
        PlotsInHtml.PlotInfo bw = p.get("bandwidth");
        assertEquals("log2", bw.xScale());
        assertEquals("linear", bw.yScale());
        assertEquals(3, bw.seriesCount());
        assertEquals(List.of("bw_sweep_ib", "bw_sweep_ib_2", "bw_sweep_roce"),
                bw.series().stream().map(PlotsInHtml.SeriesInfo::label).toList());
        for (PlotsInHtml.SeriesInfo s : bw.series()) {
            assertEquals(ReportFixtures.SWEEP_ROWS, s.dataPoints());
            assertEquals(ReportFixtures.SWEEP_ROWS, s.circles());
        }
        // both devices have a 200 Gb/s port and a 220.1 Gb/s PCIe model: one line each, naming both
        assertEquals(Map.of("port-rate", List.of("200"), "pcie-model", List.of("220.1")), bw.references());
        assertTrue(bw.svg().contains(">port rate mlx5_0, mlx5_2: 200 Gb/s</text>"), bw.svg());
        assertTrue(bw.svg().contains(">PCIe model mlx5_0, mlx5_2: 220.1 Gb/s</text>"));
        assertTrue(html.contains("<li class=\"ref\" data-ref-kind=\"pcie-model\">"));
        PlotsInHtml.PlotInfo rate = p.get("msgrate");
        assertEquals(3, rate.seriesCount());
        assertEquals(ReportFixtures.SWEEP_ROWS, rate.series("bw_sweep_roce").dataPoints());
        assertTrue(rate.references().isEmpty());
        PlotsInHtml.PlotInfo ts = p.get("timeseries-1-65536");
        assertEquals("linear", ts.xScale());
        assertEquals(23, ts.series("bw_sweep_ib, 64K B").dataPoints(), "24 intervals, one without a sample");
        Matcher path = Pattern.compile("<path d=\"([^\"]+)\"").matcher(ts.svg());
        assertTrue(path.find());
        assertEquals(2, path.group(1).chars().filter(c -> c == 'M').count(), "the gap breaks the line once");
    }

    @Test
    void latencyRunsOverlayTheirPercentileCurves() {
        String html = ReportPage.render("IB against RoCE", ReportFixtures.readAll("send_lat_ib.json",
                "send_lat_roce.json"));
        Map<String, PlotsInHtml.PlotInfo> p = plots(html);
        assertEquals(List.of("percentiles-2", "timeseries-1-2", "timeseries-2-2"), List.copyOf(p.keySet()));
        PlotsInHtml.PlotInfo pct = p.get("percentiles-2");
        assertEquals("percentile", pct.xScale());
        assertEquals("log10", pct.yScale(), "a tail 40 times the median gets a log axis");
        assertEquals(2, pct.seriesCount());
        assertEquals(41, pct.series("send_lat_ib").dataPoints(), "10^4 samples: 10^0 .. 10^3.9 and the max");
        assertEquals(41, pct.series("send_lat_roce").circles());
        assertTrue(pct.svg().contains(">99.999%</text>"));
        assertTrue(html.contains("<title>IB against RoCE</title>"));
        assertEquals(50, p.get("timeseries-2-2").series("send_lat_roce, 2 B").dataPoints());

        // a run without a histogram next to them still gets a plot: latency against size holds every run
        Map<String, PlotsInHtml.PlotInfo> mixed = plots(ReportPage.render(null, ReportFixtures.readAll(
                "send_lat_ib.json", "read_lat_duration.json")));
        assertEquals(List.of("percentiles-2", "latency-size", "timeseries-1-2"), List.copyOf(mixed.keySet()));
        assertEquals(1, mixed.get("latency-size").series("read_lat_duration · average").dataPoints());
        assertEquals(1, mixed.get("latency-size").series("send_lat_ib · 99.9%").dataPoints());
    }

    @Test
    void aLatencySweepGetsAPlotPerRunAndLatencyAgainstSize() {
        RunDocument sweep = RunReader.parse(ReportFixtures.latencySweep("Send_Latency_Test", 5, 100), "sweep.json");
        String html = ReportPage.render(null, List.of(sweep));
        Map<String, PlotsInHtml.PlotInfo> p = plots(html);
        assertEquals(List.of("percentiles-run1", "percentiles-run1-more", "latency-size"), List.copyOf(p.keySet()));
        PlotsInHtml.PlotInfo run = p.get("percentiles-run1");
        assertEquals(List.of("2 B", "8 B", "32 B"), run.series().stream().map(PlotsInHtml.SeriesInfo::label).toList(),
                "the smallest, the middle and the largest size first");
        assertEquals(List.of("4 B", "16 B"), p.get("percentiles-run1-more").series().stream()
                .map(PlotsInHtml.SeriesInfo::label).toList());
        assertTrue(html.contains("<details class=\"more\" data-more=\"percentiles-run1-more\" data-plots=\"1\">\n"
                + "<summary>Latency percentiles of sweep: the other 2 sizes</summary>"), "the rest is collapsed");
        assertEquals(21, run.series("32 B").dataPoints(), "100 samples: 10^0 .. 10^1.9 and the max");
        PlotsInHtml.PlotInfo size = p.get("latency-size");
        assertEquals("log2", size.xScale());
        assertEquals(5, size.series("sweep · typical").dataPoints());
        assertEquals(1, size.seriesCount(), "no 99.9% figures in these rows");
    }

    @Test
    void version0AndDurationRunsStillGetPlotsAndSayWhatIsMissing() {
        String html = ReportPage.render(null, ReportFixtures.readAll("v0/send_lat.json", "read_lat_duration.json",
                "v0/atomic_bw_empty.json"));
        Map<String, PlotsInHtml.PlotInfo> p = plots(html);
        assertEquals(List.of("latency-size"), List.copyOf(p.keySet()));
        PlotsInHtml.PlotInfo size = p.get("latency-size");
        assertEquals("log10", size.yScale(), "0.86 to 20.25 µs: more than a factor of 20");
        assertEquals(2, size.series("send_lat · typical").dataPoints());
        assertEquals(2, size.series("send_lat · 99.9%").dataPoints());
        assertEquals(1, size.series("read_lat_duration · average").dataPoints());
        assertEquals(3, size.seriesCount());
        assertTrue(html.contains("<dt>Schema</dt><dd>version 0 (no schema key): banner, parameters and rows only;"));
        assertTrue(html.contains("<dt>Device</dt><dd>rxe0 (from the banner)</dd>"));
        assertTrue(html.contains("<dt>Host</dt><dd class=\"missing\">not recorded</dd>"));
        assertTrue(html.contains("<dt>PCIe</dt><dd>none (virtual device)</dd>"));
        assertTrue(html.contains("No rows: the run ended before a measurement."));
        PlotsInHtml.PlotInfo alone = plots(ReportPage.render(null, ReportFixtures.readAll("v0/send_lat.json")))
                .get("latency-size");
        assertEquals("linear", alone.yScale(), "0.86 to 2.61 µs: within a factor of 20");
    }

    @Test
    void theProvenanceBlockNamesEverythingTheRunRecorded() {
        String html = ReportPage.render(null, ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_roce.json"));
        String ib = section(html, 1);
        for (String expected : List.of(
                "<dt>Host</dt><dd>node-a, kernel 6.1.0-28-amd64, Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz × 64</dd>",
                "<dt>Device</dt><dd>mlx5_0 port 1</dd>",
                "<dt>Firmware</dt><dd>20.39.1002</dd>",
                "<dt>Link layer</dt><dd>InfiniBand, ACTIVE</dd>",
                "<dt>Port rate</dt><dd>200 Gb/sec (4X HDR)</dd>",
                "<dt>PCIe</dt><dd>16.0 GT/s x16, function 0000:3b:00.0, path 0000:3a:00.0/0000:3b:00.0, model 220.1 Gb/s</dd>",
                "<dt>NUMA node</dt><dd>0</dd>",
                "<dt>GID</dt><dd>none (index -1)</dd>",
                "<dt>MTU</dt><dd>4096 (active), 4096 (test)</dd>",
                "<dt>JDK</dt><dd>25.0.1+8-LTS, OpenJDK 64-Bit Server VM</dd>",
                "<dt>JVM flags</dt><dd>-XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0 --enable-native-access=ALL-UNNAMED</dd>",
                "<dt>Date</dt><dd>2026-11-30T09:12:05Z</dd>",
                "<dd>2 JIT compilations (1 OSR), 0 deoptimizations, 1 GC (0.41 ms), 3 safepoints (0.12 ms)<br>"
                        + "compiled io.rdmaffm.perftest.engine.Loops.bwClient (c2, OSR)<br>")) {
            assertTrue(ib.contains(expected), expected + "\n in \n" + ib);
        }
        assertTrue(ib.contains("<dt>Tool and flags</dt><dd>ib_write_bw role=client server=192.168.10.2 device=mlx5_0 "
                + "ib_port=1 gid_index=null size=all iterations=5000"), ib);
        String roce = section(html, 2);
        assertTrue(roce.contains("<dt>GID</dt><dd>index 3, ::ffff:192.168.10.1</dd>"), roce);
        assertTrue(roce.contains("<dt>Device</dt><dd>mlx5_2 port 1, netdev ens5f0np0</dd>"));
        assertTrue(roce.contains("<th>BW average <span class=\"unit\">Gb/sec</span></th>"));
        assertEquals(ReportFixtures.SWEEP_ROWS + 1, PlotsInHtml.count(roce, "<tr>"));
    }

    private static String section(String html, int n) {
        int start = html.indexOf("<section class=\"run\" id=\"run-" + n + "\"");
        assertTrue(start >= 0);
        return html.substring(start, html.indexOf("</section>", start));
    }

    @Test
    void thePageIsSelfContainedPrintableAndResponsive() {
        String html = ReportPage.render(null, ReportFixtures.readAll("bw_sweep_ib.json", "send_lat_ib.json"));
        assertTrue(html.startsWith("<!DOCTYPE html>\n<html lang=\"en\">"));
        assertTrue(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                + "style-src 'unsafe-inline'\">"));
        assertTrue(html.contains("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"));
        assertTrue(html.contains("@media print {"));
        assertTrue(html.contains("@media (max-width: 600px) {"));
        assertFalse(html.contains("<script"));
        assertFalse(html.contains("<link"));
        assertFalse(html.contains(" src="));
        assertFalse(html.contains("url("));
        assertEquals(List.of(), Pattern.compile("https?://[^\"]*").matcher(html).results().map(MatchResult::group)
                .filter(u -> !u.equals("http://www.w3.org/2000/svg")).toList());
    }

    @Test
    void theSameRunsGiveTheSameBytes() {
        List<RunDocument> runs = ReportFixtures.readAll("bw_sweep_ib.json", "send_lat_ib.json");
        assertEquals(ReportPage.render(null, runs), ReportPage.render(null, runs));
    }

    @Test
    void textFromTheFileIsEscaped() {
        RunDocument evil = RunReader.parse("{\"test_info\":{\"test\":\"<script>alert(1)</script>\"},\"parameters\":"
                + "{\"tool\":\"x\\\" onload=\\\"y\"},\"all_results\":[{\"MsgSize\":2,\"BW_average\":1,\"MsgRate\":1}]}",
                "<b>.json");
        String html = ReportPage.render(null, List.of(evil));
        assertFalse(html.contains("<script>"));
        assertFalse(html.contains("<b>"));
        assertTrue(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assertTrue(html.contains("x&quot; onload=&quot;y"));
    }

    @Test
    void twoFilesOfOneNameGetDistinctLabels() {
        List<PlotRun> runs = ReportPage.label(ReportFixtures.readAll("send_lat_ib.json", "send_lat_ib.json"));
        assertEquals(List.of("send_lat_ib", "send_lat_ib (2)"), runs.stream().map(PlotRun::label).toList());
    }
}
