package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;

import static io.rdmaffm.verbs.raw.LazyHandle.errnoCapturing;
import static io.rdmaffm.verbs.raw.LazyHandle.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles for librdmacm.so.1, each built on its first use ({@link LazyHandle}). librdmacm reports
 * failures as -1 with errno, captured per call.
 */
public final class Cm {
    private Cm() {
    }

    private static final SymbolLookup L = NativeLibraries.rdmacm();
    private static final java.lang.foreign.AddressLayout P = ADDRESS;
    private static final java.lang.foreign.ValueLayout.OfInt I = JAVA_INT;
    private static final java.lang.foreign.ValueLayout.OfLong J = JAVA_LONG;
    private static final java.lang.foreign.ValueLayout.OfByte B = JAVA_BYTE;

    public static final LazyHandle rdma_create_event_channel = errnoCapturing(L, "rdma_create_event_channel", FunctionDescriptor.of(P));
    public static final LazyHandle rdma_destroy_event_channel = plain(L, "rdma_destroy_event_channel", FunctionDescriptor.ofVoid(P));
    /** int rdma_create_id(channel*, struct rdma_cm_id **id, void *context, enum rdma_port_space ps). */
    public static final LazyHandle rdma_create_id = errnoCapturing(L, "rdma_create_id", FunctionDescriptor.of(I, P, P, P, I));
    public static final LazyHandle rdma_destroy_id = errnoCapturing(L, "rdma_destroy_id", FunctionDescriptor.of(I, P));
    public static final LazyHandle rdma_bind_addr = errnoCapturing(L, "rdma_bind_addr", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle rdma_resolve_addr = errnoCapturing(L, "rdma_resolve_addr", FunctionDescriptor.of(I, P, P, P, I));
    public static final LazyHandle rdma_resolve_route = errnoCapturing(L, "rdma_resolve_route", FunctionDescriptor.of(I, P, I));
    public static final LazyHandle rdma_listen = errnoCapturing(L, "rdma_listen", FunctionDescriptor.of(I, P, I));
    public static final LazyHandle rdma_connect = errnoCapturing(L, "rdma_connect", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle rdma_accept = errnoCapturing(L, "rdma_accept", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle rdma_reject = errnoCapturing(L, "rdma_reject", FunctionDescriptor.of(I, P, P, B));
    public static final LazyHandle rdma_disconnect = errnoCapturing(L, "rdma_disconnect", FunctionDescriptor.of(I, P));
    public static final LazyHandle rdma_get_cm_event = errnoCapturing(L, "rdma_get_cm_event", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle rdma_ack_cm_event = errnoCapturing(L, "rdma_ack_cm_event", FunctionDescriptor.of(I, P));
    public static final LazyHandle rdma_create_qp = errnoCapturing(L, "rdma_create_qp", FunctionDescriptor.of(I, P, P, P));
    public static final LazyHandle rdma_destroy_qp = plain(L, "rdma_destroy_qp", FunctionDescriptor.ofVoid(P));
    public static final LazyHandle rdma_event_str = plain(L, "rdma_event_str", FunctionDescriptor.of(P, I));
    /** int rdma_set_option(id, int level, int optname, void *optval, size_t optlen). */
    public static final LazyHandle rdma_set_option = errnoCapturing(L, "rdma_set_option", FunctionDescriptor.of(I, P, I, I, P, J));
    /** int rdma_init_qp_attr(id, struct ibv_qp_attr *qp_attr (qp_state in, the rest out), int *qp_attr_mask). */
    public static final LazyHandle rdma_init_qp_attr = errnoCapturing(L, "rdma_init_qp_attr", FunctionDescriptor.of(I, P, P, P));
    /** int rdma_establish(id): the active side's RTU, for an id whose QP the application created itself. */
    public static final LazyHandle rdma_establish = errnoCapturing(L, "rdma_establish", FunctionDescriptor.of(I, P));
}
