package io.rdmaffm.perftest.engine;

/**
 * The inputs of a latency loop (run_iter_lat_write, run_iter_lat_send, run_iter_lat); the outputs go to a
 * {@link Measurement}.
 *
 * @param size          message size (write latency polls its last byte)
 * @param iterations    round trips (iteration mode)
 * @param rxDepth       receives kept posted (send latency)
 * @param server        the side that waits for the peer's first message (write and send latency)
 * @param inline        post with the inline flag
 * @param durationNanos duration mode: the whole run, 0 for iteration mode
 * @param marginNanos   duration mode: not counted at either end of the run
 * @param stallNanos    no progress for this long ends the run with a {@link RunFailure}
 * @param gapNanos      {@code --latency_gap}: busy-wait before each post (and its timestamp), 0: none
 */
record LatencySpec(long size, long iterations, int rxDepth, boolean server, boolean inline, long durationNanos,
        long marginNanos, long stallNanos, long gapNanos) {
}
