package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The extended send API of a QP ({@code ibv_wr_start}, {@code ibv_wr_*}, {@code ibv_wr_complete}): build
 * a batch of operations between {@link #start()} and {@link #complete()}, each followed by its data
 * ({@link #setSge}, {@link #setInlineData} or {@link #setUdAddress} for UD; a {@link #bindMemoryWindow} or
 * {@link #localInvalidate} carries none). Allocation-free (the first bind allocates its bind-info struct once);
 * one thread.
 *
 * <p>Guards (each a Java exception instead of a crash or a hang, checked with a field read):
 * <ul>
 * <li>Only operations enabled with {@link QueuePairInit#extendedSendOps(long)} ({@link ExtendedSendOps}) can
 * be built: providers leave the other {@code ibv_wr_*} pointers NULL (Soft-RoCE's {@code set_qp_send_ops}
 * does), and calling one would kill the JVM with SIGSEGV.
 * <li>Builders and setters need an open batch, and {@link #start()} refuses a second batch: on Soft-RoCE
 * {@code ibv_wr_start} takes the send queue's spinlock, which only {@code ibv_wr_complete}/{@code _abort}
 * release, so a second start on the same thread would spin forever.
 * <li>When a guard rejects a call inside a batch, the batch is aborted first (releasing that lock), so the
 * QP stays usable.
 * <li>On a UD QP, an SGE or inline data longer than the port MTU is refused: the device would drop such a
 * message without any error (IBTA C10-93.1.1; see {@link QueuePair#postSend}).
 * </ul>
 */
public final class ExtendedSend {
    private static final StructLayout BIND_INFO = Structs.ibv_mw_bind_info;
    private static final long BIND_INFO_MR = Structs.offset(BIND_INFO, "mr");
    private static final long BIND_INFO_ADDR = Structs.offset(BIND_INFO, "addr");
    private static final long BIND_INFO_LENGTH = Structs.offset(BIND_INFO, "length");
    private static final long BIND_INFO_ACCESS = Structs.offset(BIND_INFO, "mw_access_flags");

    private final QueuePair qp;
    private final MemorySegment qpx;
    private final long enabledOps;
    private boolean inBatch;
    /** The send flags of the last operation built, for {@link #setInlineData}. */
    private int lastFlags;
    /**
     * The struct ibv_mw_bind_info handed to ibv_wr_bind_mw, allocated on the first bind and reused: the builder
     * copies it into the work queue entry before it returns (rdma-core's builders write the WQE in place).
     */
    private MemorySegment bindInfo;
    /** Windows bound in the open batch and their new rkeys, given to the windows once the batch is posted. */
    private MemoryWindow[] boundWindows = new MemoryWindow[0];
    private int[] boundRkeys = new int[0];
    private int binds;

    ExtendedSend(QueuePair qp, MemorySegment qpx, long enabledOps) {
        this.qp = qp;
        this.qpx = qpx;
        this.enabledOps = enabledOps;
    }

    private MemorySegment qpx() {
        qp.handle();
        return qpx;
    }

    /** The IBV_QP_EX_WITH_* operations this QP was created with. */
    public long enabledOperations() {
        return enabledOps;
    }

    /** True between {@link #start()} and {@link #complete()} / {@link #abort()}. */
    public boolean inBatch() {
        return inBatch;
    }

    /** A builder may run: a batch is open and its operation was enabled at creation. */
    private MemorySegment builder(long op) {
        MemorySegment q = qpx();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": call start() before building a work request");
        }
        if ((enabledOps & op) == 0) {
            abortQuietly();
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber()) + " was created without "
                    + ExtendedSendOps.name(op) + " (QueuePairInit.extendedSendOps); the batch was aborted");
        }
        return q;
    }

    /** A setter may run: a batch is open. */
    private MemorySegment setter() {
        MemorySegment q = qpx();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": call start() and a builder before setting its data");
        }
        return q;
    }

    private void checkUdLength(long length) {
        int max = qp.udMaxMessage();
        if (max > 0 && length > max) {
            abortQuietly();
            throw QueuePair.udTooLong(qp, length, max, "the batch was aborted");
        }
    }

    /** {@code ibv_wr_start}. */
    public void start() {
        MemorySegment q = qpx();
        if (inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": a batch is already open; complete() or abort() it first");
        }
        try {
            Shim.rdmaffm_wr_start().invokeExact(q);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        inBatch = true;
    }

    /** {@code ibv_wr_complete}: posts the batch; throws if the provider rejected it (nothing is posted then). */
    public void complete() {
        MemorySegment q = qpx();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber()) + ": no batch to complete");
        }
        int rc;
        try {
            rc = (int) Shim.rdmaffm_wr_complete().invokeExact(q);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        inBatch = false;
        if (rc != 0) {
            forgetBinds();
            throw VerbsException.of("ibv_wr_complete", rc, "QP 0x" + Integer.toHexString(qp.qpNumber()));
        }
        // Posted: each window bound in the batch now has its new rkey. ibv_wr_bind_mw leaves ibv_mw.rkey at the
        // old value, but Soft-RoCE hands ibv_mw.rkey to the kernel as the window's current rkey in the next bind
        // (wr.mw.mw_rkey) and the kernel refuses a bind whose current rkey does not match (rxe_mw.c
        // rxe_bind_mw), so a window could not be bound twice; SendWorkRequests does the same for BIND_MW requests.
        for (int i = 0; i < binds; i++) {
            if (!boundWindows[i].isClosedInternal()) {
                boundWindows[i].boundTo(boundRkeys[i]);
            }
        }
        forgetBinds();
    }

    private void forgetBinds() {
        Arrays.fill(boundWindows, 0, binds, null);
        binds = 0;
    }

    /** {@code ibv_wr_abort}: drops the batch being built. Does nothing when no batch is open. */
    public void abort() {
        MemorySegment q = qpx();
        if (!inBatch) {
            return;
        }
        try {
            Shim.rdmaffm_wr_abort().invokeExact(q);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        inBatch = false;
        forgetBinds();
    }

    private void abortQuietly() {
        if (inBatch) {
            try {
                Shim.rdmaffm_wr_abort().invokeExact(qpx);
            } catch (Throwable ignored) {
                // the guard's own exception is the one to report
            }
            inBatch = false;
            forgetBinds();
        }
    }

    /** {@code ibv_wr_send}. */
    public ExtendedSend send(long wrId, int flags) {
        MemorySegment q = builder(ExtendedSendOps.SEND);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_send().invokeExact(q, wrId, flags);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_send_imm}; imm in host order. */
    public ExtendedSend sendWithImm(long wrId, int flags, int imm) {
        MemorySegment q = builder(ExtendedSendOps.SEND_WITH_IMM);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_send_imm().invokeExact(q, wrId, flags, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_send_inv}. */
    public ExtendedSend sendWithInvalidate(long wrId, int flags, int rkey) {
        MemorySegment q = builder(ExtendedSendOps.SEND_WITH_INV);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_send_inv().invokeExact(q, wrId, flags, rkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write}. */
    public ExtendedSend rdmaWrite(long wrId, int flags, int rkey, long remoteAddress) {
        MemorySegment q = builder(ExtendedSendOps.RDMA_WRITE);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_rdma_write().invokeExact(q, wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write_imm}; imm in host order. */
    public ExtendedSend rdmaWriteWithImm(long wrId, int flags, int rkey, long remoteAddress, int imm) {
        MemorySegment q = builder(ExtendedSendOps.RDMA_WRITE_WITH_IMM);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_rdma_write_imm().invokeExact(q, wrId, flags, rkey, remoteAddress, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_read}. */
    public ExtendedSend rdmaRead(long wrId, int flags, int rkey, long remoteAddress) {
        MemorySegment q = builder(ExtendedSendOps.RDMA_READ);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_rdma_read().invokeExact(q, wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_atomic_cmp_swp}. */
    public ExtendedSend atomicCompareAndSwap(long wrId, int flags, int rkey, long remoteAddress, long compare, long swap) {
        MemorySegment q = builder(ExtendedSendOps.ATOMIC_CMP_AND_SWP);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_atomic_cmp_swp().invokeExact(q, wrId, flags, rkey, remoteAddress, compare, swap);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_atomic_fetch_add}. */
    public ExtendedSend atomicFetchAndAdd(long wrId, int flags, int rkey, long remoteAddress, long add) {
        MemorySegment q = builder(ExtendedSendOps.ATOMIC_FETCH_AND_ADD);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_atomic_fetch_add().invokeExact(q, wrId, flags, rkey, remoteAddress, add);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_local_inv}. */
    public ExtendedSend localInvalidate(long wrId, int flags, int rkey) {
        MemorySegment q = builder(ExtendedSendOps.LOCAL_INV);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_local_inv().invokeExact(q, wrId, flags, rkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /**
     * {@code ibv_wr_bind_mw}: bind memory window {@code mw} with the new rkey {@code newRkey} (normally
     * {@link MemoryWindow#nextRkey()}) over {@code length} bytes at {@code offset} of {@code mr}, granting
     * {@code access} (IBV_ACCESS_REMOTE_* bits). Meant for type 2 windows; a type 1 window is usually bound with
     * {@link QueuePair#bindMemoryWindow}. A bind carries no data: no setter follows it. Once {@link #complete()}
     * posts the batch, {@link MemoryWindow#rkey()} is {@code newRkey} (if the bind then completes with an error,
     * the window keeps its old rkey in the device: take it from the failed bind's completion).
     *
     * <p>Needs {@link ExtendedSendOps#BIND_MW} at creation; Soft-RoCE offers it on RC and UC queue pairs and
     * refuses it on UD ones at creation ({@code ibv_create_qp_ex}: EOPNOTSUPP, a {@link VerbsUnsupportedException}).
     * Soft-RoCE ties a type 2 window to the queue pair that bound it: only requests arriving on that QP can use the
     * rkey. A closed window or region, or a range outside the region, is refused and the batch aborted.
     */
    public ExtendedSend bindMemoryWindow(long wrId, int flags, MemoryWindow mw, int newRkey, MemoryRegion mr,
                                         long offset, long length, int access) {
        MemorySegment q = builder(ExtendedSendOps.BIND_MW);
        MemorySegment window;
        MemorySegment region;
        long address;
        try {
            if (mw == null || mr == null) {
                throw new IllegalArgumentException("a bind needs a memory window and a memory region");
            }
            window = mw.handle();
            // rdma-core's wr_bind_mw reads info->mr->lkey, so a missing region would be a NULL dereference.
            region = mr.handle();
            address = mr.addressOf(offset, length);
        } catch (RuntimeException e) {
            abortQuietly();
            throw e;
        }
        MemorySegment info = bindInfo();
        info.set(ADDRESS, BIND_INFO_MR, region);
        info.set(JAVA_LONG, BIND_INFO_ADDR, address);
        info.set(JAVA_LONG, BIND_INFO_LENGTH, length);
        info.set(JAVA_INT, BIND_INFO_ACCESS, access);
        lastFlags = flags;
        try {
            Shim.rdmaffm_wr_bind_mw().invokeExact(q, wrId, flags, window, newRkey, info);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (binds == boundWindows.length) {
            boundWindows = Arrays.copyOf(boundWindows, Math.max(4, binds * 2));
            boundRkeys = Arrays.copyOf(boundRkeys, boundWindows.length);
        }
        boundWindows[binds] = mw;
        boundRkeys[binds] = newRkey;
        binds++;
        return this;
    }

    private MemorySegment bindInfo() {
        if (bindInfo == null) {
            bindInfo = Arena.ofAuto().allocate(BIND_INFO);
        }
        return bindInfo;
    }

    /** {@code ibv_wr_set_sge}: the data of the operation just built. */
    public ExtendedSend setSge(int lkey, long address, int length) {
        MemorySegment q = setter();
        checkUdLength(Integer.toUnsignedLong(length));
        try {
            Shim.rdmaffm_wr_set_sge().invokeExact(q, lkey, address, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /**
     * {@code ibv_wr_set_inline_data}: copy {@code length} bytes of {@code data} into the WQE. Build the
     * operation with {@link SendFlags#INLINE} in its flags: Soft-RoCE's {@code wr_set_inline_data} copies the
     * bytes but leaves the send flags alone, and its kernel side only reads inline bytes when IBV_SEND_INLINE
     * is set.
     */
    public ExtendedSend setInlineData(MemorySegment data, long length) {
        MemorySegment q = setter();
        if ((lastFlags & SendFlags.INLINE) == 0) {
            abortQuietly();
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber()) + ": build the operation with "
                    + "SendFlags.INLINE before setInlineData (without it Soft-RoCE completes it with LOC_QP_OP_ERR "
                    + "and sends nothing); the batch was aborted");
        }
        if (length < 0 || length > data.byteSize()) {
            abortQuietly();
            throw new IndexOutOfBoundsException("inline length " + length + " outside the " + data.byteSize()
                    + "-byte segment; the batch was aborted");
        }
        checkUdLength(length);
        try {
            Shim.rdmaffm_wr_set_inline_data().invokeExact(q, data, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_set_ud_addr}. */
    public ExtendedSend setUdAddress(AddressHandle ah, int remoteQpn, int remoteQkey) {
        MemorySegment q = setter();
        try {
            Shim.rdmaffm_wr_set_ud_addr().invokeExact(q, ah.handle(), remoteQpn, remoteQkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }
}
