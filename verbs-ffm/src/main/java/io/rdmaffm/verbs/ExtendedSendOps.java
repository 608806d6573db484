package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;

/**
 * enum ibv_qp_create_send_ops_flags: the IBV_QP_EX_WITH_* bits for
 * {@link QueuePairInit#extendedSendOps(long)}. Only the operations named here can be built on the QP's
 * {@link ExtendedSend}: providers leave the {@code ibv_wr_*} entry of an operation that was not asked for
 * NULL (Soft-RoCE does), so {@link ExtendedSend} refuses it instead of calling through a null pointer.
 * A device that does not support an operation for the QP type makes {@code ibv_create_qp_ex} fail with
 * EOPNOTSUPP ({@link VerbsUnsupportedException}); on Soft-RoCE RC takes every bit but TSO, UC takes
 * RDMA_WRITE[_WITH_IMM], SEND[_WITH_IMM], BIND_MW and SEND_WITH_INV, UD takes SEND[_WITH_IMM].
 */
public final class ExtendedSendOps {
    private ExtendedSendOps() {
    }

    public static final long RDMA_WRITE = Constants.IBV_QP_EX_WITH_RDMA_WRITE;
    public static final long RDMA_WRITE_WITH_IMM = Constants.IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM;
    public static final long SEND = Constants.IBV_QP_EX_WITH_SEND;
    public static final long SEND_WITH_IMM = Constants.IBV_QP_EX_WITH_SEND_WITH_IMM;
    public static final long RDMA_READ = Constants.IBV_QP_EX_WITH_RDMA_READ;
    public static final long ATOMIC_CMP_AND_SWP = Constants.IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP;
    public static final long ATOMIC_FETCH_AND_ADD = Constants.IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD;
    public static final long LOCAL_INV = Constants.IBV_QP_EX_WITH_LOCAL_INV;
    public static final long BIND_MW = Constants.IBV_QP_EX_WITH_BIND_MW;
    public static final long SEND_WITH_INV = Constants.IBV_QP_EX_WITH_SEND_WITH_INV;
    public static final long TSO = Constants.IBV_QP_EX_WITH_TSO;

    /** Every operation an RC QP can have on Soft-RoCE (all of the above but TSO). */
    public static final long ALL_RC = RDMA_WRITE | RDMA_WRITE_WITH_IMM | SEND | SEND_WITH_IMM | RDMA_READ
            | ATOMIC_CMP_AND_SWP | ATOMIC_FETCH_AND_ADD | LOCAL_INV | BIND_MW | SEND_WITH_INV;

    /** The IBV_QP_EX_WITH_* name of one bit, for messages. */
    public static String name(long bit) {
        if (bit == RDMA_WRITE) {
            return "IBV_QP_EX_WITH_RDMA_WRITE";
        } else if (bit == RDMA_WRITE_WITH_IMM) {
            return "IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM";
        } else if (bit == SEND) {
            return "IBV_QP_EX_WITH_SEND";
        } else if (bit == SEND_WITH_IMM) {
            return "IBV_QP_EX_WITH_SEND_WITH_IMM";
        } else if (bit == RDMA_READ) {
            return "IBV_QP_EX_WITH_RDMA_READ";
        } else if (bit == ATOMIC_CMP_AND_SWP) {
            return "IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP";
        } else if (bit == ATOMIC_FETCH_AND_ADD) {
            return "IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD";
        } else if (bit == LOCAL_INV) {
            return "IBV_QP_EX_WITH_LOCAL_INV";
        } else if (bit == BIND_MW) {
            return "IBV_QP_EX_WITH_BIND_MW";
        } else if (bit == SEND_WITH_INV) {
            return "IBV_QP_EX_WITH_SEND_WITH_INV";
        } else if (bit == TSO) {
            return "IBV_QP_EX_WITH_TSO";
        }
        return "0x" + Long.toHexString(bit);
    }
}
