package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.model.ReportFixtures;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import io.rdmaffm.perftest.report.model.TimeSeries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The report of a real Soft-RoCE {@code -a} sweep (issue 33, "reports that read at a glance"): few curves per
 * plot with the rest on demand, no time series that cannot show anything (and a note naming them), one unit per
 * quantity with readable latency labels, and a second bandwidth view where the curve lies far below its ceiling.
 * {@code rxe_write_bw_sweep.json}: ib_write_bw -a -n 40 on rxe0 in the Soft-RoCE VM (scripts/report-screenshot.sh).
 */
class AtAGlanceTest {
    private static List<String> labels(PlotsInHtml.PlotInfo p) {
        return p.series().stream().map(PlotsInHtml.SeriesInfo::label).toList();
    }

    @Test
    void aSweepOf23SizesShowsThreeCurvesAndTheNamedOnesTheRestOnDemand() {
        RunDocument sweep = RunReader.parse(ReportFixtures.latencySweep("Send_Latency_Test", 23, 100), "sweep.json");
        String html = ReportPage.render(null, List.of(sweep));
        Map<String, PlotsInHtml.PlotInfo> p = PlotsInHtml.read(html);
        assertEquals(List.of("2 B", "4K B", "8M B"), labels(p.get("percentiles-run1")), "smallest, middle, largest");
        assertEquals(20, p.get("percentiles-run1-more").seriesCount());
        int open = html.indexOf("<details class=\"more\" data-more=\"percentiles-run1-more\"");
        assertTrue(open >= 0 && html.indexOf("data-plot=\"percentiles-run1-more\"") > open,
                "the other 20 curves are inside the collapsed element");
        assertFalse(html.contains("<details open"), "collapsed");

        Map<String, PlotsInHtml.PlotInfo> named = PlotsInHtml.read(ReportPage.render(null, List.of(sweep),
                Set.of(64L, 65536L, 3L)));
        assertEquals(List.of("2 B", "64 B", "4K B", "64K B", "8M B"), labels(named.get("percentiles-run1")),
                "the sizes named are shown too (a size the sweep lacks is ignored)");
        assertEquals(18, named.get("percentiles-run1-more").seriesCount());
    }

    @Test
    void fewSizesAreAllShownWithNothingOnDemand() {
        RunDocument sweep = RunReader.parse(ReportFixtures.latencySweep("Send_Latency_Test", 23, 100), "s.json");
        assertEquals(List.of(1L, 2L, 3L, 4L), List.copyOf(SizeChoice.shown(new TreeSet<>(List.of(4L, 3L, 2L, 1L)),
                Set.of(9L))));
        assertEquals(List.of(1L, 3L, 5L), List.copyOf(SizeChoice.shown(new TreeSet<>(List.of(1L, 2L, 3L, 4L, 5L)),
                Set.of())));
        String few = ReportPage.render(null, ReportFixtures.readAll("send_lat_ib.json", "send_lat_roce.json"));
        assertFalse(few.contains("<details"), "two runs of one size: nothing to hide");
        assertTrue(ReportPage.render(null, List.of(sweep)).contains("<details"));
    }

    @Test
    void theRxeSweepDrawsNoTimeSeriesOfOneCompletionAndSaysSo() {
        RunDocument rxe = ReportFixtures.read("rxe_write_bw_sweep.json");
        assertEquals(ReportFixtures.SWEEP_ROWS, rxe.rows().size());
        String html = ReportPage.render(null, List.of(rxe));
        Map<String, PlotsInHtml.PlotInfo> p = PlotsInHtml.read(html);
        assertEquals(List.of("bandwidth", "bandwidth-scaled", "msgrate"), List.copyOf(p.keySet()),
                "every row's series is one completion covering the run: no time series plot");
        assertTrue(html.contains("<div class=\"note plot-note\" data-note=\"timeseries-omitted\" data-items=\"1\">"
                + "Time series not drawn"), html);
        assertTrue(html.contains("rxe_write_bw_sweep: 2, 4, 8, 16, 32, 64, 128, 256, 512, 1K, 2K, 4K, 8K, 16K, 32K, "
                + "64K, 128K, 256K, 512K, 1M, 2M, 4M, 8M B."), "each size left out is named");
    }

    @Test
    void aCurveFarBelowItsCeilingGetsASecondViewScaledToTheData() {
        RunDocument rxe = ReportFixtures.read("rxe_write_bw_sweep.json");
        Map<String, PlotsInHtml.PlotInfo> p = PlotsInHtml.read(ReportPage.render(null, List.of(rxe)));
        PlotsInHtml.PlotInfo full = p.get("bandwidth");
        assertEquals(Map.of("port-rate", List.of("10")), full.references());
        PlotsInHtml.PlotInfo scaled = p.get("bandwidth-scaled");
        assertTrue(scaled.references().isEmpty(), "the ceiling is off the scaled view's axis");
        assertEquals(ReportFixtures.SWEEP_ROWS, scaled.series("rxe_write_bw_sweep").dataPoints());
        assertTrue(scaled.svg().contains("of the port rate rxe0: 10 Gb/s (off this scale)"), scaled.svg());
        double top = topTick(scaled.svg());
        assertTrue(top > 0.5 && top < 1, "the axis ends just above the data (0.53 Gb/s), at " + top);
        // near the ceiling (the IB fixtures reach ~190 of 200 Gb/s), one view is enough
        assertFalse(PlotsInHtml.read(ReportPage.render(null, ReportFixtures.readAll("bw_sweep_ib.json")))
                .containsKey("bandwidth-scaled"));
    }

