package io.rdmaffm.perftest.report.html;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The points of a latency percentile curve: ten per decade of 1/(1-p), from p = 0 up to the last percentile the
 * samples resolve (1/(1-p) below the sample count) or 99.999%, whichever is lower, then one end point: the
 * largest sample when the axis reaches it (count up to 10^5), else the 99.999th percentile.
 */
public final class LatencyCurve {
    /** The axis ends at 99.999%: 1/(1-p) = 10^5. */
    public static final double AXIS_END = 1e5;
    private static final int STEPS_PER_DECADE = 10;

    private LatencyCurve() {
    }

    /** One point: {@code x = 1/(1-p)}, the percentile p in percent, the value in µs. */
    public record Point(double x, double percentile, double micros) {
    }

    /**
     * @param h samples in nanoseconds
     * @return the curve; empty for an empty histogram
     */
    public static List<Point> points(Histogram h) {
        long count = h.getTotalCount();
        List<Point> out = new ArrayList<>();
        if (count == 0) {
            return out;
        }
        double end = Math.min(count, AXIS_END);
        for (int k = 0; ; k++) {
            double x = Math.pow(10, k / (double) STEPS_PER_DECADE);
            if (x >= end * (1 - 1e-12)) {
                break;
            }
            double pct = 100 * (1 - 1 / x);
            out.add(new Point(x, pct, h.getValueAtPercentile(pct) / 1000.0));
        }
        if (count <= AXIS_END) {
            out.add(new Point(end, 100, h.getMaxValue() / 1000.0));
        } else {
            out.add(new Point(end, 99.999, h.getValueAtPercentile(99.999) / 1000.0));
        }
        return out;
    }
}
