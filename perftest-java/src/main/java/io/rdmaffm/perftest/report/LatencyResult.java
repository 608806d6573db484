package io.rdmaffm.perftest.report;

/**
 * The figures of one latency row, in microseconds, computed as perftest 4.5-0.17 computes them
 * ({@link LatencyArithmetic}).
 *
 * @param tMin    smallest sample
 * @param tMax    perftest's "max": the second-largest of all samples (it drops the two largest, then reads
 *                one past the end of what is left)
 * @param typical median with perftest's integer and index quirks
 * @param avg     mean over all samples but the two largest
 * @param stdev   standard deviation with each deviation truncated to whole microseconds
 * @param p99     sample at index ceil(0.99 · n)
 * @param p999    sample at index ceil(0.999 · n)
 */
public record LatencyResult(double tMin, double tMax, double typical, double avg, double stdev, double p99,
        double p999) {
}
