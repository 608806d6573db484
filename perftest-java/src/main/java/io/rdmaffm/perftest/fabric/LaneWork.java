package io.rdmaffm.perftest.fabric;

/**
 * What one lane does (docs/fabric-design.md §11): with {@code --threads T} every link of the pattern is T RC QPs,
 * lane t carrying share t of the link's bytes (of each ring chunk's elements, cut as {@code engine.QpShares} cuts
 * -q), and one thread drives lane t of every link with its own CQ and work requests. {@link LaneThreads} runs the
 * lanes in lock-step, one iteration at a time. Implementations allocate nothing per iteration.
 */
interface LaneWork {
    /** One iteration; {@code seq} counts them from 0 over warm-up and timed ones. */
    void iteration(int seq);

    /** From the next iteration on (true) its waits and write times count; warm-up and the check's run do not. */
    void timed(boolean on);

    /** Before the untimed check iteration (ring patterns: poison this lane's part of the output). */
    default void beforeCheck() {
    }
}
