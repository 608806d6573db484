package io.rdmaffm.perftest.engine;

/**
 * {@code --threads T}: which QPs each thread drives. The {@code q} QPs are cut into T contiguous shares whose
 * sizes differ by at most one (share t is [t·q/T, (t+1)·q/T)), so -q need not be a multiple of T and no thread
 * is idle. Contiguous shares keep each thread's counters, work requests and completions on its own QP indices.
 * The fabric worker's {@code --threads} cuts each link's bytes (a ring chunk's elements) the same way
 * ({@code fabric.LaneWork}).
 *
 * @param queuePairs the run's QPs (-q)
 * @param threads    the threads (1..queuePairs)
 */
public record QpShares(int queuePairs, int threads) {

    public QpShares {
        if (threads < 1 || threads > queuePairs) {
            throw new IllegalArgumentException("threads " + threads + " for " + queuePairs + " QPs: 1..QPs");
        }
    }

    /** The first QP of share {@code t}. */
    public int first(int t) {
        return (int) ((long) t * queuePairs / threads);
    }

    /** The QPs of share {@code t}. */
    public int size(int t) {
        return first(t + 1) - first(t);
    }

    /** The share that drives QP {@code qp}. */
    public int shareOf(int qp) {
        int t = (int) ((long) qp * threads / queuePairs);
        // t·q/T rounds down: step forward past shares that end at or before qp
        while (first(t + 1) <= qp) {
            t++;
        }
        while (first(t) > qp) {
            t--;
        }
        return t;
    }
}
