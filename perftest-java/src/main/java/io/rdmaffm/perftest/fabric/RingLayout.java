package io.rdmaffm.perftest.fabric;

/**
 * Where a ring rank keeps its arrays in its one registered region (docs/fabric-design.md §1): the input, the
 * output (out of place, so every iteration starts from the same input) and, for the reduce-scatter, two staging
 * slots of one chunk each. All-gather alone has an input of one chunk and no staging.
 *
 * @param ranks       N
 * @param chunk       S/N bytes
 * @param input       offset of the input
 * @param inputBytes  S, or one chunk for all-gather alone
 * @param output      offset of the output (S bytes)
 * @param staging     offset of the two staging slots (reduce-scatter), else the region's end
 * @param total       the region's size
 */
record RingLayout(int ranks, long chunk, long input, long inputBytes, long output, long staging, long total) {

    static RingLayout of(FabricPattern p, int ranks, long wholeBytes) {
        long chunk = wholeBytes / ranks;
        long inputBytes = p.reduceScatter() ? wholeBytes : chunk;
        long output = inputBytes;
        long staging = output + wholeBytes;
        long total = staging + (p.reduceScatter() ? 2 * chunk : 0);
        return new RingLayout(ranks, chunk, 0, inputBytes, output, staging, total);
    }

    /** Offset of output chunk k. */
    long out(int k) {
        return output + k * chunk;
    }

    /** Offset of input chunk k (reduce-scatter layouts). */
    long in(int k) {
        return input + k * chunk;
    }

    /** Offset of staging slot 0 or 1. */
    long slot(int s) {
        return staging + s * chunk;
    }
}
