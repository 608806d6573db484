package io.rdmaffm.perftest.report.model;

/**
 * A figure of a row that can be plotted and compared, with perftest's key for it and which way is better.
 */
public enum Metric {
    /** {@code BW_average}, in the row's bandwidth unit. */
    BW_AVERAGE("BW_average", "BW average", true),
    /** {@code BW_peak}. */
    BW_PEAK("BW_peak", "BW peak", true),
    /** {@code MsgRate}, Mpps. */
    MSG_RATE("MsgRate", "msg rate", true),
    /** {@code t_typical} (the median), µs. */
    T_TYPICAL("t_typical", "t typical", false),
    /** {@code t_avg}, µs. */
    T_AVG("t_avg", "t avg", false),
    /** {@code t_min}, µs. */
    T_MIN("t_min", "t min", false),
    /** {@code t_max}, µs. */
    T_MAX("t_max", "t max", false),
    /** {@code percentile_99}, µs. */
    P99("percentile_99", "99%", false),
    /** {@code percentile_99.9}, µs. */
    P99_9("percentile_99.9", "99.9%", false),
    /** {@code tps_average} of a duration-mode latency row, transactions per second. */
    TPS("tps_average", "tps", true);

    private final String key;
    private final String label;
    private final boolean higherIsBetter;

    Metric(String key, String label, boolean higherIsBetter) {
        this.key = key;
        this.label = label;
        this.higherIsBetter = higherIsBetter;
    }

    /** perftest's JSON key. */
    public String key() {
        return key;
    }

    /** A short label for tables and legends. */
    public String label() {
        return label;
    }

    /** Whether a larger figure is the better one (bandwidth, rates) or the worse (latencies). */
    public boolean higherIsBetter() {
        return higherIsBetter;
    }
}
