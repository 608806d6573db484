package io.rdmaffm.perftest.report;

/**
 * The figures of a duration-mode ({@code -D}) latency row.
 *
 * @param avgUsec average latency, microseconds
 * @param tps     transactions per second
 */
public record DurationLatency(double avgUsec, double tps) {
}
