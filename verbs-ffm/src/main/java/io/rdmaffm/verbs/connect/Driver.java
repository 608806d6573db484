package io.rdmaffm.verbs.connect;

import java.time.Duration;
import java.util.concurrent.locks.Condition;

/**
 * How a connection waits (the threading model's core; docs/connection-api.md tells it to users): a waiting caller
 * polls, spins a moment, then parks on {@link #progressed}, a condition of the connection's lock, so a virtual
 * thread frees its carrier; the connection's driver thread, a platform daemon started at the first wait or future,
 * is the only thread that sleeps in native code (poll(2) on the completion channel). It runs while a caller waits
 * ({@link #waiters}) or a future is pending, parks on {@link #wanted} otherwise, and signals {@link #progressed}
 * whenever a poll found something. Everything here runs under the connection's lock.
 */
final class Driver {
    /** How long a waiting thread polls before it parks. */
    static final long SPIN_NANOS = 50_000;
    /**
     * Longest sleep of the driver on the completion channel before it looks again (operations that began to wait for
     * credits meanwhile, which raise no completion event).
     */
    static final long SLICE_NANOS = 50_000_000;
    /** Longest park of an idle driver (it is signaled; this only bounds the cost of a signal that was never sent). */
    static final long IDLE_NANOS = 1_000_000_000L;
    /** Park of a sender waiting for credits, which arrive as RDMA WRITEs that raise no event. */
    static final long CREDIT_PAUSE_NANOS = 100_000;

    private final Core core;
    /** Signaled by the driver when it has seen completions, and on failure and close: waiting callers park on it. */
    final Condition progressed;
    /** Signaled by callers that start to wait or submit a future: the driver parks on it while nobody needs it. */
    final Condition wanted;
    /** Callers parked in (or briefly outside, completing futures in) a wait step; a close waits until none is. */
    int waiters;
    /** The driver, once started. */
    Thread thread;

    Driver(Core core) {
        this.core = core;
        this.progressed = core.lock.newCondition();
        this.wanted = core.lock.newCondition();
    }

    /** Wakes everybody: waiting callers and the driver (failure, close). */
    void wakeAll() {
        progressed.signalAll();
        wanted.signalAll();
    }

    /**
     * One step of a wait: polls; if nothing came, polls in a loop for a moment; then parks on {@link #progressed}
     * (a Java condition, so a virtual thread frees its carrier) until the driver thread, the only thread that sleeps
     * in native code on the completion channel, has seen a completion, or the deadline. A waiter for
     * credits parks {@link #CREDIT_PAUSE_NANOS} and polls again itself: credits arrive as RDMA WRITEs that raise no
     * completion event. A failure or close wakes it. Returns false when the deadline passed; throws when the
     * connection was closed, or had failed before the step. Called with the lock held once (not re-entered).
     */
    boolean waitStep(long deadline, boolean forCredit) {
        core.checkPending();
        int creditsBefore = core.credits.available();
        if (core.pollOnce() > 0 || forCredit && core.credits.available() > creditsBefore) {
            completeReady();
            return true;
        }
        long left = Deadlines.remaining(deadline);
        if (left <= 0) {
            return false;
        }
        long spinEnd = System.nanoTime() + Math.min(SPIN_NANOS, left);
        while (spinEnd - System.nanoTime() > 0) {
            if (core.pollOnce() > 0 || forCredit && core.credits.available() > creditsBefore) {
                completeReady();
                return true;
            }
            Thread.onSpinWait();
        }
        if (completeReady()) {
            return true;
        }
        waiters++;
        try {
            if (!forCredit) {
                start();
                wanted.signal();
            }
            // Until the deadline: the driver signals every completion, a failure and a close; no periodic wake-up, which
            // would cost every parked virtual thread a carrier turn per slice.
            progressed.awaitNanos(forCredit ? Math.min(left, CREDIT_PAUSE_NANOS) : left);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting on the connection to " + core.peer, e);
        } finally {
            waiters--;
        }
        if (core.closed) {
            core.checkPending();
        }
        return true; // a failure meanwhile is for the caller's next step: a receive still takes what arrived first
    }

    /**
     * Completes the futures this thread's polls made ready, with the lock released for the moment (dependent actions
     * never run under it), before the thread parks: a future must not wait for the end of another thread's blocking
     * call. True when there were any. Only at hold count 1, as in {@link #waitStep}.
     */
    private boolean completeReady() {
        if (!core.async.hasReady()) {
            return false;
        }
        Object[][] batch = core.async.takeReady();
        waiters++; // a close meanwhile waits for this thread before it destroys anything
        core.lock.unlock();
        try {
            AsyncOps.complete(batch);
        } finally {
            core.lock.lock();
            waiters--;
        }
        return true;
    }

    /**
     * The driver's sleep: arms the CQ, polls once more (a completion before the arming raises no event), sleeps on
     * the channel with the lock released, at most {@link #SLICE_NANOS}.
     */
    private void sleepOnChannel() {
        core.parts.cq().requestNotify(false);
        if (core.pollOnce() > 0) {
            progressed.signalAll();
            return;
        }
        core.lock.unlock();
        try {
            core.parts.channel().awaitEvent(core.parts.cq(), Duration.ofNanos(SLICE_NANOS));
        } catch (IllegalStateException closedMeanwhile) {
            // the CQ or its channel is being closed with the connection: the next turn sees it closed
        } finally {
            core.lock.lock();
        }
    }


    /**
     * Starts the connection's driver thread (once, at the first wait or future): a platform daemon thread, the only
     * one that blocks in native code (poll(2) on the completion channel). It runs while a thread waits in the
     * connection or a future is pending, polls the CQ after every event, and signals {@link #progressed}; futures
     * complete on it.
     */
    void start() {
        if (thread != null || core.closed) {
            return;
        }
        Thread t = Thread.ofPlatform().daemon().name("rdma-connection " + core.peer).unstarted(this::run);
        thread = t;
        t.start();
    }

    private void run() {
        while (true) {
            core.lock.lock();
            try {
                if (core.closed || core.failure != null) {
                    progressed.signalAll();
                    return;
                }
                if (waiters == 0 && !core.async.pending()) {
                    wanted.awaitNanos(IDLE_NANOS); // every new waiter and future signals wanted, under the lock
                    continue;
                }
                int creditsBefore = core.credits.available();
                if (core.pollOnce() > 0 || core.credits.available() > creditsBefore) {
                    progressed.signalAll();
                } else if (!core.async.backlog.isEmpty() && core.sq.free() > 0) {
                    wanted.awaitNanos(CREDIT_PAUSE_NANOS); // operations wait for credits, which raise no event
                } else {
                    sleepOnChannel();
                }
            } catch (InterruptedException | RuntimeException stop) {
                if (core.failure == null && !core.closed) {
                    core.fail(new ConnectionException(ConnectionException.Reason.FAILED_COMPLETION, "connection", 0,
                            "the connection's driver thread stopped, peer " + core.peer + ": " + stop, null, null));
                }
                return;
            } finally {
                core.unlock();
            }
        }
    }

}
