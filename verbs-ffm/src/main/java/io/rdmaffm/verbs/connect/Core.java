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
import java.util.function.Supplier;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The state machine behind a {@link Connection}: posting with send-queue and credit accounting, polling the one CQ
 * (send and receive completions), the waits, the connection's rdma_cm events, failure and close. Everything runs
 * under {@link #lock}. How threads wait is {@link Driver}; the thread that wakes them, one per device, {@link DeviceDriver}.
 * Allocation-free on the poll style's paths (post, {@link #pollOnce}, the periodic rdma_cm check).
 */
final class Core {
    final Setup.Parts parts;
    final SendQueue sq;
    final ReceivePool rp;
    final Credits credits;
    final AsyncOps async;
    final Completions wc = new Completions(32);
    final ReentrantLock lock = new ReentrantLock();
    /** The waits; the device's {@link DeviceDriver} drives them. */
    final Driver driver = new Driver(this);
    final String peer;
    final int peerBufferSize;
    /** Regions the caller made through the connection, closed with it. */
    final List<MemoryRegion> regions = new ArrayList<>();
    private final Teardown teardown = new Teardown(this);
    private final int creditThreshold;
    /** Reads this connection's rdma_cm events; {@link #ownsWatcher} when the channel is the connection's own. */
    CmWatcher watcher;
    boolean ownsWatcher;
    boolean closed;
    ConnectionException failure;
    boolean peerGone;

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
        parts.device().attach(parts.cq(), this);
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
        long t0 = CarrierTime.start();
        int n = parts.cq().poll(wc);
        CarrierTime.end(CarrierTime.POLL, t0);
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
        if (n > 0 && driver.waiters > 0) {
            // What this poll found may be another thread's (a message its receive waits for, its operation's
            // completion): it is parked until signaled, and the driver will not signal it, since the CQ is empty now
            // and its event was for completions already taken.
            driver.progressed.signalAll();
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

    /**
     * The first step of a close: refuses new calls, fails what is pending with CLOSED and wakes every waiter; the
     * device driver, which only ever tries this lock, finds it closed from now on.
     */
    void markClosed() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                async.failAll(new ConnectionException(ConnectionException.Reason.CLOSED, "connection",
                        ConnectionException.ECONNABORTED, "closed by this side while the operation was pending, peer "
                        + peer, null, null));
                driver.wakeAll();
            }
        } finally {
            unlock();
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
        driver.wakeAll();
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
        driver.watch();
        return f;
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
                    + "registered through this connection: use Connection.allocateRegion or registerMemory (or, for many "
                    + "connections, a SharedDomain they are built on)");
        }
        return region.addressOf(offset, length);
    }

    /**
     * The blocking SEND, RDMA WRITE or READ: posts (waiting for a credit, for a SEND, or for room in the send queue)
     * and waits until it completed, by the deadline.
     */
    void postAndAwait(byte kind, long local, int lkey, int length, long remote, int rkey, long deadline,
                      Duration timeout) {
        String what = kind == SendQueue.SEND ? "send" : kind == SendQueue.READ ? "RDMA READ" : "RDMA WRITE";
        lock.lock();
        try {
            checkUsable();
            long seq;
            while ((seq = kind == SendQueue.SEND ? postSend(local, lkey, length, true)
                    : postRdma(kind, local, lkey, length, remote, rkey, true)) < 0) {
                if (!driver.waitStep(deadline, kind == SendQueue.SEND && credits.available() <= 0)) {
                    throw ConnectionException.timeout(what, timeout, (kind == SendQueue.SEND ? "no credit or send "
                            + "queue room" : "send queue full") + ", peer " + peer);
                }
            }
            awaitSeq(seq, deadline, timeout, what);
        } finally {
            unlock();
        }
    }

    void awaitSeq(long seq, long deadline, Duration timeout, String what) {
        while (!isComplete(seq)) {
            if (!driver.waitStep(deadline, false)) {
                throw ConnectionException.timeout(what, timeout, "peer " + peer);
            }
        }
    }

    /**
     * Makes a region on the connection's protection domain and keeps it, to close it with the connection. A closed
     * connection is refused naming the connection (not its closed protection domain), also when the close comes
     * while the region is made.
     */
    MemoryRegion track(Supplier<MemoryRegion> make) {
        refuseIfClosed();
        MemoryRegion r;
        long t0 = CarrierTime.start();
        try {
            r = OffCarrier.call(make); // ibv_reg_mr pins pages in the kernel: up to 3 s on a carrier measured on rxe
        } catch (IllegalStateException pdClosed) {
            refuseIfClosed();
            throw pdClosed;
        }
        CarrierTime.end(CarrierTime.REGISTER, t0);
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
        teardown.close();
    }
}
