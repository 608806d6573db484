package io.rdmaffm.perftest.report.html;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleFunction;

/**
 * An axis: maps a data value into [0, 1] of the plot's extent and lists its ticks. Linear axes start at zero
 * (bandwidth, rates); logarithmic ones serve message sizes (base 2), percentiles (1/(1-p)) and latencies whose
 * tail is far above the median (base 10).
 */
public final class Scale {
    /** A tick at {@code value}, labelled (an empty label: a tick line without text, to keep labels apart). */
    public record Tick(double value, String label) {
    }

    private final String kind;
    private final double min;
    private final double max;
    private final boolean log;
    private final List<Tick> ticks;

    private Scale(String kind, double min, double max, boolean log, List<Tick> ticks) {
        this.kind = kind;
        this.min = min;
        this.max = max;
        this.log = log;
        this.ticks = List.copyOf(ticks);
    }

    /** {@code "linear"}, {@code "log2"}, {@code "log10"} or {@code "percentile"}: what the plot's data attribute says. */
    public String kind() {
        return kind;
    }

    public double min() {
        return min;
    }

    public double max() {
        return max;
    }

    public List<Tick> ticks() {
        return ticks;
    }

    /** Where {@code v} lies between min (0) and max (1); outside that range for values outside the axis. */
    public double fraction(double v) {
        if (log) {
            return (Math.log(v) - Math.log(min)) / (Math.log(max) - Math.log(min));
        }
        return (v - min) / (max - min);
    }

    /** Whether the axis can place {@code v} (a log axis has no place for zero or less). */
    public boolean accepts(double v) {
        return !Double.isNaN(v) && !Double.isInfinite(v) && (!log || v > 0);
    }

    /** A linear axis from 0 to a round number at or above {@code maxValue}, with 4 to 8 ticks. */
    public static Scale linearFromZero(double maxValue, DoubleFunction<String> label) {
        double top = maxValue > 0 ? maxValue : 1;
        double step = niceStep(top / 5);
        double end = Math.ceil(top / step - 1e-9) * step;
        List<Tick> t = new ArrayList<>();
        for (int i = 0; i * step <= end + step / 1e6; i++) {
            t.add(new Tick(i * step, label.apply(i * step)));
        }
        return new Scale("linear", 0, end, false, t);
    }

    private static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / p;
        return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
    }

    /**
     * A base-2 axis over message sizes, one octave of margin each side, a tick at every power of two and labels
     * thinned so that at most 12 show.
     */
    public static Scale log2Sizes(double minSize, double maxSize) {
        int lo = (int) Math.floor(Math.log(Math.max(1, minSize)) / Math.log(2) + 1e-9);
        int hi = (int) Math.ceil(Math.log(Math.max(minSize, maxSize)) / Math.log(2) - 1e-9);
        lo = Math.max(0, lo - 1);
        hi = hi + 1;
        int every = Math.max(1, (int) Math.ceil((hi - lo + 1) / 12.0));
        List<Tick> t = new ArrayList<>();
        for (int e = lo; e <= hi; e++) {
            double v = Math.pow(2, e);
            t.add(new Tick(v, (e - lo) % every == 0 ? Html.size(v) : ""));
        }
        return new Scale("log2", Math.pow(2, lo), Math.pow(2, hi), true, t);
    }

    /** A base-10 axis from the decade at or below {@code minValue} to the one at or above {@code maxValue}. */
    public static Scale log10(double minValue, double maxValue, DoubleFunction<String> label) {
        int lo = (int) Math.floor(Math.log10(minValue) + 1e-9);
        int hi = (int) Math.ceil(Math.log10(Math.max(minValue, maxValue)) - 1e-9);
        if (hi == lo) {
            hi++;
        }
        List<Tick> t = new ArrayList<>();
        for (int e = lo; e <= hi; e++) {
            for (int m : hi - lo <= 3 ? new int[] {1, 2, 5} : new int[] {1}) {
                double v = m * Math.pow(10, e);
                if (v <= Math.pow(10, hi) * 1.0000001) {
                    t.add(new Tick(v, label.apply(v)));
                }
            }
        }
        return new Scale("log10", Math.pow(10, lo), Math.pow(10, hi), true, t);
    }

    /**
     * The usual percentile axis: x = 1/(1-p) on a base-10 scale from p = 0 (x = 1) to p = 99.999% (x = 10^5),
     * labelled 0%, 90%, 99%, ... 99.999%.
     */
    public static Scale percentiles() {
        List<Tick> t = new ArrayList<>();
        String[] labels = {"0%", "90%", "99%", "99.9%", "99.99%", "99.999%"};
        for (int e = 0; e <= 5; e++) {
            t.add(new Tick(Math.pow(10, e), labels[e]));
        }
        return new Scale("percentile", 1, 1e5, true, t);
    }
}
