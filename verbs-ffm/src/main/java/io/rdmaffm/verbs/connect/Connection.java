package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A reliable connection (an RC queue pair set up through rdma_cm) with everything an application would otherwise
 * build around it: registered receive buffers that are posted again when a message is released, send credits so a
 * sender never overruns the peer's buffers, send-queue accounting, one-sided reads and writes of the peer's
 * {@link RemoteBuffer}s, waits with deadlines, and disconnect handling. Get one from {@link #connect} or
 * {@link RdmaServer#accept}.
 *
 * <p>Three styles for every operation, freely mixed:
 * <ul>
 * <li>blocking with a deadline: {@link #send}, {@link #write}, {@link #read} return once the operation completed
 * (the local buffer may be reused), {@link #receive} once a message is there; a deadline that passes throws a
 * {@link ConnectionException} with {@link ConnectionException#isTimeout()} and leaves the connection usable (an
 * operation already posted stays in flight: wait for it with {@link #flush} before reusing its buffer);</li>
 * <li>{@code CompletableFuture}: {@link #sendAsync}, {@link #writeAsync}, {@link #readAsync}, {@link #receiveAsync};
 * operations that find the send queue full or no credit wait in order, and a daemon thread drives the connection
 * while any future is pending; futures are completed outside the connection's lock;</li>
 * <li>poll, allocation-free for hot loops: {@link #trySend}, {@link #tryWrite}, {@link #tryRead} post and return a
 * sequence number, or -1 when the send queue is full or (for sends) the peer has no buffer free; {@link #progress}
 * polls completions; {@link #isComplete} says whether an operation completed; {@link #tryReceive} returns a message
 * or null.</li>
 * </ul>
 *
 * <p>Threading: every method may be called from any thread, virtual threads included; the connection serializes
 * them with one lock, held only for short, non-blocking steps (a post, a poll), never while a thread sleeps. A
 * waiting call parks on a Java condition, never in native code, so a virtual thread waiting in {@link #receive}
 * holds no carrier: one daemon driver thread per device ("rdma-device ...", started at the first wait or future
 * on the device, ended with its last connection) sleeps on the completion channel the device's connections share and wakes the
 * waiters; {@link #connect}, {@link RdmaServer#accept} and
 * {@link #close()} called from a virtual thread run their rdma_cm waits on a platform thread while it parks.
 * docs/connection-api.md describes the threads and what a future's callback may do. {@link #close()} may come from
 * any thread at any time: threads waiting in the connection wake with a {@link ConnectionException}
 * ({@link ConnectionException.Reason#CLOSED}), pending futures fail with it, and every later call throws
 * IllegalStateException naming the connection (misuse is thrown at the call in every style, the asynchronous
 * ones included; what happens after the call arrives as a ConnectionException, thrown or in the future). When the peer disconnects or goes away, or an operation's completion fails, the connection
 * is finished: every pending and later operation throws the {@link ConnectionException} that says why, naming the
 * operation and (for a completion) its status.
 *
 * <p>Buffers: local buffers of {@link #write}, {@link #read} and {@link #send} are memory regions of this connection
 * ({@link #allocateRegion}, {@link #registerMemory}), closed with it, or, for a connection built on a
 * {@link SharedDomain} ({@link ConnectionOptions#sharedDomain}), regions of that domain, registered once for all its
 * connections and closed with the domain; keep them unchanged (sends) and unread (reads)
 * until their operation completed. Offsets and lengths are checked against the local region and the
 * {@link RemoteBuffer} before anything is posted.
 */
public final class Connection implements AutoCloseable {
    private final Core core;
    private final Setup.Parts parts;
    private final InetSocketAddress peer;
    private final InetSocketAddress local;
    private final byte[] peerPrivateData;

    Connection(Setup.Parts parts, Handshake theirs, InetSocketAddress peer) {
        this.parts = parts;
        this.peer = peer;
        this.local = parts.id().localAddress();
        this.peerPrivateData = theirs.userData();
        this.core = new Core(parts, theirs, String.valueOf(peer));
        Message[] views = new Message[parts.receives().count];
        MemorySegment all = parts.receives().region().segment();
        for (int i = 0; i < views.length; i++) {
            views[i] = new Message(this, i, all.asSlice((long) i * parts.receives().size, parts.receives().size));
        }
        parts.receives().views(views);
    }

    /** {@link #connect(InetSocketAddress, ConnectionOptions, Duration)} with default options. */
    public static Connection connect(InetSocketAddress peer, Duration timeout) {
        return connect(peer, new ConnectionOptions(), timeout);
    }

    /**
     * Connects to an {@link RdmaServer} at {@code peer} (IPv4 or IPv6, e.g. a link-local address with its scope):
     * resolves the address and route, creates the queue pair and buffers, and exchanges the handshake
     * ({@code rdma_resolve_addr}, {@code rdma_resolve_route}, {@code rdma_create_qp}, {@code rdma_connect}). Throws a
     * {@link ConnectionException} when that fails (unreachable, nobody listening on the port, rejected: reason
     * {@link ConnectionException.Reason#CONNECT_FAILED}) or when {@code timeout} passes first (never later), and
     * IllegalArgumentException for a timeout that is not positive.
     */
    public static Connection connect(InetSocketAddress peer, ConnectionOptions options, Duration timeout) {
        ConnectionOptions o = new ConnectionOptions(options);
        return OffCarrier.call(() -> Setup.connect(peer, o, timeout));
    }

    // ---- buffers

    /**
     * Allocates and registers {@code bytes} of memory on this connection's protection domain, with {@code Access}
     * bits (e.g. {@code Access.LOCAL_WRITE | Access.REMOTE_READ} for a buffer the peer reads); closed with the
     * connection (or earlier by the caller, once no operation uses it).
     */
    public MemoryRegion allocateRegion(long bytes, int access) {
        return core.track(() -> parts.pd().allocateRegion(bytes, access));
    }

    /** Registers the caller's native memory; the caller keeps it allocated until the region is closed. */
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        return core.track(() -> parts.pd().registerMemory(segment, access));
    }


    // ---- messages

    /**
     * Sends {@code length} bytes at {@code offset} of {@code region} as one message and waits until it completed
     * (the bytes may then be reused), at most {@code timeout}; waits for a credit (a free buffer at the peer) first
     * when there is none. IllegalArgumentException when the message is longer than the peer's buffers
     * ({@link #maxMessageSize()}).
     */
    public void send(MemoryRegion region, long offset, int length, Duration timeout) {
        long deadline = Deadlines.op(timeout);
        core.postAndAwait(SendQueue.SEND, core.checkSend(region, offset, length), region.lkey(), length, 0, 0, deadline,
                timeout);
    }

    /** {@link #send} as a future, completed when the message completed; queued while there is no credit or room. */
    public CompletableFuture<Void> sendAsync(MemoryRegion region, long offset, int length) {
        long address = core.checkSend(region, offset, length);
        core.lock.lock();
        try {
            core.checkUsable();
            return core.submit(SendQueue.SEND, address, region.lkey(), length, 0, 0);
        } finally {
            core.unlock();
        }
    }

    /**
     * Posts a message without waiting: its sequence number (see {@link #isComplete}), or -1 when the peer has no
     * buffer free (no credit) or the send queue is full; call {@link #progress} and try again. Allocation-free.
     */
    public long trySend(MemoryRegion region, long offset, int length) {
        long address = core.checkSend(region, offset, length);
        core.lock.lock();
        try {
            core.checkUsable();
            return core.postSend(address, region.lkey(), length, false);
        } finally {
            core.unlock();
        }
    }

    /**
     * The next message, waiting at most {@code timeout} for one; release it when done ({@link Message#release()}).
     * Messages that arrived before the connection failed (e.g. the last ones before the peer disconnected) are still
     * handed out; after them it throws the failure.
     */
    public Message receive(Duration timeout) {
        long deadline = Deadlines.op(timeout);
        core.lock.lock();
        try {
            core.checkNotClosed();
            Message m;
            while ((m = core.rp.next()) == null) {
                if (core.failure != null) {
                    core.pollOnce(); // messages that arrived before the failure may still be in the CQ
                    if ((m = core.rp.next()) != null) {
                        return m;
                    }
                    throw core.failure.again();
                }
                if (!core.driver.waitStep(deadline, false)) {
                    throw ConnectionException.timeout("receive", timeout, "no message from " + peer);
                }
            }
            return m;
        } finally {
            core.unlock();
        }
    }

    /** The next message as a future; futures are served in order, each with its own message. */
    public CompletableFuture<Message> receiveAsync() {
        core.lock.lock();
        try {
            core.checkUsable();
            Message m = core.async.receivers.isEmpty() ? core.rp.next() : null;
            if (m != null) {
                return CompletableFuture.completedFuture(m);
            }
            CompletableFuture<Message> f = new CompletableFuture<>();
            core.async.receivers.addLast(f);
            core.driver.watch();
            return f;
        } finally {
            core.unlock();
        }
    }

    /**
     * The next message if one has arrived (polling once), else null. Allocation-free. Messages that arrived before
     * the connection failed are still handed out; after them it throws the failure.
     */
    public Message tryReceive() {
        core.lock.lock();
        try {
            core.checkNotClosed();
            Message m = core.rp.next();
            if (m == null) {
                core.pollOnce();
                m = core.rp.next();
            }
            if (m == null && core.failure != null) {
                throw core.failure.again();
            }
            return m;
        } finally {
            core.unlock();
        }
    }

    void release(Message m) {
        core.lock.lock();
        try {
            core.release(m);
        } finally {
            core.unlock();
        }
    }

    // ---- one-sided

    /**
     * RDMA WRITE of {@code length} bytes at {@code localOffset} of {@code local} to {@code remoteOffset} of
     * {@code remote}, waiting until it completed (at most {@code timeout}). Bounds are checked first:
     * IndexOutOfBoundsException for a range outside either buffer.
     */
    public void write(MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset, int length,
                      Duration timeout) {
        rdma(SendQueue.WRITE, local, localOffset, remote, remoteOffset, length, timeout);
    }

    /** RDMA READ of {@code length} bytes at {@code remoteOffset} of {@code remote} into {@code local}; as write. */
    public void read(MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset, int length,
                     Duration timeout) {
        rdma(SendQueue.READ, local, localOffset, remote, remoteOffset, length, timeout);
    }

    private void rdma(byte kind, MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset,
                      int length, Duration timeout) {
        long deadline = Deadlines.op(timeout);
        long l = core.checkLocal(local, localOffset, length);
        core.postAndAwait(kind, l, local.lkey(), length, remote.addressOf(remoteOffset, length), remote.rkey(), deadline,
                timeout);
    }

    /** {@link #write} as a future. */
    public CompletableFuture<Void> writeAsync(MemoryRegion local, long localOffset, RemoteBuffer remote,
                                              long remoteOffset, int length) {
        return rdmaAsync(SendQueue.WRITE, local, localOffset, remote, remoteOffset, length);
    }

    /** {@link #read} as a future. */
    public CompletableFuture<Void> readAsync(MemoryRegion local, long localOffset, RemoteBuffer remote,
                                             long remoteOffset, int length) {
        return rdmaAsync(SendQueue.READ, local, localOffset, remote, remoteOffset, length);
    }

    private CompletableFuture<Void> rdmaAsync(byte kind, MemoryRegion local, long localOffset, RemoteBuffer remote,
                                              long remoteOffset, int length) {
        long l = core.checkLocal(local, localOffset, length);
        long r = remote.addressOf(remoteOffset, length);
        core.lock.lock();
        try {
            core.checkUsable();
            return core.submit(kind, l, local.lkey(), length, r, remote.rkey());
        } finally {
            core.unlock();
        }
    }

    /** Posts an RDMA WRITE without waiting: its sequence number, or -1 when the send queue is full. Allocation-free. */
    public long tryWrite(MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset, int length) {
        return tryRdma(SendQueue.WRITE, local, localOffset, remote, remoteOffset, length);
    }

    /** Posts an RDMA READ without waiting: its sequence number, or -1 when the send queue is full. Allocation-free. */
    public long tryRead(MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset, int length) {
        return tryRdma(SendQueue.READ, local, localOffset, remote, remoteOffset, length);
    }

    private long tryRdma(byte kind, MemoryRegion local, long localOffset, RemoteBuffer remote, long remoteOffset,
                         int length) {
        long l = core.checkLocal(local, localOffset, length);
        long r = remote.addressOf(remoteOffset, length);
        core.lock.lock();
        try {
            core.checkUsable();
            return core.postRdma(kind, l, local.lkey(), length, r, remote.rkey(), false);
        } finally {
            core.unlock();
        }
    }

    // ---- completion

    /**
     * Polls the completion queue once and handles what it finds (completed operations, arrived messages, credits);
     * returns how many completions there were. Throws the connection's {@link ConnectionException} once it failed
     * (the peer disconnected, a completion failed). Allocation-free.
     */
    public int progress() {
        core.lock.lock();
        try {
            core.checkUsable();
            int n = core.pollOnce();
            if (core.failure != null) {
                throw core.failure.again();
            }
            return n;
        } finally {
            core.unlock();
        }
    }

    /**
     * True once operation {@code seq} (from a try method) completed, as seen by the last {@link #progress}; throws the
     * connection's {@link ConnectionException} if it failed before. Makes sure the completion will be reported (with
     * {@code signalInterval} above 1, a small signaled fence is posted if no signaled operation follows it).
     */
    public boolean isComplete(long seq) {
        if (seq > 0 && seq <= core.sq.completed) {
            return true; // no lock needed: completed only grows
        }
        core.lock.lock();
        try {
            core.checkUsable();
            return core.isComplete(seq);
        } finally {
            core.unlock();
        }
    }

    /** Waits until operation {@code seq} completed, at most {@code timeout}. */
    public void await(long seq, Duration timeout) {
        long deadline = Deadlines.op(timeout);
        core.lock.lock();
        try {
            core.checkUsable();
            core.awaitSeq(seq, deadline, timeout, "operation #" + seq);
        } finally {
            core.unlock();
        }
    }

    /** Waits until every operation posted so far completed, at most {@code timeout}. */
    public void flush(Duration timeout) {
        long deadline = Deadlines.op(timeout);
        core.lock.lock();
        try {
            core.checkUsable();
            long last = core.sq.next - 1;
            if (last > 0) {
                core.awaitSeq(last, deadline, timeout, "flush");
            }
        } finally {
            core.unlock();
        }
    }

    Core core() {
        return core;
    }

    // ---- about

    public InetSocketAddress peerAddress() {
        return peer;
    }

    public InetSocketAddress localAddress() {
        return local;
    }

    /** The private data the peer gave ({@link ConnectionOptions#privateData}), exactly as many bytes as it sent. */
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** The largest message the peer accepts: its receive buffer size. */
    public int maxMessageSize() {
        return core.peerBufferSize;
    }

    /** Send work requests this connection keeps in flight at most (no more than the device granted). */
    public int sendQueueDepth() {
        return core.sq.depth;
    }

    /** Messages that may be sent now without waiting for the peer to release buffers. */
    public int sendCredits() {
        core.lock.lock();
        try {
            core.credits.readWord();
            return Math.max(0, core.credits.available());
        } finally {
            core.unlock();
        }
    }

    /** False once closed or failed. */
    public boolean isOpen() {
        core.lock.lock();
        try {
            return !core.closed && core.failure == null;
        } finally {
            core.unlock();
        }
    }

    /**
     * Disconnects ({@code rdma_disconnect}) and destroys the queue pair, the id, the connection's regions, the CQ,
     * the completion channel and the protection domain, in that order. Threads waiting in the connection wake with
     * a {@link ConnectionException} ({@link ConnectionException.Reason#CLOSED}) first; pending futures fail with it.
     * Idempotent; safe from any thread.
     */
    @Override
    public void close() {
        OffCarrier.call(() -> {
            core.close();
            return null;
        });
    }

    @Override
    public String toString() {
        return "Connection[" + local + " -> " + peer + (isOpen() ? "" : ", closed") + "]";
    }
}
