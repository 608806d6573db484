package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cm.CmEventType;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.lang.foreign.MemorySegment;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * perftest's control channel in rdma_cm mode ({@code -R}, {@code -z}): an RC queue pair connected through
 * rdma_cm on the TCP port space and the perftest port, over which every exchange message is one SEND
 * ({@code rdma_write_data}/{@code rdma_read_data} in perftest_communication.c). The server listens on the
 * wildcard address; the client resolves the server's IPv4 address as perftest 4.5 does.
 *
 * <p>The peer keeps exactly one 56-byte receive posted and re-posts it after reading, so no message may exceed
 * {@value #MAX_MESSAGE} bytes and messages strictly alternate; this side keeps a few receives posted.
 */
public final class RdmaCmControlChannel implements ExchangeChannel {
    /** perftest's receive length on the control QP: {@code sizeof(struct pingpong_dest)}. */
    public static final int MAX_MESSAGE = 56;
    /** perftest's {@code SYNC_SPEC_ID}, the wr_id of every control SEND. */
    static final long SYNC_SPEC_ID = 5;

    private static final int RECV_SLOTS = 4;
    private static final int SLOT = 64;
    private static final long SEND_OFFSET = 0;
    private static final long RECV_OFFSET = 256;
    private static final long RECV_WR_BASE = 100;
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(2);
    private static final long RETRY_PAUSE_NANOS = 100_000_000L;

    private final Role role;
    private final String peer;
    private final EventChannel events;
    private final CmId id;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final MemoryRegion mr;
    private final QueuePair qp;
    private final SendWorkRequests sendWr = new SendWorkRequests(1, 1);
    private final RecvWorkRequests recvWr = new RecvWorkRequests(1, 1);
    private final Completions completions = new Completions(RECV_SLOTS + 1);
    private final int[] arrivedSlot = new int[RECV_SLOTS];
    private final int[] arrivedLength = new int[RECV_SLOTS];
    private int arrivedHead;
    private int arrivedCount;
    private boolean sendDone;
    private boolean closed;

    private RdmaCmControlChannel(Role role, String peer, EventChannel events, CmId id, ProtectionDomain pd,
            CompletionQueue cq, MemoryRegion mr, QueuePair qp) {
        this.role = role;
        this.peer = peer;
        this.events = events;
        this.id = id;
        this.pd = pd;
        this.cq = cq;
        this.mr = mr;
        this.qp = qp;
    }

    /**
     * Client: connects to the perftest server at {@code host:port}. A server that is not listening yet
     * (REJECTED, UNREACHABLE) is retried every 100 ms until {@code timeout}.
     *
     * @throws ExchangeException with a one-line reason: unknown host, no route, nobody listening, timeout
     */
    public static RdmaCmControlChannel connect(String host, int port, Duration timeout) throws ExchangeException {
        return connect(host, port, timeout, Duration.ZERO);
    }

    /**
     * As {@link #connect(String, int, Duration)}, but a server that is listening and has not answered yet (a
     * perftest-java server accepts after its warm-up) is waited for up to {@code answerAllowance} longer; a
     * server that rejects is still retried only until {@code timeout}.
     */
    public static RdmaCmControlChannel connect(String host, int port, Duration timeout, Duration answerAllowance)
            throws ExchangeException {
        return connect(host, port, timeout, answerAllowance, DEFAULT_RETRY_COUNT);
    }

    /** As above, with the control QP's retry count ({@code --retry_count}, 0..7). */
    public static RdmaCmControlChannel connect(String host, int port, Duration timeout, Duration answerAllowance,
            int retryCount) throws ExchangeException {
        return connect(null, host, port, timeout, answerAllowance, retryCount);
    }

    /** As above, resolving from {@code sourceIp} ({@code --source_ip}; null: the routing table's choice). */
    public static RdmaCmControlChannel connect(String sourceIp, String host, int port, Duration timeout,
            Duration answerAllowance, int retryCount) throws ExchangeException {
        InetSocketAddress source = sourceIp == null ? null : new InetSocketAddress(ipv4(sourceIp), 0);
        InetAddress address = ipv4(host);
        InetSocketAddress target = new InetSocketAddress(address, port);
        String peer = address.getHostAddress() + ":" + port;
        long deadline = System.nanoTime() + timeout.toNanos();
        EventChannel events = EventChannel.create();
        Resources res = null;
        CmException rejected = null;
        try {
            while (true) {
                if (rejected != null && System.nanoTime() - deadline >= 0) {
                    // Under a slow CPU the last retry can run out of time before its answer; what the user
                    // needs to hear is what every answer so far said.
                    throw connectFailure(rejected, peer, timeout);
                }
                CmId id = events.createId(PortSpace.TCP);
                try {
                    id.resolveAddress(source, target, RESOLVE_TIMEOUT);
                    id.resolveRoute(RESOLVE_TIMEOUT);
                    if (res == null) {
                        res = new Resources(id.context());
                    }
                    QueuePair qp = id.createQueuePair(res.pd, res.init());
                    RdmaCmControlChannel ch = new RdmaCmControlChannel(Role.CLIENT, peer, events, id, res.pd, res.cq,
                            res.mr, qp);
                    ch.postAllReceives();
                    id.connect(parameters(retryCount), remaining(deadline + answerAllowance.toNanos(),
                            timeout.plus(answerAllowance), peer, rejected));
                    return ch;
                } catch (CmException e) {
                    closeQuietly(id);
                    if (rejected != null && e.isTimeout()) {
                        throw connectFailure(rejected, peer, timeout);
                    }
                    if (retryable(e)) {
                        rejected = e;
                    }
                    if (!retryable(e) || System.nanoTime() + RETRY_PAUSE_NANOS - deadline >= 0) {
                        throw connectFailure(e, peer, timeout);
                    }
                    LockSupport.parkNanos(RETRY_PAUSE_NANOS);
                } catch (RuntimeException e) {
                    closeQuietly(id);
                    throw e;
                }
            }
        } catch (ExchangeException | RuntimeException e) {
            if (res != null) {
                res.close();
            }
            closeQuietly(events);
            if (e instanceof VerbsException v) {
                throw ExchangeException.beforeConnection("rdma_cm connection to " + peer + " failed: "
                        + v.getMessage(), v);
            }
            throw e;
        }
    }

    /** Server: starts listening on the wildcard address; accept with {@link RdmaCmControlListener#accept}. */
    public static RdmaCmControlListener listen(int port) throws ExchangeException {
        return listen(port, DEFAULT_RETRY_COUNT);
    }

    /** As above; the accepted control QP gets {@code retryCount} ({@code --retry_count}, 0..7). */
    public static RdmaCmControlListener listen(int port, int retryCount) throws ExchangeException {
        return listen(null, port, retryCount);
    }

    /** As above, listening on {@code sourceIp} only ({@code --source_ip}; null: the wildcard address). */
    public static RdmaCmControlListener listen(String sourceIp, int port, int retryCount) throws ExchangeException {
        return new RdmaCmControlListener(sourceIp == null ? "0.0.0.0" : sourceIp, port, retryCount);
    }

    /**
     * Server: the control QP for the client's connect request on {@code id}, accepted. On failure the id and
     * everything made for it are closed.
     */
    static RdmaCmControlChannel accept(CmId id, EventChannel events, Duration timeout, int retryCount)
            throws ExchangeException {
        String peer = String.valueOf(id.peerAddress());
        Resources res = null;
        try {
            res = new Resources(id.context());
            QueuePair qp = id.createQueuePair(res.pd, res.init());
            RdmaCmControlChannel ch = new RdmaCmControlChannel(Role.SERVER, peer, events, id, res.pd, res.cq, res.mr,
                    qp);
            ch.postAllReceives();
            id.accept(parameters(retryCount), timeout);
            return ch;
        } catch (VerbsException e) {
            closeQuietly(id);
            if (res != null) {
                res.close();
            }
            throw ExchangeException.beforeConnection("accepting the rdma_cm connection from " + peer + " failed: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public Role role() {
        return role;
    }

    @Override
    public boolean binaryKeys() {
        return true;
    }

    @Override
    public byte[] exchange(byte[] mine, int peerLength, String phase, Duration timeout) throws ExchangeException {
        if (mine.length > MAX_MESSAGE || peerLength > MAX_MESSAGE) {
            throw new IllegalArgumentException("rdma_cm control messages are at most " + MAX_MESSAGE + " bytes");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        if (role == Role.CLIENT) {
            send(mine, phase, deadline, timeout);
            return receive(peerLength, phase, deadline, timeout);
        }
        byte[] theirs = receive(peerLength, phase, deadline, timeout);
        send(mine, phase, deadline, timeout);
        return theirs;
    }

    /** perftest sends its closing "done\0" only over TCP; here there is nothing to send. */
    @Override
    public void sendAndForget(byte[] bytes) {
        // intentionally empty
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        closeQuietly(id);
        closeQuietly(mr);
        closeQuietly(cq);
        closeQuietly(pd);
        closeQuietly(sendWr);
        closeQuietly(recvWr);
        closeQuietly(completions);
        closeQuietly(events);
    }

    private void postAllReceives() {
        for (int i = 0; i < RECV_SLOTS; i++) {
            postReceive(i);
        }
    }

    private void postReceive(int slot) {
        recvWr.set(0, RECV_WR_BASE + slot, mr, RECV_OFFSET + (long) slot * SLOT, SLOT);
        qp.postRecv(recvWr, 1);
    }

    private void send(byte[] bytes, String phase, long deadline, Duration timeout) throws ExchangeException {
        MemorySegment.copy(bytes, 0, mr.segment(), JAVA_BYTE, SEND_OFFSET, bytes.length);
        sendWr.get(0).wrId(SYNC_SPEC_ID).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED)
                .local(mr, SEND_OFFSET, bytes.length);
        sendDone = false;
        try {
            qp.postSend(sendWr, 1);
        } catch (VerbsException e) {
            throw new ExchangeException("rdma_cm control channel to " + peer + " failed during the " + phase + ": "
                    + e.getMessage(), e);
        }
        while (!sendDone) {
            pollOnce(phase, deadline, timeout, "could not deliver");
        }
    }

    private byte[] receive(int length, String phase, long deadline, Duration timeout) throws ExchangeException {
        while (arrivedCount == 0) {
            pollOnce(phase, deadline, timeout, "did not answer");
        }
        int slot = arrivedSlot[arrivedHead];
        int got = arrivedLength[arrivedHead];
        arrivedHead = (arrivedHead + 1) % RECV_SLOTS;
        arrivedCount--;
        // Like perftest, take the bytes the reader expects whatever the sender's length: the buffer is ours.
        byte[] out = new byte[length];
        MemorySegment.copy(mr.segment(), JAVA_BYTE, RECV_OFFSET + (long) slot * SLOT, out, 0, length);
        try {
            postReceive(slot);
        } catch (VerbsException e) {
            throw new ExchangeException("rdma_cm control channel to " + peer + " failed during the " + phase + ": "
                    + e.getMessage(), e);
        }
        if (got < length && got != 0) {
            throw new ExchangeException("peer sent " + got + " bytes during the " + phase + ", expected " + length
                    + " (same tool and flags on both sides?)");
        }
        return out;
    }

    private int idleSpins;

    private void pollOnce(String phase, long deadline, Duration timeout, String what) throws ExchangeException {
        int n;
        try {
            n = cq.poll(completions);
        } catch (VerbsException e) {
            throw new ExchangeException("polling the rdma_cm control channel failed: " + e.getMessage(), e);
        }
        if (n == 0) {
            if (System.nanoTime() - deadline >= 0) {
                throw new ExchangeTimeoutException("peer " + what + " the " + phase + " within "
                        + ExchangeTimeouts.describe(timeout) + " (rdma_cm control channel to " + peer + ")", null);
            }
            if (++idleSpins > 1000) {
                LockSupport.parkNanos(20_000);
            } else {
                Thread.onSpinWait();
            }
            return;
        }
        idleSpins = 0;
        for (int i = 0; i < n; i++) {
            if (!completions.isSuccess(i)) {
                throw new ExchangeException("rdma_cm control channel to " + peer + " failed during the " + phase
                        + ": " + completions.describe(i) + " (peer gone?)");
            }
            long wrId = completions.wrId(i);
            if (wrId == SYNC_SPEC_ID) {
                sendDone = true;
            } else {
                int slot = (int) (wrId - RECV_WR_BASE);
                int tail = (arrivedHead + arrivedCount) % RECV_SLOTS;
                arrivedSlot[tail] = slot;
                arrivedLength[tail] = completions.byteLength(i);
                arrivedCount++;
            }
        }
    }

    /** perftest's default retry count, and what its exchange QP always uses as the RNR retry count. */
    static final int DEFAULT_RETRY_COUNT = 7;

    static ConnectionParameters parameters(int retryCount) {
        // perftest's comm struct: verb SEND, so no read resources; --retry_count (default 7), rnr_retry_count 7.
        return new ConnectionParameters().responderResources(0).initiatorDepth(0).retryCount(retryCount)
                .rnrRetryCount(DEFAULT_RETRY_COUNT);
    }

    /** The first IPv4 address of {@code host} (perftest's rdma_cm mode is IPv4 only). */
    public static InetAddress ipv4(String host) throws ExchangeException {
        try {
            for (InetAddress a : InetAddress.getAllByName(host)) {
                if (a instanceof Inet4Address) {
                    return a;
                }
            }
        } catch (UnknownHostException e) {
            throw ExchangeException.beforeConnection("unknown host: " + host, e);
        }
        throw ExchangeException.beforeConnection(host + " has no IPv4 address (perftest's rdma_cm mode is IPv4 only)",
                null);
    }

    private static Duration remaining(long deadline, Duration timeout, String peer, CmException rejected)
            throws ExchangeException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            if (rejected != null) {
                throw connectFailure(rejected, peer, timeout);
            }
            throw new ExchangeTimeoutException("could not connect to " + peer + " over rdma_cm within "
                    + ExchangeTimeouts.describe(timeout), null, true);
        }
        return Duration.ofNanos(left);
    }

    /** Whether a failed rdma_cm connect may be retried: the server is not listening (yet) or unreachable. */
    public static boolean retryable(CmException e) {
        if (e.isTimeout() || e.event() == null) {
            return false;
        }
        CmEventType t = e.event().type();
        return t == CmEventType.REJECTED || t == CmEventType.UNREACHABLE || t == CmEventType.ADDR_ERROR
                || t == CmEventType.ROUTE_ERROR || t == CmEventType.CONNECT_ERROR;
    }

    private static ExchangeException connectFailure(CmException e, String peer, Duration timeout) {
        if (e.isTimeout()) {
            return new ExchangeTimeoutException("could not connect to " + peer + " over rdma_cm within "
                    + ExchangeTimeouts.describe(timeout), e, true);
        }
        if (e.event() != null && e.event().type() == CmEventType.REJECTED) {
            return ExchangeException.beforeConnection("no perftest server with -R is listening on " + peer
                    + " (connection rejected)", e);
        }
        return ExchangeException.beforeConnection("rdma_cm connection to " + peer + " failed: " + e.getMessage(), e);
    }

    /** Closes {@code c} if not null, ignoring failures (teardown after an earlier error). */
    public static void closeQuietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception ignored) {
            // best effort at teardown: the first failure of the run is what the user needs to see
        }
    }

    /** PD, CQ and buffer of a control channel, on the device rdma_cm chose. */
    private static final class Resources {
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final MemoryRegion mr;

        Resources(Context context) {
            ProtectionDomain p = context.allocateProtectionDomain();
            CompletionQueue c = null;
            try {
                c = context.createCompletionQueue(2 * RECV_SLOTS + 2);
                this.mr = p.allocateRegion(RECV_OFFSET + (long) RECV_SLOTS * SLOT, Access.LOCAL_WRITE);
            } catch (RuntimeException e) {
                closeQuietly(c);
                closeQuietly(p);
                throw e;
            }
            this.pd = p;
            this.cq = c;
        }

        QueuePairInit init() {
            return new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(2).maxRecvWr(RECV_SLOTS);
        }

        void close() {
            closeQuietly(mr);
            closeQuietly(cq);
            closeQuietly(pd);
        }
    }
}
