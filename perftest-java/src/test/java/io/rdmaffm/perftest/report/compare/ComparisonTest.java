package io.rdmaffm.perftest.report.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.report.compare.Comparison.Line;
import io.rdmaffm.perftest.report.compare.Comparison.Verdict;
import io.rdmaffm.perftest.report.html.PlotsInHtml;
import io.rdmaffm.perftest.report.model.Metric;
import io.rdmaffm.perftest.report.model.ReportFixtures;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** compare on the fixtures: matching, ratios, the noise rule, the text and the HTML forms. */
class ComparisonTest {

    /** A figure straight from a fixture's JSON, not through the model. */
    private static double figure(String file, long size, String key) throws IOException {
        Map<?, ?> doc = (Map<?, ?>) JsonReader.parse(Files.readString(ReportFixtures.file(file)));
        for (Object o : (List<?>) doc.get("all_results")) {
            Map<?, ?> row = (Map<?, ?>) o;
            if (((Double) row.get("MsgSize")) == size) {
                return (Double) row.get(key);
            }
        }
        throw new AssertionError("no row " + size + " in " + file);
    }

    private static Line line(List<Line> lines, long size, Metric m) {
        return lines.stream().filter(l -> l.size() == size && l.metric() == m).findFirst().orElseThrow();
    }

    @Test
    void oneRunASideHasRatiosButNoNoise() throws IOException {
        List<Line> lines = Comparison.compare(ReportFixtures.readAll("bw_sweep_ib.json"),
                ReportFixtures.readAll("bw_sweep_roce.json"), Set.of());
        assertEquals(ReportFixtures.SWEEP_ROWS * 3, lines.size());
        Line big = line(lines, 8388608, Metric.BW_AVERAGE);
        assertEquals("RDMA_Write_BW_Test", big.test());
        assertEquals("Gb/sec", big.unit());
        double a = figure("bw_sweep_ib.json", 8388608, "BW_average");
        double b = figure("bw_sweep_roce.json", 8388608, "BW_average");
        assertEquals(b / a, big.ratio(), 1e-12);
        assertEquals(1, big.a().n());
        for (Line l : lines) {
            assertEquals(Verdict.NOISE_UNKNOWN, l.verdict());
        }
        String text = CompareText.render(lines, "bw_sweep_ib.json", "bw_sweep_roce.json", 1, 1);
        assertTrue(text.contains("noise: no repeats: noise unknown"), text);
        assertFalse(text.contains("*"));
    }

