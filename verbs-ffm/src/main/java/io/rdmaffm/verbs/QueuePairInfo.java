package io.rdmaffm.verbs;

/** What {@code ibv_query_qp} reports about a queue pair. */
public record QueuePairInfo(QueuePairState state, Mtu pathMtu, int destQpNumber, int rqPsn, int sqPsn, int qkey,
                            int accessFlags, int timeout, int retryCount, int rnrRetry, int maxRdAtomic,
                            int maxDestRdAtomic, int minRnrTimer, int port, int maxSendWr, int maxRecvWr,
                            int maxInlineData, int sgidIndex, boolean global) {
}
