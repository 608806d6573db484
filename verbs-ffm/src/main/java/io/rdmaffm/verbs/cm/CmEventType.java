package io.rdmaffm.verbs.cm;

/** enum rdma_cm_event_type, in C order so an event type is found by index. */
public enum CmEventType {
    ADDR_RESOLVED, ADDR_ERROR, ROUTE_RESOLVED, ROUTE_ERROR, CONNECT_REQUEST, CONNECT_RESPONSE, CONNECT_ERROR,
    UNREACHABLE, REJECTED, ESTABLISHED, DISCONNECTED, DEVICE_REMOVAL, MULTICAST_JOIN, MULTICAST_ERROR,
    ADDR_CHANGE, TIMEWAIT_EXIT, UNKNOWN;

    private static final CmEventType[] BY_VALUE = values();

    /** The type for an RDMA_CM_EVENT_* value; {@link #UNKNOWN} for values this version does not know. */
    public static CmEventType of(int value) {
        return value >= 0 && value < BY_VALUE.length - 1 ? BY_VALUE[value] : UNKNOWN;
    }

    /** The RDMA_CM_EVENT_* value (-1 for {@link #UNKNOWN}). */
    public int value() {
        return this == UNKNOWN ? -1 : ordinal();
    }

    /** True for the events that end an operation in failure: address, route, connect errors and rejection. */
    public boolean isError() {
        return switch (this) {
            case ADDR_ERROR, ROUTE_ERROR, CONNECT_ERROR, UNREACHABLE, REJECTED, DEVICE_REMOVAL, MULTICAST_ERROR -> true;
            default -> false;
        };
    }
}
