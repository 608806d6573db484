package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.raw.Constants;

/**
 * An rdma_cm operation ended in an error event (ADDR_ERROR, ROUTE_ERROR, UNREACHABLE, REJECTED,
 * CONNECT_ERROR, ...), in an event other than the one it waited for, or did not finish in time. The event, if
 * any, is attached: a rejection's private data is in {@code event().privateData()}.
 */
public class CmException extends VerbsException {
    private static final long serialVersionUID = 1L;
    /** IB CM reject reasons (enum ib_cm_rej_reason, kernel include/rdma/ib_cm.h; not in user-space headers). */
    private static final int IB_CM_REJ_INVALID_SERVICE_ID = 8;
    private static final int IB_CM_REJ_CONSUMER_DEFINED = 28;

    private final transient CmEvent event;
    private final boolean timeout;

    CmException(String verb, int errno, String context, CmEvent event, boolean timeout) {
        super(verb, errno, context);
        this.event = event;
        this.timeout = timeout;
    }

    static CmException forEvent(String verb, CmEvent e, CmEventType expected, String about) {
        String what = e.type().isError() ? e.type() + " event" : "unexpected " + e.type() + " event (waited for "
                + expected + ")";
        String status = e.type() == CmEventType.REJECTED ? "reject reason " + e.status() + rejectReason(e.status())
                : "status " + e.status();
        return new CmException(verb, e.status() < 0 ? -e.status() : 0, about + ": " + what + ", " + status, e, false);
    }

    static CmException timedOut(String verb, CmEventType expected, java.time.Duration timeout, String about) {
        return new CmException(verb, Constants.ETIMEDOUT, about + ": no " + expected + " event within " + timeout.toMillis()
                + " ms", null, true);
    }

    private static String rejectReason(int reason) {
        return switch (reason) {
            case IB_CM_REJ_INVALID_SERVICE_ID -> " (invalid service ID: nothing listens on that port)";
            case IB_CM_REJ_CONSUMER_DEFINED -> " (rejected by the peer application)";
            default -> "";
        };
    }

    /** The event that ended the operation, or null for a timeout. */
    public CmEvent event() {
        return event;
    }

    /** True when the operation's event did not arrive within the timeout. */
    public boolean isTimeout() {
        return timeout;
    }
}