    @Test
    void repeatsMarkWhatIsBeyondTheirSpread() throws IOException {
        List<RunDocument> a = ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_ib_2.json");
        List<RunDocument> b = ReportFixtures.readAll("bw_sweep_roce.json", "bw_sweep_roce_2.json");
        List<Line> lines = Comparison.compare(a, b, EnumSet.of(Metric.BW_AVERAGE));
        assertEquals(ReportFixtures.SWEEP_ROWS, lines.size());
        // small messages: RoCE's ranges lie wholly below IB's
        Line small = line(lines, 2, Metric.BW_AVERAGE);
        assertEquals(Verdict.BEYOND_NOISE, small.verdict());
        assertFalse(small.bBetter());
        assertEquals("* worse", CompareText.mark(small));
        // 64 KiB: the ranges overlap
        Line mid = line(lines, 65536, Metric.BW_AVERAGE);
        double a1 = figure("bw_sweep_ib.json", 65536, "BW_average");
        double a2 = figure("bw_sweep_ib_2.json", 65536, "BW_average");
        double b1 = figure("bw_sweep_roce.json", 65536, "BW_average");
        double b2 = figure("bw_sweep_roce_2.json", 65536, "BW_average");
        assertTrue(Math.max(b1, b2) >= Math.min(a1, a2) && Math.max(a1, a2) >= Math.min(b1, b2), "fixture overlaps");
        assertEquals(Verdict.WITHIN_NOISE, mid.verdict());
        assertEquals((a1 + a2) / 2, mid.a().mean(), 1e-9);
        assertEquals(Math.min(b1, b2), mid.b().min());
        assertEquals(2, mid.b().n());
        assertEquals("", CompareText.mark(mid));
        // 4 MiB: RoCE wholly above, but by 1.04%: below the 2% minimum effect, so not marked by default
        Line top = line(lines, 4194304, Metric.BW_AVERAGE);
        assertEquals(1.0104, top.ratio(), 1e-4);
        assertEquals(Verdict.BELOW_MIN_EFFECT, top.verdict());
        assertTrue(top.bBetter());
        Line topAnyEffect = line(Comparison.compare(a, b, EnumSet.of(Metric.BW_AVERAGE), 0), 4194304,
                Metric.BW_AVERAGE);
        assertEquals(Verdict.BEYOND_NOISE, topAnyEffect.verdict());
        assertEquals("* better", CompareText.mark(topAnyEffect));

        String text = CompareText.render(lines, "A", "B", 2, 2);
        assertTrue(text.contains("noise: each side's spread over its repeats"), text);
        assertTrue(text.contains("with 2 and 2 repeats the ranges miss each other by noise alone 1 time in 3"), text);
        assertTrue(text.contains("and of at least 2% (--min-effect"), text);
        long marked = lines.stream().filter(l -> l.verdict() == Verdict.BEYOND_NOISE).count();
        assertEquals(marked, text.lines().filter(t -> t.contains("* better") || t.contains("* worse")).count());
        assertTrue(marked > 0 && marked < lines.size());
    }

    /** A write_bw run of one 64 KiB row at {@code mbPerSec}, read back as a document. */
    private static RunDocument bw(String name, double mbPerSec) {
        return io.rdmaffm.perftest.report.model.RunReader.parse(io.rdmaffm.perftest.report.JsonReport.bandwidth(
                io.rdmaffm.perftest.report.BannerInfo.builder(io.rdmaffm.perftest.vocab.Tool.WRITE_BW,
                        io.rdmaffm.perftest.vocab.Role.CLIENT).device("rxe0").build(), Map.of(),
                io.rdmaffm.perftest.vocab.BwUnit.MB_PER_SEC, List.of(new io.rdmaffm.perftest.vocab.BwReport(65536,
                        5000, mbPerSec, mbPerSec, mbPerSec * 0x100000 / 65536 / 1e6))), name);
    }

    @Test
    void aDifferenceBelowTheMinimumEffectIsNotMarked() {
        // Two quiet repeats a side, ranges apart, B 0.5% below A: beyond the noise, but below the 2% default.
        List<RunDocument> a = List.of(bw("a1", 10000), bw("a2", 10010));
        List<RunDocument> b = List.of(bw("b1", 9950), bw("b2", 9960));
        Line dflt = line(Comparison.compare(a, b, EnumSet.of(Metric.BW_AVERAGE)), 65536, Metric.BW_AVERAGE);
        assertTrue(dflt.a().disjointFrom(dflt.b()));
        assertEquals(Verdict.BELOW_MIN_EFFECT, dflt.verdict());
        assertEquals("< min effect", CompareText.mark(dflt));
        Line loose = line(Comparison.compare(a, b, EnumSet.of(Metric.BW_AVERAGE), 0.004), 65536, Metric.BW_AVERAGE);
        assertEquals(Verdict.BEYOND_NOISE, loose.verdict(), "0.5% is beyond a 0.4% minimum");
        assertEquals("* worse", CompareText.mark(loose));
        List<RunDocument> far = List.of(bw("b1", 9700), bw("b2", 9710));
        assertEquals(Verdict.BEYOND_NOISE, line(Comparison.compare(a, far, EnumSet.of(Metric.BW_AVERAGE)), 65536,
                Metric.BW_AVERAGE).verdict(), "3% is beyond the default");
        assertEquals(Verdict.WITHIN_NOISE, line(Comparison.compare(a, List.of(bw("b1", 9000), bw("b2", 10005)),
                EnumSet.of(Metric.BW_AVERAGE)), 65536, Metric.BW_AVERAGE).verdict(), "overlapping ranges");
        assertEquals("0.5%", CompareText.percent(0.005));
    }

