package io.rdmaffm.verbs.connect;

import java.util.concurrent.locks.Condition;

/**
 * How a connection waits (the threading model's core; docs/connection-api.md tells it to users): a waiting caller
 * polls, spins a moment, arms the CQ if it is not armed, then parks on {@link #progressed}, a condition of the
 * connection's lock, so a virtual thread frees its carrier. The completion event goes to the device's
 * {@link DeviceDriver}, whose one platform thread per device context sleeps in native code on the completion
 * channel that all the device's connections share; it calls {@link #drive} for this connection, which polls, signals
 * {@link #progressed}, and re-arms while a caller waits ({@link #waiters}) or a future is pending. Everything here
 * runs under the connection's lock.
 */
final class Driver {
    /** How long a waiting thread polls before it parks. */
    static final long SPIN_NANOS = 50_000;
    /** Park of a sender waiting for credits, which arrive as RDMA WRITEs that raise no event. */
    static final long CREDIT_PAUSE_NANOS = 100_000;

    private final Core core;
    /** Signaled when completions were seen (by the device driver or another poller), and on failure and close. */
    final Condition progressed;
    /** Callers parked in (or briefly outside, completing futures in) a wait step; a close waits until none is. */
    int waiters;
    /**
     * The CQ is armed (ibv_req_notify_cq) and its event not yet read: set under the lock when arming, cleared by the
     * device driver when it reads the event (without the lock, so volatile), before it polls.
     */
    volatile boolean armed;
    /**
     * A caller parked or a future was submitted since the device driver last found nobody waiting: its periodic
     * re-poll looks only at these connections, so a connection used in the poll style alone (or idle) is never
     * polled, nor its lock tried, by another thread. Set under the lock, read without it.
     */
    volatile boolean interested;
    /** For traces ({@link DeviceDriver#diag}): when the device driver last read an event of this CQ, served this
     * connection, found its lock busy, found completions in a sweep; whether its last turn here found any. */
    volatile long diagEventAt, diagServedAt, diagBusyAt, diagSweepFoundAt;
    volatile boolean diagFound;

    Driver(Core core) {
        this.core = core;
        this.progressed = core.lock.newCondition();
    }

    /** Wakes every waiting caller (failure, close). */
    void wakeAll() {
        progressed.signalAll();
    }

    /** Whether the device driver must keep the CQ armed: a caller waits or a future is pending. */
    private boolean wanted() {
        return waiters > 0 || core.async.pending();
    }

    /**
     * Makes sure a completion from now on raises an event: arms the CQ if its last arming was used, then polls until
     * the CQ is empty (a completion before the arming raises none). True when those polls found something. Under the
     * lock.
     *
     * <p>Why until empty, not once: {@link #armed} may skip the arming (and the poll) only if every completion in the
     * CQ now came after the arming, and so raised (or will raise) an event. One poll takes at most a batch
     * ({@link Core#wc}'s 32); whatever was in the CQ beyond it before the arming raised no event and, with the CQ armed,
     * no later arm() looks at it: a future submitted after that (receiveAsync, whose message is among them) waited for
     * an unrelated completion or for the device driver's backstop sweep (every 50 ms then; a sweep's turn alone took
     * up to 627 ms under load). DeviceDriverRdmaTest.futuresNeedNoSweep fails that way with the sweep switched off.
     */
    boolean arm() {
        interested = true;
        core.parts.device().start();
        if (armed) {
            return false;
        }
        long t0 = CarrierTime.start();
        core.parts.cq().requestNotify(false);
        CarrierTime.end(CarrierTime.NOTIFY, t0);
        armed = true;
        return drain();
    }

    /** Polls until a poll returns less than a full batch (the CQ was empty at that moment); true if any came. */
    private boolean drain() {
        int batch = core.wc.capacity();
        boolean any = false;
        int n;
        do {
            n = core.pollOnce();
            any |= n > 0;
        } while (n == batch);
        return any;
    }

    /**
     * The device driver's turn for this connection (lock held): polls, signals the waiters when anything came, and
     * keeps the CQ armed while it is wanted. True when the connection should be looked at again soon: operations of
     * its futures wait for credits, which raise no event.
     */
    boolean drive() {
        if (core.closed || core.failure != null) {
            interested = false;
            progressed.signalAll();
            return false;
        }
        int creditsBefore = core.credits.available();
        boolean found = core.pollOnce() > 0 || core.credits.available() > creditsBefore;
        if (wanted() && arm()) {
            found = true;
        }
        if (found) {
            diagFound = true;
            progressed.signalAll();
        }
        interested = wanted();
        return !core.async.backlog.isEmpty() && core.sq.free() > 0 && core.failure == null && !core.closed;
    }

    /** A future was submitted (lock held): the CQ is armed for it, and a credit backlog is looked at soon. */
    void watch() {
        arm();
        if (!core.async.backlog.isEmpty()) {
            core.parts.device().soon(core);
        }
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
        // On the device driver itself (a future's callback that blocks) nobody else would signal: poll in short parks.
        boolean pollItself = forCredit || core.parts.device().isDriverThread();
        waiters++;
        try {
            if (!pollItself && arm()) {
                return true; // came before the arming; the finally below counts this thread out again
            }
            // Until the deadline: the device driver signals every completion, a failure and a close; no periodic
            // wake-up, which would cost every parked virtual thread a carrier turn per slice.
            progressed.awaitNanos(pollItself ? Math.min(left, CREDIT_PAUSE_NANOS) : left);
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
}
