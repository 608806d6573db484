package io.rdmaffm.verbs;

/**
 * What {@code ibv_create_qp} / {@code ibv_create_qp_ex} needs (struct ibv_qp_init_attr[_ex]). A small
 * mutable builder: {@code new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(128).maxInlineData(64)}.
 */
public final class QueuePairInit {
    final QueuePairType type;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    SharedReceiveQueue srq;
    int maxSendWr = 16;
    int maxRecvWr = 16;
    int maxSendSge = 1;
    int maxRecvSge = 1;
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

    public QueuePairInit maxSendWr(int n) {
        maxSendWr = n;
        return this;
    }

    public QueuePairInit maxRecvWr(int n) {
        maxRecvWr = n;
        return this;
    }

    public QueuePairInit maxSendSge(int n) {
        maxSendSge = n;
        return this;
    }

    public QueuePairInit maxRecvSge(int n) {
        maxRecvSge = n;
        return this;
    }

    public QueuePairInit maxInlineData(int bytes) {
        maxInlineData = bytes;
        return this;
    }

    /** sq_sig_all: every send WR generates a completion. */
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
}
