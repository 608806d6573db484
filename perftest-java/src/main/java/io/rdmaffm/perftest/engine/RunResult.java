package io.rdmaffm.perftest.engine;

/**
 * What one measured run hands to reporting: plain values, the figures are computed from them outside the
 * engine. The timestamp arrays are the engine's own, reused for the next size: read them before the next run.
 */
public sealed interface RunResult {
    /** The {@code --verify} check that followed the run. */
    Verification verification();

    /**
     * A bandwidth run in iteration mode: perftest's figures come from the post and completion timestamps.
     *
     * @param size       bytes per work request on the wire
     * @param count      work requests over all QPs
     * @param tposted    post timestamps (ns)
     * @param tcompleted completion timestamps (ns), every cqMod-th
     * @param postList   {@code -l}
     * @param cqMod      the CQ moderation used
     * @param noPeak     no peak: only the first post and the last completion were stamped
     */
    record BwTimestamps(long size, int count, long[] tposted, long[] tcompleted, int postList, int cqMod,
            boolean noPeak, Verification verification) implements RunResult {
    }

    /**
     * Operations counted inside a window: a bandwidth run with {@code -D}, the send_bw server (first to last
     * receive), or a latency run with {@code -D} (round trips).
     *
     * @param size  bytes per operation (as the row shows it)
     * @param count operations counted
     * @param start window start (ns)
     * @param end   window end (ns)
     */
    record Window(long size, long count, long start, long end, Verification verification) implements RunResult {
    }

    /**
     * A latency run in iteration mode: one post timestamp per round trip.
     *
     * @param size       bytes per message (as the row shows it)
     * @param iterations round trips
     * @param tposted    post timestamps (ns)
     */
    record RoundTrips(long size, int iterations, long[] tposted, Verification verification) implements RunResult {
    }
}
