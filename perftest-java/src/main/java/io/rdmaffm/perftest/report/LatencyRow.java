package io.rdmaffm.perftest.report;

/**
 * One latency table row: what {@link PerftestFormat#latencyRow} prints and the JSON report lists.
 *
 * @param size    message size, bytes
 * @param iters   iterations
 * @param figures the computed figures
 */
public record LatencyRow(long size, long iters, LatencyResult figures) {
}
