package io.rdmaffm.verbs;

/**
 * What the device granted when the queue pair was created: the {@code cap} members of
 * {@code struct ibv_qp_init_attr} as {@code ibv_create_qp} (or {@code rdma_create_qp}) wrote them back, each at
 * least what {@link QueuePairInit} asked for. The send queue never holds more than {@code maxSendWr} work requests
 * that have not completed (signaled or not); more is refused by {@code ibv_post_send} with ENOMEM. A later
 * {@code ibv_query_qp} ({@link QueuePair#query()}) may report larger depths: Soft-RoCE answers with its queue's size
 * (a power of two, less one), while the create verb returns what was asked for.
 *
 * @param maxSendWr     send work requests outstanding at once
 * @param maxRecvWr     receive work requests posted at once (0 with a shared receive queue)
 * @param maxSendSge    scatter/gather entries per send work request
 * @param maxRecvSge    scatter/gather entries per receive work request (0 with a shared receive queue)
 * @param maxInlineData bytes a send may carry inline ({@link SendFlags#INLINE})
 */
public record QueuePairCapabilities(int maxSendWr, int maxRecvWr, int maxSendSge, int maxRecvSge, int maxInlineData) {
}
