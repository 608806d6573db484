package io.rdmaffm.perftest.engine;

/**
 * What a measured loop records, allocated once per run and reused for every message size: per-QP counters,
 * the post and completion timestamps the figures are computed from after the loop, and the sample window of
 * duration mode. The loops write it and never allocate.
 */
final class Measurement {
    /** Per QP: work requests posted, covered by polled completions, and messages received. */
    final long[] scnt;
    final long[] ccnt;
    final long[] rcnt;
    /** {@code tposted[k]}: just before post k (all QPs counted together); latency: one per round trip. */
    final long[] tposted;
    /** {@code tcompleted[c - 1]}: when the completion count reached c (see BwArithmetic). */
    final long[] tcompleted;
    /** Duration mode, and the send_bw server: the counted window and what it counted. */
    long windowStart;
    long windowEnd;
    long counted;

    /** Counters for {@code queuePairs} QPs and room for {@code samples} timestamps. */
    Measurement(int queuePairs, int samples) {
        scnt = new long[queuePairs];
        ccnt = new long[queuePairs];
        rcnt = new long[queuePairs];
        tposted = new long[samples];
        tcompleted = new long[samples];
    }

    /**
     * Marks every timestamp slot unwritten ({@link ShareMerge#UNSET}) before a share's run under {@code --threads}:
     * the merge tells the slots a loop stamped from the ones it skipped. Not in a loop.
     */
    void clearStamps() {
        java.util.Arrays.fill(tposted, ShareMerge.UNSET);
        java.util.Arrays.fill(tcompleted, ShareMerge.UNSET);
    }

    /** Zeroes the counters and the window before a run (timestamps are overwritten). */
    void reset() {
        for (int i = 0; i < scnt.length; i++) {
            scnt[i] = 0;
            ccnt[i] = 0;
            rcnt[i] = 0;
        }
        windowStart = 0;
        windowEnd = 0;
        counted = 0;
    }
}
