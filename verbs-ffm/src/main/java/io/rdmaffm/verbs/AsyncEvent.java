package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
/**
 * One async event of a device ({@code struct ibv_async_event}), already acknowledged.
 *
 * <p>Which element an event names follows {@code enum ibv_event_type}: the QP events (QP_FATAL, QP_REQ_ERR,
 * QP_ACCESS_ERR, COMM_EST, SQ_DRAINED, PATH_MIG, PATH_MIG_ERR, QP_LAST_WQE_REACHED) name a queue pair, CQ_ERR a
 * completion queue, SRQ_ERR and SRQ_LIMIT_REACHED a shared receive queue, WQ_FATAL a work queue, the port events a
 * port number; DEVICE_FATAL names nothing. {@link #concerns(QueuePair)} and its overloads say whether an event is
 * about a given object.
 *
 * <p>What a device raises is up to its driver. Soft-RoCE on Linux 6.1 raises SQ_DRAINED (the only QP event it
 * has), CQ_ERR, SRQ_LIMIT_REACHED, PORT_ACTIVE and PORT_ERR, and never QP_FATAL, QP_REQ_ERR, QP_ACCESS_ERR or
 * DEVICE_FATAL: its QPs go to the error state without telling the async event queue, and it cannot be detached
 * from open contexts (see {@link AsyncEvents}).
 *
 * @param type        the IBV_EVENT_* name without prefix, e.g. PORT_ACTIVE, QP_FATAL, SRQ_LIMIT_REACHED
 * @param code        the IBV_EVENT_* value
 * @param description ibv_event_type_str's text
 * @param portNumber  for port events, else 0
 * @param elementAddress the native address of the CQ/QP/SRQ concerned, for element events, else 0
 */
public record AsyncEvent(String type, int code, String description, int portNumber, long elementAddress) {

    /** True when this is a QP event ({@code element.qp}) about {@code qp}. */
    public boolean concerns(QueuePair qp) {
        return isQueuePairEvent() && names(qp);
    }

    /** True when this is a CQ event ({@code element.cq}, CQ_ERR) about {@code cq}. */
    public boolean concerns(CompletionQueue cq) {
        return code == Constants.IBV_EVENT_CQ_ERR && names(cq);
    }

    /** True when this is an SRQ event ({@code element.srq}) about {@code srq}. */
    public boolean concerns(SharedReceiveQueue srq) {
        return (code == Constants.IBV_EVENT_SRQ_ERR || code == Constants.IBV_EVENT_SRQ_LIMIT_REACHED) && names(srq);
    }

    /** True for the events whose element is a queue pair. */
    public boolean isQueuePairEvent() {
        return (code >= Constants.IBV_EVENT_QP_FATAL && code <= Constants.IBV_EVENT_PATH_MIG_ERR)
                || code == Constants.IBV_EVENT_QP_LAST_WQE_REACHED;
    }

    private boolean names(NativeObject object) {
        // A closed object's handle is NULL, so no event matches it: the kernel drops the pending events of an
        // object when it is destroyed (ib_uverbs_release_uevent), and its address may belong to a new one by now.
        return elementAddress != 0 && object != null && elementAddress == object.rawHandle().address();
    }
}
