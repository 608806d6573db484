package io.rdmaffm.perftest.report.compare;

import java.util.List;

/**
 * One side's figures for a test, size and metric: one per repeat (per run document holding that row).
 *
 * @param n the number of figures (repeats)
 * @param mean their mean, the figure compared
 * @param min the smallest
 * @param max the largest
 */
public record Stats(int n, double mean, double min, double max) {

    /** @return null for no values */
    static Stats of(List<Double> values) {
        if (values.isEmpty()) {
            return null;
        }
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        return new Stats(values.size(), sum / values.size(), min, max);
    }

    /** Whether there are repeats, so the side has a measured spread. */
    public boolean hasRepeats() {
        return n >= 2;
    }

    /** The spread (max − min) relative to the mean, in percent; NaN without repeats or with a zero mean. */
    public double spreadPercent() {
        if (!hasRepeats() || mean == 0) {
            return Double.NaN;
        }
        return 100 * (max - min) / Math.abs(mean);
    }

    /** Whether this side's range [min, max] and the other's have no value in common. */
    public boolean disjointFrom(Stats o) {
        return max < o.min || o.max < min;
    }
}
