package io.rdmaffm.verbs;

/**
 * What {@code ibv_create_qp} / {@code ibv_create_qp_ex} needs (struct ibv_qp_init_attr[_ex]). A small
 * mutable builder: {@code new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(128).maxInlineData(64)}.
 *
 * <p>Defaults, for what is not set: {@value #DEFAULT_MAX_SEND_WR} send and {@value #DEFAULT_MAX_RECV_WR} receive
 * work requests, {@value #DEFAULT_MAX_SGE} scatter/gather entry each way, no inline data, only signaled sends
 * complete ({@code sq_sig_all} 0), the QP's own receive queue (no SRQ), the classic send API (no extended send
 * operations). Each getter returns what will be asked for; the device may grant more:
 * {@link QueuePair#capabilities()} says what it granted.
 */
public final class QueuePairInit {
    /** max_send_wr when {@link #maxSendWr(int)} is not called. */
    public static final int DEFAULT_MAX_SEND_WR = 16;
    /** max_recv_wr when {@link #maxRecvWr(int)} is not called. */
    public static final int DEFAULT_MAX_RECV_WR = 16;
    /** max_send_sge and max_recv_sge when not set. */
    public static final int DEFAULT_MAX_SGE = 1;

    final QueuePairType type;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    SharedReceiveQueue srq;
    int maxSendWr = DEFAULT_MAX_SEND_WR;
    int maxRecvWr = DEFAULT_MAX_RECV_WR;
    int maxSendSge = DEFAULT_MAX_SGE;
    int maxRecvSge = DEFAULT_MAX_SGE;
    int maxInlineData;
    boolean signalAll;
    long sendOps;

    public QueuePairInit(QueuePairType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        if (type == null || sendCq == null || recvCq == null) {
            throw new IllegalArgumentException("a queue pair needs a type, a send CQ and a receive CQ");
        }
        this.type = type;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** cap.max_send_wr: send work requests outstanding at once (default {@value #DEFAULT_MAX_SEND_WR}). */
    public QueuePairInit maxSendWr(int n) {
        maxSendWr = n;
        return this;
    }

    /** cap.max_recv_wr: receive work requests posted at once (default {@value #DEFAULT_MAX_RECV_WR}). */
    public QueuePairInit maxRecvWr(int n) {
        maxRecvWr = n;
        return this;
    }

    /** cap.max_send_sge (default {@value #DEFAULT_MAX_SGE}). */
    public QueuePairInit maxSendSge(int n) {
        maxSendSge = n;
        return this;
    }

    /** cap.max_recv_sge (default {@value #DEFAULT_MAX_SGE}). */
    public QueuePairInit maxRecvSge(int n) {
        maxRecvSge = n;
        return this;
    }

    /** cap.max_inline_data in bytes (default 0). */
    public QueuePairInit maxInlineData(int bytes) {
        maxInlineData = bytes;
        return this;
    }

    /** sq_sig_all: every send WR generates a completion (default false: only those with SendFlags.SIGNALED). */
    public QueuePairInit signalAll(boolean all) {
        signalAll = all;
        return this;
    }

    /** Receives come from this SRQ instead of the QP's own receive queue. */
    public QueuePairInit sharedReceiveQueue(SharedReceiveQueue s) {
        srq = s;
        return this;
    }

    /**
     * Create with {@code ibv_create_qp_ex} and enable the extended send API ({@link QueuePair#extendedSend()})
     * for these IBV_QP_EX_WITH_* operations.
     */
    public QueuePairInit extendedSendOps(long sendOpsFlags) {
        sendOps = sendOpsFlags;
        return this;
    }

    public QueuePairType type() {
        return type;
    }

    public CompletionQueue sendCompletionQueue() {
        return sendCq;
    }

    public CompletionQueue recvCompletionQueue() {
        return recvCq;
    }

    /** The shared receive queue, or null. */
    public SharedReceiveQueue sharedReceiveQueue() {
        return srq;
    }

    public int maxSendWr() {
        return maxSendWr;
    }

    public int maxRecvWr() {
        return maxRecvWr;
    }

    public int maxSendSge() {
        return maxSendSge;
    }

    public int maxRecvSge() {
        return maxRecvSge;
    }

    public int maxInlineData() {
        return maxInlineData;
    }

    public boolean signalAll() {
        return signalAll;
    }

    /** The IBV_QP_EX_WITH_* bits asked for (0: the classic send API). */
    public long extendedSendOps() {
        return sendOps;
    }

    @Override
    public String toString() {
        return "QueuePairInit[" + type + ", max_send_wr " + maxSendWr + ", max_recv_wr " + maxRecvWr + ", max_send_sge "
                + maxSendSge + ", max_recv_sge " + maxRecvSge + ", max_inline_data " + maxInlineData
                + (signalAll ? ", sq_sig_all" : "") + (srq != null ? ", SRQ" : "")
                + (sendOps != 0 ? ", send_ops_flags 0x" + Long.toHexString(sendOps) : "") + "]";
    }
}
