package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static io.rdmaffm.verbs.raw.Downcalls.errnoCapturing;
import static io.rdmaffm.verbs.raw.Downcalls.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles for librdmacm.so.1, each built on its first use (see {@link Downcalls}). librdmacm reports
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

    public static MethodHandle rdma_create_event_channel() {
        return rdma_create_event_channel.H;
    }

    private static final class rdma_create_event_channel {
        static final MethodHandle H = errnoCapturing(L, "rdma_create_event_channel", FunctionDescriptor.of(P));
    }

    public static MethodHandle rdma_destroy_event_channel() {
        return rdma_destroy_event_channel.H;
    }

    private static final class rdma_destroy_event_channel {
        static final MethodHandle H = plain(L, "rdma_destroy_event_channel", FunctionDescriptor.ofVoid(P));
    }

    /** int rdma_create_id(channel*, struct rdma_cm_id **id, void *context, enum rdma_port_space ps). */
    public static MethodHandle rdma_create_id() {
        return rdma_create_id.H;
    }

    private static final class rdma_create_id {
        static final MethodHandle H = errnoCapturing(L, "rdma_create_id", FunctionDescriptor.of(I, P, P, P, I));
    }

    public static MethodHandle rdma_destroy_id() {
        return rdma_destroy_id.H;
    }

    private static final class rdma_destroy_id {
        static final MethodHandle H = errnoCapturing(L, "rdma_destroy_id", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle rdma_bind_addr() {
        return rdma_bind_addr.H;
    }

    private static final class rdma_bind_addr {
        static final MethodHandle H = errnoCapturing(L, "rdma_bind_addr", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle rdma_resolve_addr() {
        return rdma_resolve_addr.H;
    }

    private static final class rdma_resolve_addr {
        static final MethodHandle H = errnoCapturing(L, "rdma_resolve_addr", FunctionDescriptor.of(I, P, P, P, I));
    }

    public static MethodHandle rdma_resolve_route() {
        return rdma_resolve_route.H;
    }

    private static final class rdma_resolve_route {
        static final MethodHandle H = errnoCapturing(L, "rdma_resolve_route", FunctionDescriptor.of(I, P, I));
    }

    public static MethodHandle rdma_listen() {
        return rdma_listen.H;
    }

    private static final class rdma_listen {
        static final MethodHandle H = errnoCapturing(L, "rdma_listen", FunctionDescriptor.of(I, P, I));
    }

    public static MethodHandle rdma_connect() {
        return rdma_connect.H;
    }

    private static final class rdma_connect {
        static final MethodHandle H = errnoCapturing(L, "rdma_connect", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle rdma_accept() {
        return rdma_accept.H;
    }

    private static final class rdma_accept {
        static final MethodHandle H = errnoCapturing(L, "rdma_accept", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle rdma_reject() {
        return rdma_reject.H;
    }

    private static final class rdma_reject {
        static final MethodHandle H = errnoCapturing(L, "rdma_reject", FunctionDescriptor.of(I, P, P, B));
    }

    public static MethodHandle rdma_disconnect() {
        return rdma_disconnect.H;
    }

    private static final class rdma_disconnect {
        static final MethodHandle H = errnoCapturing(L, "rdma_disconnect", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle rdma_get_cm_event() {
        return rdma_get_cm_event.H;
    }

    private static final class rdma_get_cm_event {
        static final MethodHandle H = errnoCapturing(L, "rdma_get_cm_event", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle rdma_ack_cm_event() {
        return rdma_ack_cm_event.H;
    }

    private static final class rdma_ack_cm_event {
        static final MethodHandle H = errnoCapturing(L, "rdma_ack_cm_event", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle rdma_create_qp() {
        return rdma_create_qp.H;
    }

    private static final class rdma_create_qp {
        static final MethodHandle H = errnoCapturing(L, "rdma_create_qp", FunctionDescriptor.of(I, P, P, P));
    }

    public static MethodHandle rdma_destroy_qp() {
        return rdma_destroy_qp.H;
    }

    private static final class rdma_destroy_qp {
        static final MethodHandle H = plain(L, "rdma_destroy_qp", FunctionDescriptor.ofVoid(P));
    }

    public static MethodHandle rdma_event_str() {
        return rdma_event_str.H;
    }

    private static final class rdma_event_str {
        static final MethodHandle H = plain(L, "rdma_event_str", FunctionDescriptor.of(P, I));
    }

    /** int rdma_set_option(id, int level, int optname, void *optval, size_t optlen). */
    public static MethodHandle rdma_set_option() {
        return rdma_set_option.H;
    }

    private static final class rdma_set_option {
        static final MethodHandle H = errnoCapturing(L, "rdma_set_option", FunctionDescriptor.of(I, P, I, I, P, J));
    }

    /** int rdma_init_qp_attr(id, struct ibv_qp_attr *qp_attr (qp_state in, the rest out), int *qp_attr_mask). */
    public static MethodHandle rdma_init_qp_attr() {
        return rdma_init_qp_attr.H;
    }

    private static final class rdma_init_qp_attr {
        static final MethodHandle H = errnoCapturing(L, "rdma_init_qp_attr", FunctionDescriptor.of(I, P, P, P));
    }

    /** int rdma_establish(id): the active side's RTU, for an id whose QP the application created itself. */
    public static MethodHandle rdma_establish() {
        return rdma_establish.H;
    }

    private static final class rdma_establish {
        static final MethodHandle H = errnoCapturing(L, "rdma_establish", FunctionDescriptor.of(I, P));
    }
}
