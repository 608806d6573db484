package io.rdmaffm.perftest.validate;

/**
 * How each loopback run is made.
 *
 * @param sizeBytes       message size ({@code -s}); default {@value #DEFAULT_SIZE}
 * @param qps             QPs ({@code -q}), or null: {@link #qpsFor} chooses by the port's rate
 * @param durationSeconds each run's {@code -D}; default {@value #DEFAULT_DURATION}
 * @param warmup          {@code --warmup}, or null for the tools' default
 * @param thresholds      the verdict's thresholds
 */
public record Settings(int sizeBytes, Integer qps, int durationSeconds, Integer warmup, Thresholds thresholds) {
    /** Default message size: large enough that per-message costs vanish behind the wire time. */
    public static final int DEFAULT_SIZE = 65536;
    /** Default seconds per run ({@code -D}); perftest's margin of D/4 leaves the middle 2-3 s measured. */
    public static final int DEFAULT_DURATION = 5;
    /** Link rate one QP is trusted to fill, in Gb/s: one QP per 100 Gb/s of port rate. */
    static final double GBPS_PER_QP = 100;
    /** Fewest QPs chosen: two keep the link busy while one waits for its completions. */
    static final int MIN_QPS = 2;
    /** Most QPs chosen. */
    static final int MAX_QPS = 16;

    /**
     * @throws IllegalArgumentException with one line when a figure is out of range
     */
    public Settings {
        if (sizeBytes < 1 || sizeBytes > (1 << 30)) {
            throw new IllegalArgumentException("--size must be 1 B .. 1 GiB, got " + sizeBytes);
        }
        if (qps != null && (qps < 1 || qps > 1024)) {
            throw new IllegalArgumentException("--qps must be 1..1024, got " + qps);
        }
        if (durationSeconds < 1 || durationSeconds > 3600) {
            throw new IllegalArgumentException("--duration must be 1..3600 seconds, got " + durationSeconds);
        }
        if (warmup != null && warmup < 0) {
            throw new IllegalArgumentException("--warmup must not be negative, got " + warmup);
        }
    }

    /** @return the QPs for {@code port}: as given, else one per 100 Gb/s of port rate, 2..16 */
    public int qpsFor(Expectation port) {
        if (qps != null) {
            return qps;
        }
        double rate = port.portRateGbps() == null ? 0 : port.portRateGbps();
        return (int) Math.max(MIN_QPS, Math.min(MAX_QPS, Math.ceil(rate / GBPS_PER_QP)));
    }
}
