package io.rdmaffm.perftest.cluster;

import java.io.IOException;

/**
 * Where a run's results go as they arrive. The run calls these from one thread at a time, attempts in the order
 * they finish, so an implementation needs no locking. Writing each attempt out as it arrives (and keeping only
 * its figures) is what keeps the driver's memory small on large matrices: see {@link FileSink}.
 */
public interface MatrixSink {

    /** Before the first round. */
    default void started(MatrixPlan plan) throws IOException {
    }

    /** One finished attempt, with its tools' raw output. */
    void attempt(Attempt attempt) throws IOException;

    /** After the last retest, with the verdicts. */
    default void finished(MatrixOutcome outcome) throws IOException {
    }

    /** A sink that keeps nothing. */
    static MatrixSink none() {
        return a -> {
        };
    }
}
