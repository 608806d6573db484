package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.vocab.BwUnit;

/**
 * A row's figure over time, for the run document and the HTML report: the largest latency per interval, or
 * the bandwidth of the work completed per interval. Computed after the run from the timestamps the loops
 * recorded anyway, so it costs the measured loop nothing.
 *
 * @param intervalMs    length of one interval
 * @param unit          {@code "usec"}, {@code "MB/sec"} or {@code "Gb/sec"}
 * @param startOffsetMs the first interval's start, from the row's first post
 * @param values        one figure per interval; NaN where an interval had no sample (written as null)
 */
public record TimeSeries(double intervalMs, String unit, double startOffsetMs, double[] values) {
    /** About this many intervals per row: enough to see a stall, few enough to stay small. */
    static final int TARGET_POINTS = 100;

    /**
     * The largest one-way latency (round trip over {@code rttFactor}) per interval, from the post stamps of
     * {@code iters} round trips; null for fewer than 3.
     */
    public static TimeSeries latency(long[] tposted, int iters, int rttFactor) {
        if (iters < 3) {
            return null;
        }
        long start = tposted[0];
        long interval = interval(tposted[iters - 1] - start);
        double[] v = empty(tposted[iters - 1] - start, interval);
        for (int i = 0; i < iters - 1; i++) {
            int k = (int) ((tposted[i + 1] - start) / interval);
            double us = (tposted[i + 1] - tposted[i]) / 1000.0 / rttFactor;
            if (Double.isNaN(v[k]) || us > v[k]) {
                v[k] = us;
            }
        }
        return new TimeSeries(interval / 1e6, "usec", 0, v);
    }

    /**
     * Bandwidth per interval from {@code tcompleted[c - 1]} (when the completion count reached c) of a run of
     * {@code count} work requests of {@code size} bytes that started at {@code tposted[0]}; entries outside the
     * run (left from an earlier size, or never reached under cq moderation) are skipped. Null when the run kept
     * no per-completion times.
     */
    public static TimeSeries bandwidth(long size, int count, long[] tposted, long[] tcompleted, BwUnit unit) {
        long start = tposted[0];
        long end = 0;
        for (int j = 0; j < count; j++) {
            if (tcompleted[j] >= start) {
                end = Math.max(end, tcompleted[j]);
            }
        }
        if (end <= start) {
            return null;
        }
        long interval = interval(end - start);
        double[] v = empty(end - start, interval);
        long[] completed = new long[v.length];
        long done = 0;
        for (int j = 0; j < count; j++) {
            long t = tcompleted[j];
            if (t >= start && t <= end && j + 1 > done) {
                int k = (int) ((t - start) / interval);
                completed[k] += j + 1 - done;
                done = j + 1;
            }
        }
        double seconds = interval / 1e9;
        for (int k = 0; k < v.length; k++) {
            v[k] = completed[k] * (double) size / unit.bytesPerUnit() / seconds;
        }
        return new TimeSeries(interval / 1e6, unit.label(), 0, v);
    }

    /** A round interval (1, 2 or 5 times a power of ten, at least 1 µs) giving about TARGET_POINTS. */
    static long interval(long spanNanos) {
        long raw = Math.max(1000, spanNanos / TARGET_POINTS);
        long p = 1;
        while (p * 10 <= raw) {
            p *= 10;
        }
        for (long m : new long[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static double[] empty(long span, long interval) {
        double[] v = new double[(int) (span / interval) + 1];
        java.util.Arrays.fill(v, Double.NaN);
        return v;
    }
}
