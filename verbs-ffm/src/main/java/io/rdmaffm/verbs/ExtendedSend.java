package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Shim;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

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

    private final QueuePair qp;
    private final MemorySegment qpx;
    private final long enabledOps;
    private boolean inBatch;
    /** The send flags of the last operation built, for {@link #setInlineData}. */
    private int lastFlags;
    private final ExtendedSendBinds binds = new ExtendedSendBinds();

    ExtendedSend(QueuePair qp, MemorySegment qpx, long enabledOps) {
        this.qp = qp;
        this.qpx = qpx;
        this.enabledOps = enabledOps;
    }

    /**
     * Enters the QP's guard for one {@code ibv_wr_*} call on its send queue (see {@link QueuePair#close()}):
     * throws IllegalStateException once the QP is closed. Pair with {@link #exit()}.
     */
    private MemorySegment enter() {
        qp.life.enter();
        return qpx;
    }

    private void exit() {
        qp.life.exit();
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
    private void builder(long op) {
        qp.handle();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": call start() before building a work request");
        }
        if ((enabledOps & op) == 0) {
            abortQuietly();
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber()) + " was created without "
                    + ExtendedSendOps.name(op) + " (QueuePairInit.extendedSendOps); the batch was aborted");
        }
    }

    /** A setter may run: a batch is open. */
    private void setter() {
        qp.handle();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": call start() and a builder before setting its data");
        }
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
        qp.handle();
        if (inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber())
                    + ": a batch is already open; complete() or abort() it first");
        }
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_start.invokeExact(q);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        inBatch = true;
    }

    /** {@code ibv_wr_complete}: posts the batch; throws if the provider rejected it (nothing is posted then). */
    public void complete() {
        qp.handle();
        if (!inBatch) {
            throw new IllegalStateException("QP 0x" + Integer.toHexString(qp.qpNumber()) + ": no batch to complete");
        }
        int rc;
        MemorySegment q = enter();
        try {
            rc = (int) Shim.WorkRequests.rdmaffm_wr_complete.invokeExact(q);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        inBatch = false;
        if (rc != 0) {
            binds.forget();
            throw Errors.of("ibv_wr_complete", rc, "QP 0x" + Integer.toHexString(qp.qpNumber()));
        }
        binds.posted();
    }

    /** {@code ibv_wr_abort}: drops the batch being built. Does nothing when no batch is open. */
    public void abort() {
        qp.handle();
        if (!inBatch) {
            return;
        }
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_abort.invokeExact(q);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        inBatch = false;
        binds.forget();
    }

    private void abortQuietly() {
        if (inBatch) {
            try {
                MemorySegment q = enter();
                try {
                    Shim.WorkRequests.rdmaffm_wr_abort.invokeExact(q);
                } finally {
                    exit();
                }
            } catch (Throwable ignored) {
                // the guard's own exception is the one to report (a closed QP has no batch left to abort)
            }
            inBatch = false;
            binds.forget();
        }
    }

    /** {@code ibv_wr_send}. */
    public ExtendedSend send(long wrId, int flags) {
        builder(ExtendedSendOps.SEND);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_send.invokeExact(q, wrId, flags);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_send_imm}; imm in host order. */
    public ExtendedSend sendWithImm(long wrId, int flags, int imm) {
        builder(ExtendedSendOps.SEND_WITH_IMM);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_send_imm.invokeExact(q, wrId, flags, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_send_inv}. */
    public ExtendedSend sendWithInvalidate(long wrId, int flags, int rkey) {
        builder(ExtendedSendOps.SEND_WITH_INV);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_send_inv.invokeExact(q, wrId, flags, rkey);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write}. */
    public ExtendedSend rdmaWrite(long wrId, int flags, int rkey, long remoteAddress) {
        builder(ExtendedSendOps.RDMA_WRITE);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_rdma_write.invokeExact(q, wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write_imm}; imm in host order. */
    public ExtendedSend rdmaWriteWithImm(long wrId, int flags, int rkey, long remoteAddress, int imm) {
        builder(ExtendedSendOps.RDMA_WRITE_WITH_IMM);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_rdma_write_imm.invokeExact(q, wrId, flags, rkey, remoteAddress, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_rdma_read}. */
    public ExtendedSend rdmaRead(long wrId, int flags, int rkey, long remoteAddress) {
        builder(ExtendedSendOps.RDMA_READ);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_rdma_read.invokeExact(q, wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_atomic_cmp_swp}. */
    public ExtendedSend atomicCompareAndSwap(long wrId, int flags, int rkey, long remoteAddress, long compare, long swap) {
        builder(ExtendedSendOps.ATOMIC_CMP_AND_SWP);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_atomic_cmp_swp.invokeExact(q, wrId, flags, rkey, remoteAddress, compare, swap);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_atomic_fetch_add}. */
    public ExtendedSend atomicFetchAndAdd(long wrId, int flags, int rkey, long remoteAddress, long add) {
        builder(ExtendedSendOps.ATOMIC_FETCH_AND_ADD);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_atomic_fetch_add.invokeExact(q, wrId, flags, rkey, remoteAddress, add);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_local_inv}. */
    public ExtendedSend localInvalidate(long wrId, int flags, int rkey) {
        builder(ExtendedSendOps.LOCAL_INV);
        lastFlags = flags;
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_local_inv.invokeExact(q, wrId, flags, rkey);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
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
        builder(ExtendedSendOps.BIND_MW);
        long address;
        try {
            if (mw == null || mr == null) {
                throw new IllegalArgumentException("a bind needs a memory window and a memory region");
            }
            mw.handle();
            // rdma-core's wr_bind_mw reads info->mr->lkey, so a missing region would be a NULL dereference.
            mr.handle();
            address = mr.addressOf(offset, length);
        } catch (RuntimeException e) {
            abortQuietly();
            throw e;
        }
        MemorySegment info = binds.info(address, length, access);
        lastFlags = flags;
        // The builder reads the window and the region: they stay open (guarded) until it returns.
        MemorySegment q = enter();
        try {
            MemorySegment window = mw.life.enter();
            try {
                MemorySegment region = mr.life.enter();
                try {
                    info.set(ADDRESS, Offsets.ibv_mw_bind_info.mr, region);
                    Shim.WorkRequests.rdmaffm_wr_bind_mw.invokeExact(q, wrId, flags, window, newRkey, info);
                } finally {
                    mr.life.exit();
                }
            } finally {
                mw.life.exit();
            }
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        binds.add(mw, newRkey);
        return this;
    }

    /** {@code ibv_wr_set_sge}: the data of the operation just built. */
    public ExtendedSend setSge(int lkey, long address, int length) {
        setter();
        checkUdLength(Integer.toUnsignedLong(length));
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_set_sge.invokeExact(q, lkey, address, length);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
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
        setter();
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
        MemorySegment q = enter();
        try {
            Shim.WorkRequests.rdmaffm_wr_set_inline_data.invokeExact(q, data, length);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }

    /** {@code ibv_wr_set_ud_addr}. */
    public ExtendedSend setUdAddress(AddressHandle ah, int remoteQpn, int remoteQkey) {
        setter();
        MemorySegment q = enter();
        try {
            MemorySegment address = ah.life.enter();
            try {
                Shim.WorkRequests.rdmaffm_wr_set_ud_addr.invokeExact(q, address, remoteQpn, remoteQkey);
            } finally {
                ah.life.exit();
            }
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
        return this;
    }
}
