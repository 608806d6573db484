package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.internal.VerbsBridge;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets.ibv_qp_attr;
import io.rdmaffm.verbs.raw.Offsets.ibv_qp_init_attr;
import io.rdmaffm.verbs.raw.Offsets.ibv_qp_init_attr_ex;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ibv_qp}: an RC, UC or UD queue pair. Move it through RESET→INIT→RTR→RTS with
 * {@link #modify(QueuePairAttributes)}; post with {@link #postSend(SendWorkRequests, int)} and
 * {@link #postRecv(RecvWorkRequests, int)} (one downcall each, no allocation). Posting is safe from one
 * sender thread and one receiver thread at a time; control calls are synchronized. {@link #close()} may come
 * from any thread, also while another posts: it waits for the post in progress to return, and every later call
 * throws IllegalStateException.
 */
public final class QueuePair extends NativeObject {
    private final ProtectionDomain pd;
    private final QueuePairType type;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final SharedReceiveQueue srq;
    private final int qpNumber;
    private final QueuePairCapabilities capabilities;
    private final ExtendedSend extendedSend;
    private final Runnable externalDestroy;
    private QueuePairState lastKnownState = QueuePairState.RESET;
    /**
     * For UD: the largest message the port carries (its active MTU, read when the QP is bound to a port),
     * 0 until then and for RC/UC. A longer UD send is not an error for the device: IBTA C10-93.1.1 says the
     * HCA sends no packet and reports no error, and Soft-RoCE completes it with IBV_WC_SUCCESS while nothing
     * arrives. postSend checks it so the caller gets an exception instead of a silent drop.
     */
    private volatile int udMaxMessage;
    /**
     * The multicast groups this QP is attached to (GID as hex, with its LID): the QP owns its attachments and
     * detaches them before it is destroyed, because a provider may refuse to destroy an attached QP (Soft-RoCE
     * answers EBUSY) and the group would outlive it in the device.
     */
    private final java.util.Map<String, MulticastGroup> attached = new java.util.LinkedHashMap<>();

    private QueuePair(ProtectionDomain pd, QueuePairInit init, MemorySegment handle, QueuePairCapabilities granted,
                      MemorySegment qpx, Runnable externalDestroy) {
        super(pd, "queue pair", handle);
        this.externalDestroy = externalDestroy;
        this.pd = pd;
        this.type = init.type;
        this.sendCq = init.sendCq;
        this.recvCq = init.recvCq;
        this.srq = init.srq;
        this.qpNumber = handle.get(JAVA_INT, Offsets.ibv_qp.qp_num);
        this.capabilities = granted;
        this.extendedSend = qpx == null ? null : new ExtendedSend(this, qpx, init.sendOps);
    }

    /**
     * ibv_qp_init_attr, or the members ibv_qp_init_attr_ex begins with (verbs.h declares them first, in the same
     * order). Run while the CQs and SRQ are pinned, so their pointers stay valid for the create verb.
     */
    private static void writeInitAttributes(MemorySegment a, QueuePairInit init) {
        a.set(ADDRESS, ibv_qp_init_attr.send_cq, init.sendCq.handle());
        a.set(ADDRESS, ibv_qp_init_attr.recv_cq, init.recvCq.handle());
        a.set(ADDRESS, ibv_qp_init_attr.srq, init.srq == null ? MemorySegment.NULL : init.srq.handle());
        a.set(JAVA_INT, ibv_qp_init_attr.cap__max_send_wr, init.maxSendWr);
        a.set(JAVA_INT, ibv_qp_init_attr.cap__max_recv_wr, init.srq == null ? init.maxRecvWr : 0);
        a.set(JAVA_INT, ibv_qp_init_attr.cap__max_send_sge, init.maxSendSge);
        a.set(JAVA_INT, ibv_qp_init_attr.cap__max_recv_sge, init.srq == null ? init.maxRecvSge : 0);
        a.set(JAVA_INT, ibv_qp_init_attr.cap__max_inline_data, init.maxInlineData);
        a.set(JAVA_INT, ibv_qp_init_attr.qp_type, init.type.value());
        a.set(JAVA_INT, ibv_qp_init_attr.sq_sig_all, init.signalAll ? 1 : 0);
    }

    /**
     * Creates a QP with {@code create}: its CQs and SRQ are pinned (they must outlive it) and its PD holds its
     * place from before the create verb runs, so none of them can close meanwhile; all is given back if it fails.
     */
    private static QueuePair make(ProtectionDomain pd, QueuePairInit init, MemorySegment attr,
                                  Lifetime.Call<QueuePair> create) {
        NativeObject[] uses = {init.sendCq, init.recvCq == init.sendCq ? null : init.recvCq, init.srq};
        int pinned = 0;
        boolean made = false;
        try {
            for (; pinned < uses.length; pinned++) {
                if (uses[pinned] != null) {
                    uses[pinned].pin();
                }
            }
            writeInitAttributes(attr, init);
            QueuePair qp = pd.life.create(create);
            made = true;
            for (NativeObject used : uses) {
                if (used != null) {
                    used.pinnedBy(qp);
                }
            }
            return qp;
        } finally {
            for (int i = 0; i < pinned && !made; i++) {
                if (uses[i] != null) {
                    uses[i].unpin();
                }
            }
        }
    }

    static QueuePair create(ProtectionDomain pd, QueuePairInit init) {
        boolean ex = init.sendOps != 0;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(ex ? Structs.ibv_qp_init_attr_ex : Structs.ibv_qp_init_attr);
            String verb = ex ? "ibv_create_qp_ex" : "ibv_create_qp";
            return make(pd, init, a, pdHandle -> {
                MemorySegment qp;
                if (ex) {
                    a.set(JAVA_INT, ibv_qp_init_attr_ex.comp_mask,
                            Constants.IBV_QP_INIT_ATTR_PD | Constants.IBV_QP_INIT_ATTR_SEND_OPS_FLAGS);
                    a.set(ADDRESS, ibv_qp_init_attr_ex.pd, pdHandle);
                    a.set(JAVA_LONG, ibv_qp_init_attr_ex.send_ops_flags, init.sendOps);
                    // The PD's place in its context keeps the context open too.
                    qp = (MemorySegment) Shim.rdmaffm_create_qp_ex.handle().invokeExact(Downcalls.errnoState(),
                            pd.context().rawHandle(), a);
                } else {
                    qp = (MemorySegment) Ibv.ibv_create_qp.handle().invokeExact(Downcalls.errnoState(), pdHandle, a);
                }
                if (qp.equals(MemorySegment.NULL)) {
                    throw Errors.of(verb, Downcalls.errno(), "device " + pd.context().name() + ", " + init.type
                            + ", max_send_wr " + init.maxSendWr + ", max_recv_wr " + init.maxRecvWr
                            + ", max_inline_data " + init.maxInlineData);
                }
                qp = qp.reinterpret(Structs.ibv_qp.byteSize());
                MemorySegment qpx = null;
                if (ex) {
                    qpx = ((MemorySegment) Ibv.ibv_qp_to_qp_ex.handle().invokeExact(qp)).reinterpret(Structs.ibv_qp_ex.byteSize());
                }
                return new QueuePair(pd, init, qp, granted(a), qpx, null);
            });
        }
    }

    /**
     * A queue pair that another library creates and destroys: rdma_cm's {@code rdma_create_qp} /
     * {@code rdma_destroy_qp}. {@code creator} gets the filled {@code struct ibv_qp_init_attr} and returns the
     * ibv_qp (NULL with errno set on failure); {@code destroyer} runs instead of {@code ibv_destroy_qp}.
     */
    static QueuePair createExternally(ProtectionDomain pd, QueuePairInit init, String verb,
                                      VerbsBridge.QueuePairCreator creator, Runnable destroyer) {
        if (init.sendOps != 0) {
            throw new IllegalArgumentException(verb + " creates plain queue pairs: extended send operations "
                    + "(QueuePairInit.extendedSendOps) are not available through it");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_qp_init_attr);
            return make(pd, init, a, pdHandle -> {
                MemorySegment qp = creator.create(pdHandle, a);
                if (qp == null || qp.equals(MemorySegment.NULL)) {
                    throw Errors.of(verb, Downcalls.errno(), "device " + pd.context().name() + ", " + init.type
                            + ", max_send_wr " + init.maxSendWr + ", max_recv_wr " + init.maxRecvWr);
                }
                qp = qp.reinterpret(Structs.ibv_qp.byteSize());
                QueuePair created = new QueuePair(pd, init, qp, granted(a), null, destroyer);
                // librdmacm moves its QPs to INIT itself (and to RTR/RTS on connect).
                created.lastKnownState = QueuePairState.INIT;
                return created;
            });
        }
    }

    /** The cap members the create verb wrote back into the init attributes: what the device granted. */
    private static QueuePairCapabilities granted(MemorySegment a) {
        return new QueuePairCapabilities(a.get(JAVA_INT, ibv_qp_init_attr.cap__max_send_wr),
                a.get(JAVA_INT, ibv_qp_init_attr.cap__max_recv_wr), a.get(JAVA_INT, ibv_qp_init_attr.cap__max_send_sge),
                a.get(JAVA_INT, ibv_qp_init_attr.cap__max_recv_sge),
                a.get(JAVA_INT, ibv_qp_init_attr.cap__max_inline_data));
    }

    /** qp_num, what the peer puts in dest_qp_num (RC/UC) or remote_qpn (UD). */
    public int qpNumber() {
        return qpNumber;
    }

    public QueuePairType type() {
        return type;
    }

    public ProtectionDomain protectionDomain() {
        return pd;
    }

    public CompletionQueue sendCompletionQueue() {
        return sendCq;
    }

    public CompletionQueue recvCompletionQueue() {
        return recvCq;
    }

    /** The inline size the device granted (may exceed the request); {@code capabilities().maxInlineData()}. */
    public int maxInlineData() {
        return capabilities.maxInlineData();
    }

    /**
     * The depths, scatter/gather sizes and inline size the device granted at creation (each may exceed what
     * {@link QueuePairInit} asked for); read once from what the create verb wrote back, so no query is needed.
     */
    public QueuePairCapabilities capabilities() {
        return capabilities;
    }

    @Override
    String describeSuffix() {
        return " (QP 0x" + Integer.toHexString(qpNumber) + ")";
    }

    /** {@code ibv_modify_qp} with exactly the attributes that were set. */
    public synchronized void modify(QueuePairAttributes attributes) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_qp_attr);
            attributes.writeTo(a);
            int rc = call(h -> (int) Ibv.ibv_modify_qp.handle().invokeExact(Downcalls.errnoState(), h, a, attributes.mask()));
            if (rc != 0) {
                throw Errors.of("ibv_modify_qp", Errors.errnoOf(rc), "device " + pd.context().name() + ", " + type
                        + " QP 0x" + Integer.toHexString(qpNumber) + ", " + attributes.describe(lastKnownState));
            }
        }
        if (attributes.state() != null) {
            lastKnownState = attributes.state();
        }
        if (type == QueuePairType.UD && (attributes.mask() & Constants.IBV_QP_PORT) != 0) {
            udMaxMessage = pd.context().queryPort(attributes.port).activeMtu().bytes();
        }
    }

    /** {@code ibv_query_qp} of the attributes in {@code mask} into {@code a}; returns the state it reports. */
    private QueuePairState queryInto(MemorySegment a, int mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment init = arena.allocate(Structs.ibv_qp_init_attr);
            int rc = call(h -> (int) Ibv.ibv_query_qp.handle().invokeExact(Downcalls.errnoState(), h, a, mask, init));
            Errors.check("ibv_query_qp", rc, "QP 0x" + Integer.toHexString(qpNumber));
        }
        lastKnownState = QueuePairState.of(a.get(JAVA_INT, ibv_qp_attr.qp_state));
        return lastKnownState;
    }

    /** The current state ({@code ibv_query_qp} with IBV_QP_STATE). */
    public synchronized QueuePairState state() {
        try (Arena arena = Arena.ofConfined()) {
            return queryInto(arena.allocate(Structs.ibv_qp_attr), Constants.IBV_QP_STATE);
        }
    }

    /** Current attributes as the device reports them ({@code ibv_query_qp}). */
    public synchronized QueuePairInfo query() {
        int mask = Constants.IBV_QP_STATE | Constants.IBV_QP_PATH_MTU | Constants.IBV_QP_DEST_QPN
                | Constants.IBV_QP_RQ_PSN | Constants.IBV_QP_SQ_PSN | Constants.IBV_QP_TIMEOUT
                | Constants.IBV_QP_RETRY_CNT | Constants.IBV_QP_RNR_RETRY | Constants.IBV_QP_MAX_QP_RD_ATOMIC
                | Constants.IBV_QP_MAX_DEST_RD_ATOMIC | Constants.IBV_QP_CAP | Constants.IBV_QP_ACCESS_FLAGS
                | Constants.IBV_QP_PORT | Constants.IBV_QP_QKEY | Constants.IBV_QP_AV | Constants.IBV_QP_MIN_RNR_TIMER;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_qp_attr);
            QueuePairState st = queryInto(a, mask);
            int mtu = a.get(JAVA_INT, ibv_qp_attr.path_mtu);
            return new QueuePairInfo(st, mtu >= 1 && mtu <= 5 ? Mtu.of(mtu) : null,
                    a.get(JAVA_INT, ibv_qp_attr.dest_qp_num), a.get(JAVA_INT, ibv_qp_attr.rq_psn),
                    a.get(JAVA_INT, ibv_qp_attr.sq_psn), a.get(JAVA_INT, ibv_qp_attr.qkey),
                    a.get(JAVA_INT, ibv_qp_attr.qp_access_flags), u8(a, ibv_qp_attr.timeout),
                    u8(a, ibv_qp_attr.retry_cnt), u8(a, ibv_qp_attr.rnr_retry), u8(a, ibv_qp_attr.max_rd_atomic),
                    u8(a, ibv_qp_attr.max_dest_rd_atomic), u8(a, ibv_qp_attr.min_rnr_timer),
                    u8(a, ibv_qp_attr.port_num), a.get(JAVA_INT, ibv_qp_attr.cap__max_send_wr),
                    a.get(JAVA_INT, ibv_qp_attr.cap__max_recv_wr), a.get(JAVA_INT, ibv_qp_attr.cap__max_inline_data),
                    u8(a, ibv_qp_attr.ah_attr__grh__sgid_index), u8(a, ibv_qp_attr.ah_attr__is_global) != 0);
        }
    }

    private static int u8(MemorySegment a, long offset) {
        return Byte.toUnsignedInt(a.get(JAVA_BYTE, offset));
    }

    /** Moves the QP to ERR: outstanding work requests complete with WR_FLUSH_ERR. */
    public void toError() {
        modify(new QueuePairAttributes().state(QueuePairState.ERR));
    }

    /** Moves the QP back to RESET (from any state), e.g. to recover after an error. */
    public void reset() {
        modify(new QueuePairAttributes().state(QueuePairState.RESET));
    }

    /** For UD QPs bound to a port: the largest message, the port's active MTU in bytes; else 0. */
    int udMaxMessage() {
        return udMaxMessage;
    }

    static IllegalArgumentException udTooLong(QueuePair qp, long length, int max, String what) {
        return new IllegalArgumentException("UD QP 0x" + Integer.toHexString(qp.qpNumber) + ": a " + length
                + "-byte message exceeds the port MTU of " + max + " bytes; the device would drop it without an "
                + "error (IBTA C10-93.1.1)" + (what.isEmpty() ? "" : "; " + what));
    }

    /** Posts send work requests 0..n-1 of the batch as one list: {@code postSend(batch, 0, n)}. */
    public void postSend(SendWorkRequests batch, int n) {
        postSend(batch, 0, n);
    }

    /**
     * Posts send work requests [from, from+n) of the batch as one list ({@code ibv_post_send}), like
     * {@link #postRecv(RecvWorkRequests, int, int)}: a ring of prepared requests can be posted slot by slot without
     * copying. Throws {@link VerbsException} when the provider rejects one (wrong QP state, queue full, bad opcode
     * for the QP type); the message names its index. On a UD QP, a message longer than the port MTU is refused
     * with {@link IllegalArgumentException} before anything is posted (the device would drop it silently). Throws
     * IllegalStateException once the QP is closed, or while another thread closes it.
     */
    public void postSend(SendWorkRequests batch, int from, int n) {
        QueuePairState known = lastKnownState;
        if (known == QueuePairState.RESET || known == QueuePairState.INIT || known == QueuePairState.RTR) {
            refuseSendBeforeRts(n);
        }
        long first = batch.chainRange(from, n);
        int udMax = udMaxMessage;
        if (udMax > 0) {
            int bad = batch.firstLongerThan(from, n, udMax);
            if (bad >= 0) {
                throw udTooLong(this, batch.messageLength(bad), udMax, "work request " + bad + " of "
                        + range(from, n) + ", nothing was posted");
            }
        }
        Lifetime l = life;
        Lifetime m = batch.memory;
        long h = l.enterAddress(m);
        int rc;
        try {
            rc = (int) Shim.DataPath.rdmaffm_post_send.invokeExact(h, first, batch.badWrAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            l.exit(m);
        }
        if (batch.hasBinds) {
            batch.afterPosted(from, rc == 0 ? n : Math.max(0, batch.badIndex() - from));
        }
        if (rc != 0) {
            batch.postFailed();
            // Providers that refuse the whole list (e.g. wrong QP state) leave bad_wr unset.
            int bad = batch.badIndex();
            throw Errors.of("ibv_post_send", Errors.postErrno(rc), "QP 0x"
                    + Integer.toHexString(qpNumber) + " (" + type + ", last set state " + lastKnownState + ")"
                    + (bad >= 0 ? ", work request " + bad + " of " + range(from, n) : ", " + n + " work request(s)"));
        }
    }

    /** The posted range for messages: "8" for entries 0..7 (as before ranges), "[2, 5)" otherwise. */
    private static String range(int from, int n) {
        return from == 0 ? String.valueOf(n) : "[" + from + ", " + (from + n) + ")";
    }

    /**
     * Sends need RTS (or SQD/ERR, where they are flushed). Soft-RoCE's user-space post_send writes the work
     * request into the mapped send queue before its doorbell reaches the kernel, which refuses a QP below
     * RTS with EINVAL, but the request stays queued and runs once the QP reaches RTS: a "refused" send
     * that is sent later. So the binding refuses it before calling the provider. The state the binding last
     * set or saw says the QP may not be ready; it asks the device (ibv_query_qp, off the data path: only
     * while the last known state is below RTS), since something else (rdma_cm) may have moved it.
     */
    private void refuseSendBeforeRts(int n) {
        QueuePairState now = state();
        if (now == QueuePairState.RESET || now == QueuePairState.INIT || now == QueuePairState.RTR) {
            throw new VerbsException("ibv_post_send", Constants.EINVAL, "QP 0x" + Integer.toHexString(qpNumber) + " ("
                    + type + ") is in " + now + ": sends need RTS; refused before reaching the provider, " + n
                    + " work request(s) not posted");
        }
    }

    /** Posts receive work requests 0..n-1 ({@code ibv_post_recv}). */
    public void postRecv(RecvWorkRequests batch, int n) {
        postRecv(batch, 0, n);
    }

    /** Posts receive work requests [from, from+n) as one list ({@code ibv_post_recv}). */
    public void postRecv(RecvWorkRequests batch, int from, int n) {
        Lifetime l = life;
        Lifetime m = batch.memory;
        long h = l.enterAddress(m);
        int rc;
        try {
            if (srq != null) {
                throw new IllegalStateException("QP 0x" + Integer.toHexString(qpNumber)
                        + " receives from a shared receive queue: post receives to the SRQ");
            }
            rc = (int) Shim.DataPath.rdmaffm_post_recv.invokeExact(h, batch.chainRange(from, n), batch.badWrAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            l.exit(m);
        }
        if (rc != 0) {
            throw Errors.of("ibv_post_recv", Errors.postErrno(rc), "QP 0x" + Integer.toHexString(qpNumber) + " ("
                    + type + ", last set state " + lastKnownState + ")");
        }
    }

    /** The extended send API ({@code ibv_wr_*}); only for QPs created with {@link QueuePairInit#extendedSendOps}. */
    public ExtendedSend extendedSend() {
        handle();
        if (extendedSend == null) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qpNumber)
                    + " was not created with extended send operations (QueuePairInit.extendedSendOps)");
        }
        return extendedSend;
    }

    /** Binds a type 1 memory window through this QP ({@code ibv_bind_mw}); returns the window's new rkey. */
    public int bindMemoryWindow(MemoryWindow mw, long wrId, int sendFlags, MemoryRegion mr, long offset, long length,
                                int access) {
        return mw.bindType1(this, wrId, sendFlags, mr, offset, length, access);
    }

    /**
     * {@code ibv_attach_mcast}: this UD QP receives the datagrams sent to {@code group} (to remote QPN 0xFFFFFF
     * with this QP's Q_Key). Attached until {@link #detachMulticast} or until the QP is closed.
     *
     * @throws IllegalStateException    if the QP is not UD (only UD QPs join groups) or already in {@code group}
     * @throws IllegalArgumentException if the GID is not a multicast GID (first byte 0xFF)
     * @throws VerbsException           if the device refuses (e.g. it has no multicast groups)
     */
    public synchronized void attachMulticast(MulticastGroup group) {
        if (type != QueuePairType.UD) {
            throw new IllegalStateException("only UD queue pairs join multicast groups; QP 0x"
                    + Integer.toHexString(qpNumber) + " is " + type);
        }
        if (attached.containsKey(group.key())) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qpNumber) + " is already attached to "
                    + group);
        }
        multicastVerb(Ibv.ibv_attach_mcast, "ibv_attach_mcast", group);
        attached.put(group.key(), group);
    }

    /**
     * {@code ibv_detach_mcast}: leaves a group {@link #attachMulticast} joined.
     *
     * @throws IllegalStateException if this QP is not attached to {@code group}
     */
    public synchronized void detachMulticast(MulticastGroup group) {
        if (!attached.containsKey(group.key())) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qpNumber) + " is not attached to "
                    + group);
        }
        multicastVerb(Ibv.ibv_detach_mcast, "ibv_detach_mcast", group);
        attached.remove(group.key());
    }

    /** The groups this QP is attached to, in the order it joined them. */
    public synchronized java.util.List<MulticastGroup> multicastGroups() {
        return java.util.List.copyOf(attached.values());
    }

    private void multicastVerb(io.rdmaffm.verbs.raw.LazyHandle verb, String name, MulticastGroup group) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment gid = arena.allocate(16);
            MemorySegment.copy(group.gid(), 0, gid, JAVA_BYTE, 0, 16);
            short lid = (short) group.lid();
            int rc = call(h -> (int) verb.handle().invokeExact(Downcalls.errnoState(), h, gid, lid));
            Errors.check(name, rc, "device " + pd.context().name() + ", QP 0x" + Integer.toHexString(qpNumber)
                    + ", " + group);
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        // Leave the groups first (see attached); a failed detach is left to the destroy verb to report.
        for (MulticastGroup g : attached.values()) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment gid = arena.allocate(16);
                MemorySegment.copy(g.gid(), 0, gid, JAVA_BYTE, 0, 16);
                int ignored = (int) Ibv.ibv_detach_mcast.handle().invokeExact(Downcalls.errnoState(), handle, gid,
                        (short) g.lid());
            } catch (Throwable t) {
                // Reported by the destroy verb below if the device still holds the QP.
            }
        }
        attached.clear();
        if (externalDestroy != null) {
            externalDestroy.run();
        } else {
            destroyWith(Ibv.ibv_destroy_qp.handle(), "ibv_destroy_qp", handle, "QP 0x" + Integer.toHexString(qpNumber));
        }
    }

    @Override
    void afterClose() {
        sendCq.unpin(this);
        if (recvCq != sendCq) {
            recvCq.unpin(this);
        }
        if (srq != null) {
            srq.unpin(this);
        }
    }
}
