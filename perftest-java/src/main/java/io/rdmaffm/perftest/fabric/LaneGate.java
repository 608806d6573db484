package io.rdmaffm.perftest.fabric;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The lanes' meeting point (docs/fabric-design.md §11): a barrier before each iteration, so that the lanes run the
 * iterations in lock-step as one thread over every QP did, and an iteration's time runs from the moment the last
 * lane was ready; and the first failure of any lane, which every other lane's wait checks so that none waits on
 * past it. The barrier allocates nothing; its waits end by the step deadline.
 */
final class LaneGate {
    private final int lanes;
    private final long stepNanos;
    private final CoordinatorClient coordinator;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int phase;
    private volatile String failure;
    /** Per iteration, when the last lane arrived (written by that lane before it opens the barrier). */
    private final long[] releasedAt;

    /**
     * @param coordinator whose abort a waiting lane also notices; null in the host tests
     */
    LaneGate(int lanes, int iterations, long stepNanos, CoordinatorClient coordinator) {
        this.lanes = lanes;
        this.stepNanos = stepNanos;
        this.coordinator = coordinator;
        this.releasedAt = new long[iterations];
    }

    int lanes() {
        return lanes;
    }

    /** Waits until every lane has arrived for {@code iteration}; throws on another lane's failure or the deadline. */
    void await(int iteration) {
        int p = phase; // cannot move before this lane arrives
        if (arrived.incrementAndGet() == lanes) {
            arrived.set(0);
            releasedAt[iteration] = System.nanoTime();
            phase = p + 1;
            return;
        }
        long deadline = System.nanoTime() + stepNanos;
        int idle = 0;
        while (phase == p) {
            check();
            if (System.nanoTime() > deadline) {
                throw new FabricFailure("step timeout: this rank's other threads did not reach iteration " + iteration
                        + " within " + stepNanos / 1_000_000_000L + " s");
            }
            Idle.pause(++idle);
        }
    }

    /** When the last lane arrived for {@code iteration}; read after every lane has ended. */
    long releasedAt(int iteration) {
        return releasedAt[iteration];
    }

    /** Records the first failure; the other lanes see it at their next wait. */
    synchronized void fail(String message) {
        if (failure == null) {
            failure = message;
        }
    }

    /** The first failure, or null. */
    String failure() {
        return failure;
    }

    /** Throws when another lane failed, or the coordinator aborted the run. */
    void check() {
        String f = failure;
        if (f != null) {
            throw new FabricFailure(f);
        }
        if (coordinator != null) {
            coordinator.check();
        }
    }
}
