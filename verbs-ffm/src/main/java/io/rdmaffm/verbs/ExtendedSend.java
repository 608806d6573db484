package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Shim;

import java.lang.foreign.MemorySegment;

/**
 * The extended send API of a QP ({@code ibv_wr_start}, {@code ibv_wr_*}, {@code ibv_wr_complete}): build
 * a batch of operations between {@link #start()} and {@link #complete()}, each followed by its data
 * ({@link #setSge}, {@link #setInlineData} or {@link #setUdAddress} for UD). Allocation-free; one thread.
 */
public final class ExtendedSend {
    private final QueuePair qp;
    private final MemorySegment qpx;

    ExtendedSend(QueuePair qp, MemorySegment qpx) {
        this.qp = qp;
        this.qpx = qpx;
    }

    private MemorySegment qpx() {
        qp.handle();
        return qpx;
    }

    /** {@code ibv_wr_start}. */
    public void start() {
        try {
            Shim.rdmaffm_wr_start.invokeExact(qpx());
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_wr_complete}: posts the batch; throws if the provider rejected it. */
    public void complete() {
        int rc;
        try {
            rc = (int) Shim.rdmaffm_wr_complete.invokeExact(qpx());
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_wr_complete", rc, "QP 0x" + Integer.toHexString(qp.qpNumber()));
        }
    }

    /** {@code ibv_wr_abort}: drops the batch being built. */
    public void abort() {
        try {
            Shim.rdmaffm_wr_abort.invokeExact(qpx());
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_wr_send}. */
    public ExtendedSend send(long wrId, int flags) {
        try {
            Shim.rdmaffm_wr_send.invokeExact(qpx(), wrId, flags);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_send_imm}; imm in host order. */
    public ExtendedSend sendWithImm(long wrId, int flags, int imm) {
        try {
            Shim.rdmaffm_wr_send_imm.invokeExact(qpx(), wrId, flags, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_send_inv}. */
    public ExtendedSend sendWithInvalidate(long wrId, int flags, int rkey) {
        try {
            Shim.rdmaffm_wr_send_inv.invokeExact(qpx(), wrId, flags, rkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write}. */
    public ExtendedSend rdmaWrite(long wrId, int flags, int rkey, long remoteAddress) {
        try {
            Shim.rdmaffm_wr_rdma_write.invokeExact(qpx(), wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_write_imm}; imm in host order. */
    public ExtendedSend rdmaWriteWithImm(long wrId, int flags, int rkey, long remoteAddress, int imm) {
        try {
            Shim.rdmaffm_wr_rdma_write_imm.invokeExact(qpx(), wrId, flags, rkey, remoteAddress, Integer.reverseBytes(imm));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_rdma_read}. */
    public ExtendedSend rdmaRead(long wrId, int flags, int rkey, long remoteAddress) {
        try {
            Shim.rdmaffm_wr_rdma_read.invokeExact(qpx(), wrId, flags, rkey, remoteAddress);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_atomic_cmp_swp}. */
    public ExtendedSend atomicCompareAndSwap(long wrId, int flags, int rkey, long remoteAddress, long compare, long swap) {
        try {
            Shim.rdmaffm_wr_atomic_cmp_swp.invokeExact(qpx(), wrId, flags, rkey, remoteAddress, compare, swap);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_atomic_fetch_add}. */
    public ExtendedSend atomicFetchAndAdd(long wrId, int flags, int rkey, long remoteAddress, long add) {
        try {
            Shim.rdmaffm_wr_atomic_fetch_add.invokeExact(qpx(), wrId, flags, rkey, remoteAddress, add);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_local_inv}. */
    public ExtendedSend localInvalidate(long wrId, int flags, int rkey) {
        try {
            Shim.rdmaffm_wr_local_inv.invokeExact(qpx(), wrId, flags, rkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_set_sge}: the data of the operation just built. */
    public ExtendedSend setSge(int lkey, long address, int length) {
        try {
            Shim.rdmaffm_wr_set_sge.invokeExact(qpx(), lkey, address, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_set_inline_data}: copy {@code length} bytes at {@code address} into the WQE. */
    public ExtendedSend setInlineData(MemorySegment data, long length) {
        try {
            Shim.rdmaffm_wr_set_inline_data.invokeExact(qpx(), data, length);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }

    /** {@code ibv_wr_set_ud_addr}. */
    public ExtendedSend setUdAddress(AddressHandle ah, int remoteQpn, int remoteQkey) {
        try {
            Shim.rdmaffm_wr_set_ud_addr.invokeExact(qpx(), ah.handle(), remoteQpn, remoteQkey);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return this;
    }
}