    /** The largest y tick label of a plot's SVG (labels at x = 64). */
    private static double topTick(String svg) {
        double top = 0;
        var m = java.util.regex.Pattern.compile("<text class=\"tick\" x=\"64\" y=\"[^\"]+\" text-anchor=\"end\">"
                + "([0-9.]+)</text>").matcher(svg);
        while (m.find()) {
            top = Math.max(top, Double.parseDouble(m.group(1)));
        }
        return top;
    }

    @Test
    void binsFollowWhatTheRunResolves() {
        // 100 intervals of 1 ms, completions in 4 of them: 4 bins of 25 ms (bandwidth: their mean)
        List<Double> v = new ArrayList<>(Collections.nCopies(100, 0.0));
        for (int k : new int[] {10, 35, 60, 85}) {
            v.set(k, 100.0);
        }
        TimeSeriesPlots.Binned b = TimeSeriesPlots.bin(new TimeSeries(1, "Gb/sec", 0, v));
        assertEquals(25.0, b.intervalMs());
        assertEquals(List.of(4.0, 4.0, 4.0, 4.0), b.values());
        // one completion covering the run: nothing to show
        List<Double> one = new ArrayList<>(Collections.nCopies(50, 0.0));
        one.set(49, 7.0);
        assertNull(TimeSeriesPlots.bin(new TimeSeries(1, "MB/sec", 0, one)));
        // latency: every interval has a sample, no merging; a merged bin keeps the largest
        assertEquals(List.of(1.0, 9.0, 2.0), TimeSeriesPlots.bin(new TimeSeries(1, "usec", 0, List.of(1.0, 9.0,
                2.0))).values());
        TimeSeriesPlots.Binned lat = TimeSeriesPlots.bin(new TimeSeries(1, "usec", 0, Arrays.asList(1.0, 9.0, null,
                null, 4.0, null)));
        assertEquals(2.0, lat.intervalMs());
        assertEquals(Arrays.asList(9.0, null, 4.0), lat.values(), "a bin without a sample stays a gap");
    }

    @Test
    void bandwidthIsInGbPerSecondEverywhere() {
        assertEquals(8.388608, 1000 * TimeSeriesPlots.toGbps("MB/sec"), 1e-9, "perftest's MB is 2^20 bytes");
        assertEquals(1.0, TimeSeriesPlots.toGbps("Gb/sec"));
        // the rxe sweep (MB/sec) with its 2-byte row's series made steady: 1000 MB/sec in every interval
        String text = ReportFixtures.text("rxe_write_bw_sweep.json");
        int at = text.indexOf("\"values\": [");
        String steady = text.substring(0, at) + "\"values\": [" + String.join(",", Collections.nCopies(10, "1000"))
                + text.substring(text.indexOf(']', at));
        RunDocument bw = RunReader.parse(steady, "steady.json");
        PlotsInHtml.PlotInfo ts = PlotsInHtml.read(ReportPage.render(null, List.of(bw))).get("timeseries-1-2");
        assertEquals(10, ts.series("steady, 2 B").dataPoints());
        assertTrue(ts.svg().contains("ms, 8.38861 Gb/s</title>"), ts.svg());
        assertTrue(ts.svg().contains(">bandwidth (Gb/s)</text>"), ts.svg());
        assertFalse(ts.svg().contains("MB/sec") || ts.svg().contains("MB/s"), "no second bandwidth unit");
        assertTrue(ts.svg().contains(" Gb/s</title>"));
    }

    @Test
    void latencyAxesAreLabelledInReadableUnits() {
        assertEquals("500 ns", Html.duration(0.5));
        assertEquals("2.5 µs", Html.duration(2.5));
        assertEquals("20 ms", Html.duration(20000));
        assertEquals("1 s", Html.duration(1e6));
        assertEquals("0", Html.duration(0));
        List<String> ticks = Scale.log10(1, 1e6, Html::duration).ticks().stream().map(Scale.Tick::label).toList();
        assertEquals(List.of("1 µs", "10 µs", "100 µs", "1 ms", "10 ms", "100 ms", "1 s"), ticks);
        RunDocument sweep = RunReader.parse(ReportFixtures.latencySweep("Send_Latency_Test", 23, 100), "s.json");
        for (PlotsInHtml.PlotInfo p : PlotsInHtml.read(ReportPage.render(null, List.of(sweep))).values()) {
            assertFalse(p.svg().contains("(µs)"), p.id() + ": the unit is in the tick labels");
            assertTrue(p.svg().contains(" µs</text>"), p.id());
        }
    }
}
