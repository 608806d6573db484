package io.rdmaffm.perftest.report.model;

import java.util.List;

/**
 * One row of a run's table (one message size), of a bandwidth tool, a latency tool, or a latency tool in
 * duration mode. Figures that the file writes as null (no peak without per-completion times, say) are null.
 */
public sealed interface Row permits Row.Bandwidth, Row.Latency, Row.LatencyDuration {

    /** {@code MsgSize}, bytes. */
    long size();

    /** {@code n_iterations}. */
    long iterations();

    /** What the JVM did in this row's window, or null when not recorded. */
    MeasuredWindow window();

    /**
     * Whether the figures are full precision (the row's {@code exact} object) rather than the table's rounded
     * ones, which files written before {@code exact} existed have alone.
     */
    boolean exact();

    /** The per-interval series, or null. */
    TimeSeries timeSeries();

    /** The metrics this kind of row has, in the order tables show them. */
    List<Metric> metrics();

    /** The figure for a metric in {@link #unit(Metric)}, or null when the row has none. */
    Double value(Metric m);

    /** The unit of a metric's figure in this row. */
    String unit(Metric m);

    /** Bits per second in one unit of {@code BW_unit}: perftest's MB is 2^20 bytes, Gb is 10^9 bits. */
    static double bitsPerSecond(String bwUnit) {
        return "Gb/sec".equals(bwUnit) ? 1e9 : 8.0 * 0x100000;
    }

    /** A row of a bandwidth tool; figures in {@code bwUnit}, the message rate in Mpps. */
    record Bandwidth(long size, long iterations, Double bwPeak, Double bwAverage, Double msgRateMpps, String bwUnit,
                     MeasuredWindow window, TimeSeries timeSeries, boolean exact) implements Row {

        /** A bandwidth figure of this row in Gb/s (10^9 bits per second), or null. */
        public Double gbps(Double figure) {
            return figure == null ? null : figure * bitsPerSecond(bwUnit) / 1e9;
        }

        @Override
        public List<Metric> metrics() {
            return List.of(Metric.BW_AVERAGE, Metric.BW_PEAK, Metric.MSG_RATE);
        }

        @Override
        public Double value(Metric m) {
            return switch (m) {
                case BW_AVERAGE -> bwAverage;
                case BW_PEAK -> bwPeak;
                case MSG_RATE -> msgRateMpps;
                default -> null;
            };
        }

        @Override
        public String unit(Metric m) {
            return m == Metric.MSG_RATE ? "Mpps" : bwUnit;
        }
    }

    /** A row of a latency tool in iteration mode; times in µs. */
    record Latency(long size, long iterations, Double tMin, Double tMax, Double tTypical, Double tAvg, Double tStdev,
                   Double p99, Double p99_9, String unit, MeasuredWindow window, LatencyHistogram histogram,
                   TimeSeries timeSeries, boolean exact) implements Row {

        @Override
        public List<Metric> metrics() {
            return List.of(Metric.T_TYPICAL, Metric.T_AVG, Metric.T_MIN, Metric.T_MAX, Metric.P99, Metric.P99_9);
        }

        @Override
        public Double value(Metric m) {
            return switch (m) {
                case T_TYPICAL -> tTypical;
                case T_AVG -> tAvg;
                case T_MIN -> tMin;
                case T_MAX -> tMax;
                case P99 -> p99;
                case P99_9 -> p99_9;
                default -> null;
            };
        }

        @Override
        public String unit(Metric m) {
            return unit;
        }
    }

    /** A row of a latency tool in duration mode ({@code -D}): the mean and the transactions per second. */
    record LatencyDuration(long size, long iterations, Double tAvg, Double tpsAverage, String unit,
                           MeasuredWindow window, boolean exact) implements Row {

        @Override
        public TimeSeries timeSeries() {
            return null;
        }

        @Override
        public List<Metric> metrics() {
            return List.of(Metric.T_AVG, Metric.TPS);
        }

        @Override
        public Double value(Metric m) {
            return switch (m) {
                case T_AVG -> tAvg;
                case TPS -> tpsAverage;
                default -> null;
            };
        }

        @Override
        public String unit(Metric m) {
            return m == Metric.TPS ? "1/s" : unit;
        }
    }
}
