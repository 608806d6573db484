package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cm.CmEvent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state machine behind a {@link Connection}: posting with send-queue and credit accounting, polling the one CQ
 * (send and receive completions), the waits, the connection's rdma_cm events, failure and close. Everything runs
 * under {@link #lock}. Waiting callers park on {@link #progressed}, never in native code; one driver thread per
 * connection ({@link #startDriver}) is the only thread that sleeps on the completion channel, and it wakes them.
 * Allocation-free on the poll style's paths (post, {@link #pollOnce}, the periodic rdma_cm check).
 */
final class Core {
    /** How long a waiting thread polls before it sleeps. */
    static final long SPIN_NANOS = 50_000;
    /** Longest sleep before a waiter looks again (rdma_cm events of a shared channel, the close of another thread). */
    static final long SLICE_NANOS = 50_000_000;
    /** Sleep of a sender waiting for credits, which arrive as RDMA WRITEs that raise no event. */
    static final long CREDIT_PAUSE_NANOS = 100_000;

    final Setup.Parts parts;
    final SendQueue sq;
    final ReceivePool rp;
    final Credits credits;
    final AsyncOps async;
    final Completions wc = new Completions(32);
    final ReentrantLock lock = new ReentrantLock();
    /** Signaled by the driver when it has seen completions, and on failure and close: waiting callers park on it. */
    final Condition progressed = lock.newCondition();
    /** Signaled by callers that start to wait or submit a future: the driver parks on it while nobody needs it. */
    final Condition wanted = lock.newCondition();
    final String peer;
    final int peerBufferSize;
    /** Regions the caller made through the connection, closed with it. */
    final List<MemoryRegion> regions = new ArrayList<>();
    /** Held by the thread that closes; {@link #closeDone} guarded by it. */
    final Object closing = new Object();
    boolean closeDone;
    private final int creditThreshold;
    /** Reads this connection's rdma_cm events; {@link #ownsWatcher} when the channel is the connection's own. */
    CmWatcher watcher;
    boolean ownsWatcher;
    boolean closed;
    ConnectionException failure;
    boolean peerGone;
    int waiters;

    Core(Setup.Parts parts, Handshake theirs, String peer) {
        this.parts = parts;
        this.peer = peer;
        this.sq = new SendQueue(parts.qp(), parts.depth(), parts.options().signalInterval,
                parts.options().inlineThreshold);
        this.rp = parts.receives();
        this.credits = new Credits(parts.control(), theirs.receiveBuffers(), theirs.creditAddress(), theirs.creditRkey());
        this.peerBufferSize = theirs.bufferSize();
        // Standalone credit updates after half the buffers: a sender that also receives gets them sooner in the
        // immediate data of messages; any threshold up to the buffer count is free of deadlock.
        this.creditThreshold = Math.max(1, rp.count / 2);
        this.async = new AsyncOps(parts.depth());
    }

    /** Releases the lock, then completes the futures that became ready under it (allocates only if there are any). */
    void unlock() {
        if (!async.hasReady()) {
            lock.unlock();
            return;
        }
        Object[][] batch = async.takeReady();
        lock.unlock();
        AsyncOps.complete(batch);
    }

    /** For a new call: closed is misuse, a failed connection throws its failure again. */
    void checkUsable() {
        if (closed) {
            throw new IllegalStateException("the connection to " + peer + " is closed");
        }
        if (failure != null) {
            throw failure.again();
        }
    }

    /** Before a call that would touch the connection's parts: names the connection, not the closed part. */
    void refuseIfClosed() {
        lock.lock();
        try {
            checkNotClosed();
        } finally {
            unlock();
        }
    }

    /** For a new receive: closed is misuse; a failure is thrown only once no arrived message is left. */
    void checkNotClosed() {
        if (closed) {
            throw new IllegalStateException("the connection to " + peer + " is closed");
        }
    }

    /** For a call that was waiting: a close meanwhile or a failure ends it. */
    void checkPending() {
        if (closed) {
            throw new ConnectionException(ConnectionException.Reason.CLOSED, "connection", ConnectionException.ECONNABORTED,
                    "closed by this side while the operation was pending, peer " + peer, null, null);
        }
        if (failure != null) {
            throw failure.again();
        }
    }

    /** A SEND of {@code length} bytes at {@code address}; -1 when no credit or no room in the send queue. */
    long postSend(long address, int lkey, int length, boolean force) {
        if (credits.available() <= 0) {
            credits.readWord();
            if (credits.available() <= 0) {
                return -1;
            }
        }
        if (sq.free() == 0) {
            return -1;
        }
        long seq = sq.post(SendQueue.SEND, SendOpcode.SEND_WITH_IMM, address, lkey, length, 0, 0, (int) rp.released,
                force);
        rp.advertised = rp.released;
        credits.sent++;
        return seq;
    }

    /** An RDMA WRITE or READ; -1 when the send queue is full. */
    long postRdma(byte kind, long local, int lkey, int length, long remote, int rkey, boolean force) {
        if (sq.free() == 0) {
            return -1;
        }
        return sq.post(kind, kind == SendQueue.READ ? SendOpcode.RDMA_READ : SendOpcode.RDMA_WRITE, local, lkey, length,
                remote, rkey, 0, force);
    }

    /** An 8-byte RDMA WRITE of this side's released count into the peer's credit word; the caller checked room. */
    long postCredit(boolean force) {
        long count = rp.released;
        long source = credits.source(sq.slot(sq.next), count);
        long seq = sq.post(SendQueue.CREDIT, SendOpcode.RDMA_WRITE, source, credits.lkey(), 8, credits.peerWord,
                credits.peerRkey, 0, force);
        rp.advertised = count;
        return seq;
    }

    private void maybeAdvertise() {
        if (rp.released - rp.advertised >= creditThreshold && sq.free() > 0 && failure == null && !closed) {
            postCredit(false);
        }
    }

    /**
     * Makes sure the completion of {@code seq} will be seen: if no signaled work request at or after it is in flight,
     * posts a signaled credit update as a fence (there is room: the request that fills the queue is signaled).
     */
    void cover(long seq) {
        if (seq > sq.completed && !sq.covered(seq) && failure == null && !closed) {
            postCredit(true);
        }
    }

    /** One poll of the CQ, every completion handled; credits read; returns how many completions there were. */
    int pollOnce() {
        int n = parts.cq().poll(wc);
        for (int i = 0; i < n; i++) {
            handle(i);
        }
        if (credits.sent != credits.peerReleased) {
            credits.readWord(); // only while messages of this side may still hold the peer's buffers
        }
        maybeAdvertise();
        if (!async.backlog.isEmpty()) {
            drainBacklog();
        }
        return n;
    }

    private void handle(int i) {
        long wrId = wc.wrId(i);
        int status = wc.statusCode(i);
        if ((wrId & ReceivePool.TAG) != 0) {
            int slot = (int) wrId;
            if (status == 0) {
                if ((wc.flags(i) & Completions.WITH_IMM) != 0) {
                    credits.peerReleased(wc.immData(i));
                }
                Message m = rp.arrived(slot, wc.byteLength(i));
                if (!async.deliver(m)) {
                    rp.enqueue(m);
                }
            } else if (failure == null && !closed) {
                fail(new ConnectionException(ConnectionException.Reason.FAILED_COMPLETION, "receive", 0, "into buffer "
                        + slot + " of " + rp.size + " bytes, peer " + peer + ": " + SendQueue.status(wc, i),
                        wc.status(i), null));
            }
            return;
        }
        if (status == 0) {
            completeUpTo(wrId);
        } else if (failure == null && !closed) {
            completeUpTo(wrId - 1);
            fail(new ConnectionException(ConnectionException.Reason.FAILED_COMPLETION, sq.name(wrId), 0,
                    sq.details(wrId) + ", peer " + peer + ": " + SendQueue.status(wc, i), wc.status(i), null));
        }
    }

    private void completeUpTo(long seq) {
        if (seq > sq.completed) {
            if (async.pending()) {
                async.completed(sq, sq.completed, seq);
            }
            sq.completed = seq;
        }
    }

    /** True once {@code seq} completed; throws the failure when the connection failed before it did. */
    boolean isComplete(long seq) {
        if (seq <= sq.completed) {
            return true;
        }
        if (failure != null) {
            throw failure.again();
        }
        if (seq >= sq.next || seq < 1) {
            throw new IllegalArgumentException("no operation #" + seq + " was posted (the last is #" + (sq.next - 1) + ")");
        }
        cover(seq);
        return false;
    }

    /**
     * One step of a wait: polls; if nothing came, polls in a loop for a moment; then parks on {@link #progressed}
     * (a Java condition, so a virtual thread frees its carrier) until the driver thread, the only thread that sleeps
     * in native code on the completion channel, has seen a completion, at most {@link #SLICE_NANOS}. A waiter for
     * credits parks {@link #CREDIT_PAUSE_NANOS} and polls again itself: credits arrive as RDMA WRITEs that raise no
     * completion event. A failure or close wakes it. Returns false when the deadline passed; throws when the
     * connection was closed, or had failed before the step. Called with the lock held once (not re-entered).
     */
    boolean waitStep(long deadline, boolean forCredit) {
        checkPending();
        int creditsBefore = credits.available();
        if (pollOnce() > 0 || forCredit && credits.available() > creditsBefore) {
            completeReady();
            return true;
        }
        long left = Deadlines.remaining(deadline);
        if (left <= 0) {
            return false;
        }
        long spinEnd = System.nanoTime() + Math.min(SPIN_NANOS, left);
        while (spinEnd - System.nanoTime() > 0) {
            if (pollOnce() > 0 || forCredit && credits.available() > creditsBefore) {
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
                startDriver();
                wanted.signal();
            }
            progressed.awaitNanos(Math.min(left, forCredit ? CREDIT_PAUSE_NANOS : SLICE_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting on the connection to " + peer, e);
        } finally {
            waiters--;
        }
        if (closed) {
            checkPending();
        }
        return true; // a failure meanwhile is for the caller's next step: a receive still takes what arrived first
    }

    /**
     * Completes the futures this thread's polls made ready, with the lock released for the moment (dependent actions
     * never run under it), before the thread parks: a future must not wait for the end of another thread's blocking
     * call. True when there were any. Only at hold count 1, as in {@link #waitStep}.
     */
    private boolean completeReady() {
        if (!async.hasReady()) {
            return false;
        }
        Object[][] batch = async.takeReady();
        waiters++; // a close meanwhile waits for this thread before it destroys anything
        lock.unlock();
        try {
            AsyncOps.complete(batch);
        } finally {
            lock.lock();
            waiters--;
        }
        return true;
    }

    /**
     * The driver's sleep: arms the CQ, polls once more (a completion before the arming raises no event), sleeps on
     * the channel with the lock released, at most {@link #SLICE_NANOS}.
     */
    private void sleepOnChannel() {
        parts.cq().requestNotify(false);
        if (pollOnce() > 0) {
            progressed.signalAll();
            return;
        }
        lock.unlock();
        try {
            parts.channel().awaitEvent(parts.cq(), Duration.ofNanos(SLICE_NANOS));
        } catch (IllegalStateException closedMeanwhile) {
            // the CQ or its channel is being closed with the connection: the next turn sees it closed
        } finally {
            lock.lock();
        }
    }

    /** An rdma_cm event of this connection, from the {@link CmWatcher}'s thread. */
    void onCm(CmEvent e) {
        lock.lock();
        try {
            if (closed || peerGone) {
                return;
            }
            switch (e.type()) {
                case DISCONNECTED -> {
                    peerGone = true;
                    disconnectQuietly();
                    fail(new ConnectionException(ConnectionException.Reason.PEER_DISCONNECTED, "connection",
                            ConnectionException.ECONNRESET, "the peer " + peer + " disconnected or went away (rdma_cm "
                            + "DISCONNECTED)", null, null));
                }
                case ESTABLISHED, TIMEWAIT_EXIT -> {
                }
                default -> fail(new ConnectionException(ConnectionException.Reason.PEER_DISCONNECTED, "connection",
                        ConnectionException.ECONNRESET, "rdma_cm event " + e.type() + " (status " + e.status()
                        + ") on the connection to " + peer, null, null));
            }
        } finally {
            unlock();
        }
    }

    /** rdma_disconnect: sends the DREQ or DREP and moves the QP to ERR, so every pending work request flushes. */
    void disconnectQuietly() {
        try {
            parts.id().disconnect();
        } catch (VerbsException | IllegalStateException alreadyGone) {
            // the peer's DREQ already ended the connection, or the id is closing
        }
    }

    /** The connection is finished: every pending and later operation fails with {@code e}. */
    void fail(ConnectionException e) {
        if (failure != null || closed) {
            return;
        }
        failure = e;
        try {
            parts.qp().toError();
        } catch (RuntimeException alreadyInError) {
            // nothing more to flush
        }
        async.failAll(e);
        progressed.signalAll();
        wanted.signalAll();
    }

    /** Message {@code m} is released: post its buffer again and count a credit for the peer. */
    void release(Message m) {
        if (!m.takeBack() || closed || failure != null) {
            return;
        }
        rp.repost(parts.qp(), m.slot());
        maybeAdvertise();
    }

    /** Posts the asynchronous operations that waited for room or credits, in order, as far as possible. */
    private void drainBacklog() {
        for (AsyncOps.Waiting w; (w = async.backlog.peekFirst()) != null; ) {
            long seq = w.kind() == SendQueue.SEND ? postSend(w.local(), w.lkey(), w.length(), true)
                    : postRdma(w.kind(), w.local(), w.lkey(), w.length(), w.remote(), w.rkey(), true);
            if (seq < 0) {
                return;
            }
            async.backlog.pollFirst();
            async.attach(sq.slot(seq), w.future());
        }
    }

    /** Posts an asynchronous operation now, or queues it behind the ones already waiting. */
    CompletableFuture<Void> submit(byte kind, long local, int lkey, int length, long remote, int rkey) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        async.backlog.addLast(new AsyncOps.Waiting(kind, local, lkey, length, remote, rkey, f));
        drainBacklog();
        startDriver();
        wanted.signal();
        return f;
    }

    /**
     * Starts the connection's driver thread (once, at the first wait or future): a platform daemon thread, the only
     * one that blocks in native code (poll(2) on the completion channel). It runs while a thread waits in the
     * connection or a future is pending, polls the CQ after every event, and signals {@link #progressed}; futures
     * complete on it.
     */
    void startDriver() {
        if (async.driver != null || closed) {
            return;
        }
        Thread t = Thread.ofPlatform().daemon().name("rdma-connection " + peer).unstarted(this::drive);
        async.driver = t;
        t.start();
    }

    private void drive() {
        while (true) {
            lock.lock();
            try {
                if (closed || failure != null) {
                    progressed.signalAll();
                    return;
                }
                if (waiters == 0 && !async.pending()) {
                    wanted.awaitNanos(SLICE_NANOS);
                    continue;
                }
                int creditsBefore = credits.available();
                if (pollOnce() > 0 || credits.available() > creditsBefore) {
                    progressed.signalAll();
                } else if (!async.backlog.isEmpty() && sq.free() > 0) {
                    wanted.awaitNanos(CREDIT_PAUSE_NANOS); // operations wait for credits, which raise no event
                } else {
                    sleepOnChannel();
                }
            } catch (InterruptedException | RuntimeException stop) {
                if (failure == null && !closed) {
                    fail(new ConnectionException(ConnectionException.Reason.FAILED_COMPLETION, "connection", 0,
                            "the connection's driver thread stopped, peer " + peer + ": " + stop, null, null));
                }
                return;
            } finally {
                unlock();
            }
        }
    }

    long checkSend(MemoryRegion region, long offset, int length) {
        if (length > peerBufferSize) {
            throw new IllegalArgumentException("a " + length + "-byte message does not fit the peer's receive buffers of "
                    + peerBufferSize + " bytes (the peer's ConnectionOptions.bufferSize); use write for bulk data");
        }
        return checkLocal(region, offset, length);
    }

    long checkLocal(MemoryRegion region, long offset, int length) {
        if (region.protectionDomain() != parts.pd()) {
            throw new IllegalArgumentException("the region (lkey 0x" + Integer.toHexString(region.lkey()) + ") is not "
                    + "registered through this connection: use Connection.allocateRegion or registerMemory");
        }
        return region.addressOf(offset, length);
    }

    void awaitSeq(long seq, long deadline, Duration timeout, String what) {
        while (!isComplete(seq)) {
            if (!waitStep(deadline, false)) {
                throw ConnectionException.timeout(what, timeout, "peer " + peer);
            }
        }
    }

    /** Keeps a region the caller made through the connection, to close it with the connection. */
    MemoryRegion track(MemoryRegion r) {
        lock.lock();
        try {
            if (closed) {
                r.close();
                checkUsable();
            }
            regions.add(r);
            return r;
        } finally {
            unlock();
        }
    }

    /** See {@link Connection#close()}. */
    void close() {
        Teardown.close(this);
    }
}
