package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** Axes (ticks, ranges, where values land) and the percentile curve's points. */
class ScaleAndCurveTest {

    private static List<String> labels(Scale s) {
        return s.ticks().stream().map(Scale.Tick::label).toList();
    }

    @Test
    void aSizeSweepGetsABase2AxisWithAnOctaveOfMargin() {
        Scale s = Scale.log2Sizes(2, 8388608);
        assertEquals("log2", s.kind());
        assertEquals(1, s.min());
        assertEquals(16777216, s.max());
        assertEquals(25, s.ticks().size(), "every power of two from 2^0 to 2^24");
        // 25 ticks: every third labelled, so no more than 12 labels crowd the axis
        assertEquals(List.of("1", "", "", "8", "", "", "64", "", "", "512", "", "", "4K", "", "", "32K", "", "", "256K",
                "", "", "2M", "", "", "16M"), labels(s));
        assertEquals(0.5, s.fraction(4096), 1e-12);
        assertFalse(s.accepts(0));
    }

    @Test
    void oneSizeStillGetsAnAxisAroundIt() {
        Scale s = Scale.log2Sizes(65536, 65536);
        assertEquals(32768, s.min());
        assertEquals(131072, s.max());
        assertEquals(List.of("32K", "64K", "128K"), labels(s));
    }

    @Test
    void linearAxesStartAtZeroAndEndOnARoundNumber() {
        Scale s = Scale.linearFromZero(208, Html::figure);
        assertEquals(List.of("0", "50", "100", "150", "200", "250"), labels(s));
        assertEquals(250, s.max());
        Scale small = Scale.linearFromZero(0.042, Html::figure);
        assertEquals(List.of("0", "0.01", "0.02", "0.03", "0.04", "0.05"), labels(small));
        assertEquals(List.of("0", "0.2", "0.4", "0.6", "0.8", "1"), labels(Scale.linearFromZero(0, Html::figure)));
    }

    @Test
    void logAxesCoverWholeDecades() {
        Scale s = Scale.log10(1.65, 137.2, Html::figure);
        assertEquals(1, s.min());
        assertEquals(1000, s.max());
        assertEquals(List.of("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000"), labels(s));
        Scale wide = Scale.log10(0.5, 2000, Html::figure);
        assertEquals(List.of("0.1", "1", "10", "100", "1000", "10000"), labels(wide));
    }

    @Test
    void thePercentileAxisRunsFromZeroTo99point999() {
        Scale s = Scale.percentiles();
        assertEquals("percentile", s.kind());
        assertEquals(List.of("0%", "90%", "99%", "99.9%", "99.99%", "99.999%"), labels(s));
        assertEquals(0.6, s.fraction(1000), 1e-12, "99.9% lies three fifths along");
    }

    private static Histogram histogram(int n) {
        Histogram h = new Histogram(3);
        for (int i = 1; i <= n; i++) {
            h.recordValue(1000 + i);
        }
        return h;
    }

    @Test
    void theCurveStopsWhereTheSamplesRunOut() {
        // 1000 samples resolve 1/(1-p) up to 1000: ten points a decade for 10^0 .. 10^2.9, then the max at 1000
        List<LatencyCurve.Point> c = LatencyCurve.points(histogram(1000));
        assertEquals(31, c.size());
        assertEquals(1, c.get(0).x());
        assertEquals(0, c.get(0).percentile());
        LatencyCurve.Point last = c.get(30);
        assertEquals(1000, last.x());
        assertEquals(100, last.percentile());
        assertEquals(2.0, last.micros(), 0.001);
        assertEquals(41, LatencyCurve.points(histogram(10000)).size());
        for (int i = 1; i < c.size(); i++) {
            assertTrue(c.get(i).x() > c.get(i - 1).x());
            assertTrue(c.get(i).micros() >= c.get(i - 1).micros());
        }
    }

    @Test
    void beyondTheAxisTheCurveEndsAt99point999() {
        Histogram h = histogram(200_000);
        List<LatencyCurve.Point> c = LatencyCurve.points(h);
        assertEquals(51, c.size(), "10^0 .. 10^4.9 and the end point at 10^5");
        assertEquals(99.999, c.get(50).percentile());
        assertEquals(h.getValueAtPercentile(99.999) / 1000.0, c.get(50).micros());
        assertEquals(0, LatencyCurve.points(new Histogram(3)).size());
        assertEquals(1, LatencyCurve.points(histogram(1)).size());
    }

    @Test
    void figuresAndSizesReadLikeTheTables() {
        assertEquals("11723.2", Html.figure(11723.17));
        assertEquals("0.042185", Html.figure(0.042185));
        assertEquals("400", Html.figure(400.0));
        assertEquals("-", Html.figure(null));
        assertEquals("0", Html.figure(-0.0));
        assertEquals("64K", Html.size(65536));
        assertEquals("8M", Html.size(8388608));
        assertEquals("1000", Html.size(1000));
        assertEquals("-3.5", Html.coord(-3.46));
        assertEquals("0", Html.coord(-0.01));
        assertEquals("&lt;b a=&quot;1&quot;&gt; &amp; &#39;", Html.esc("<b a=\"1\"> & '"));
    }
}