    @Test
    void bandwidthAgainstLatencyIsRefused() {
        List<RunDocument> bwRuns = ReportFixtures.readAll("bw_sweep_ib.json");
        List<RunDocument> latRuns = ReportFixtures.readAll("send_lat_ib.json");
        List<Line> lines = Comparison.compare(bwRuns, latRuns, Set.of());
        assertTrue(lines.stream().allMatch(l -> l.verdict() == Verdict.ONE_SIDED));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Comparison.requireComparable(bwRuns, latRuns, lines));
        assertTrue(e.getMessage().startsWith("cannot compare bandwidth runs (A: "), e.getMessage());
        assertTrue(e.getMessage().contains(") with latency runs (B: "), e.getMessage());

        List<RunDocument> read = List.of(io.rdmaffm.perftest.report.model.RunReader.parse(
                io.rdmaffm.perftest.report.JsonReport.bandwidth(io.rdmaffm.perftest.report.BannerInfo.builder(
                        io.rdmaffm.perftest.vocab.Tool.READ_BW, io.rdmaffm.perftest.vocab.Role.CLIENT).build(),
                        Map.of(), io.rdmaffm.perftest.vocab.BwUnit.MB_PER_SEC, List.of(
                                new io.rdmaffm.perftest.vocab.BwReport(65536, 10, 1, 1, 1))), "read"));
        List<RunDocument> write = List.of(bw("write", 1));
        IllegalArgumentException none = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Comparison.requireComparable(write, read, Comparison.compare(write, read, Set.of())));
        assertEquals("nothing in common to compare: A has RDMA_Write_BW_Test, B has RDMA_Read_BW_Test (the same "
                + "test, size and metric is needed on both sides)", none.getMessage());
        Comparison.requireComparable(write, write, Comparison.compare(write, write, Set.of()));
    }

    @Test
    void theChanceOfAMarkByNoiseAloneIsExact() {
        // 2 and 2: of the 6 rank orders of four exchangeable figures, AABB and BBAA leave the ranges apart
        assertEquals(1 / 3.0, Comparison.chanceOfMarkByNoise(2, 2), 1e-12);
        assertEquals(0.1, Comparison.chanceOfMarkByNoise(3, 3), 1e-12);
        assertEquals(1 / 126.0, Comparison.chanceOfMarkByNoise(5, 5), 1e-12);
        assertEquals(2 / 15.0, Comparison.chanceOfMarkByNoise(2, 4), 1e-12);
        assertEquals(1.0, Comparison.chanceOfMarkByNoise(1, 1));
    }

    @Test
    void textColumnsAreAligned() {
        List<Line> lines = Comparison.compare(ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_ib_2.json"),
                ReportFixtures.readAll("bw_sweep_roce.json", "bw_sweep_roce_2.json"), Set.of());
        List<String> text = CompareText.render(lines, "A", "B", 2, 2).lines().toList();
        int head = text.indexOf(text.stream().filter(t -> t.trim().startsWith("bytes")).findFirst().orElseThrow());
        String header = text.get(head);
        assertTrue(header.endsWith("B spread"), header);
        int ratioEnd = header.indexOf("B/A") + 3;
        for (String row : text.subList(head + 1, text.size())) {
            assertTrue(row.length() >= header.length(), row);
            assertTrue(row.charAt(header.length() - 1) != ' ', "B spread right-aligned: " + row);
            assertTrue(row.charAt(ratioEnd - 1) != ' ' && row.charAt(ratioEnd) == ' ', "ratio right-aligned: " + row);
        }
    }

    @Test
    void linesOnlyOneSideHasAreShownAsSuch() {
        List<Line> lines = Comparison.compare(ReportFixtures.readAll("v0/send_lat.json"),
                ReportFixtures.readAll("send_lat_ib.json"), EnumSet.of(Metric.T_TYPICAL));
        assertEquals(2, lines.size());
        Line both = line(lines, 2, Metric.T_TYPICAL);
        assertEquals(Verdict.NOISE_UNKNOWN, both.verdict());
        assertEquals(1.70 / 0.86, both.ratio(), 1e-12);
        assertTrue(both.bBetter() == false, "a higher latency is worse");
        Line onlyA = line(lines, 4096, Metric.T_TYPICAL);
        assertEquals(Verdict.ONE_SIDED, onlyA.verdict());
        assertNull(onlyA.b());
        assertNull(onlyA.ratio());
        assertEquals("only in A", CompareText.mark(onlyA));
    }

    @Test
    void differentBandwidthUnitsAreComparedInGigabits() {
        List<Line> lines = Comparison.compare(ReportFixtures.readAll("v0/write_bw_mb.json"),
                ReportFixtures.readAll("v0/write_bw_gbits.json"), EnumSet.of(Metric.BW_AVERAGE));
        Line l = line(lines, 65536, Metric.BW_AVERAGE);
        assertEquals("Gb/sec", l.unit());
        assertEquals(11723.17 * 8 * 1048576 / 1e9, l.a().mean(), 1e-9);
        assertEquals(11723.17, l.b().mean(), 1e-9);
        assertEquals(2, lines.size(), "the null BW_average of the 8-byte row is no figure");
    }

    @Test
    void theHtmlFormPutsBothSidesOnOnePlot() {
        List<RunDocument> a = ReportFixtures.readAll("bw_sweep_ib.json", "bw_sweep_ib_2.json");
        List<RunDocument> b = ReportFixtures.readAll("bw_sweep_roce.json", "bw_sweep_roce_2.json");
        List<Line> lines = Comparison.compare(a, b, Set.of());
        String html = ComparePage.render(lines, a, b);
        PlotsInHtml.PlotInfo bw = PlotsInHtml.read(html).get("bandwidth");
        assertEquals(List.of("A: bw_sweep_ib", "A: bw_sweep_ib_2", "B: bw_sweep_roce", "B: bw_sweep_roce_2"),
                bw.series().stream().map(PlotsInHtml.SeriesInfo::label).toList());
        for (PlotsInHtml.SeriesInfo s : bw.series()) {
            assertEquals(ReportFixtures.SWEEP_ROWS, s.dataPoints());
        }
        // The ratio B/A per size, one series per test and metric, every two-sided line a point.
        PlotsInHtml.PlotInfo ratio = PlotsInHtml.read(html).get("ratio");
        assertEquals(List.of("RDMA_Write_BW_Test BW average", "RDMA_Write_BW_Test BW peak",
                "RDMA_Write_BW_Test msg rate"), ratio.series().stream().map(PlotsInHtml.SeriesInfo::label).toList());
        assertEquals(lines.stream().filter(l -> l.ratio() != null).count(),
                ratio.series().stream().mapToInt(PlotsInHtml.SeriesInfo::dataPoints).sum());
        assertTrue(html.indexOf("data-plot=\"ratio\"") < html.indexOf("data-plot=\"bandwidth\""), "ratio first");
        assertTrue(html.contains("B/A 0.833"), "the 2 B BW average point's tooltip");
        long beyond = lines.stream().filter(l -> l.verdict() == Verdict.BEYOND_NOISE).count();
        assertEquals(beyond, PlotsInHtml.count(html, "data-verdict=\"beyond-noise\" class=\"beyond\""));
        assertEquals(lines.size(), PlotsInHtml.count(html, "<tr data-test=\"RDMA_Write_BW_Test\""));
        assertTrue(html.contains("<tr class=\"beyond\" data-differs=\"true\"><th class=\"text\">Device</th>"), html);
        assertFalse(html.contains("data-differs=\"true\"><th class=\"text\">Host</th>"));
    }
}
