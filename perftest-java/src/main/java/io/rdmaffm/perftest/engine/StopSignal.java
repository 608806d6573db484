package io.rdmaffm.perftest.engine;

/**
 * {@code --run_infinitely}'s end: set once (by SIGINT, {@code run.InterruptStop}) and read by the loop between
 * polls. A plain volatile flag: the loop reads it without allocating or locking.
 */
public final class StopSignal {
    private volatile boolean stopped;

    /** Asks the loop to stop posting, drain what it posted, and return. */
    public void stop() {
        stopped = true;
    }

    /** Whether {@link #stop} was called. */
    public boolean stopped() {
        return stopped;
    }
}
