package io.rdmaffm.perftest.engine;

/**
 * The inputs of a bandwidth loop (run_iter_bw, run_iter_bi); the outputs go to a {@link Measurement}.
 *
 * @param iterations    work requests per QP (iteration mode; ignored with a duration)
 * @param txDepth       at most this many posted and not yet completed per QP
 * @param cqMod         signal every cqMod-th work request (and the last)
 * @param postList      work requests per post call
 * @param inline        post with the inline flag
 * @param noPeak        no per-post timestamps: the figures need only the first post and the last completion
 * @param durationNanos duration mode: the whole run, 0 for iteration mode
 * @param marginNanos   duration mode: not counted at either end of the run
 * @param stallNanos    no completion for this long ends the run with a {@link RunFailure}
 * @param burst         SW rate limit: work requests per burst (0: no limit)
 * @param burstGapNanos SW rate limit: from one burst's start to the next's
 */
record BwSpec(long iterations, int txDepth, int cqMod, int postList, boolean inline, boolean noPeak,
        long durationNanos, long marginNanos, long stallNanos, int burst, long burstGapNanos) {

    /** Whether the loop runs for a time rather than a number of iterations. */
    boolean duration() {
        return durationNanos > 0;
    }

    /** Whether the sender paces its posts in bursts (SW rate limit). */
    boolean paced() {
        return burst > 0;
    }

    /** The same spec with another tx depth. */
    BwSpec withTxDepth(int depth) {
        return new BwSpec(iterations, depth, cqMod, postList, inline, noPeak, durationNanos, marginNanos, stallNanos,
                burst, burstGapNanos);
    }
}
