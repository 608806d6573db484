package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static io.rdmaffm.verbs.raw.Downcalls.errnoCapturing;
import static io.rdmaffm.verbs.raw.Downcalls.optional;
import static io.rdmaffm.verbs.raw.Downcalls.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles for the verbs libibverbs.so.1 exports (the default symbol versions). Control verbs
 * capture errno: their first argument is {@link Downcalls#errnoState()}. Names are the C names; each handle
 * is built on its first use (see {@link Downcalls}).
 */
@SuppressWarnings("checkstyle:ConstantName")
public final class Ibv {
    private Ibv() {
    }

    private static final SymbolLookup L = NativeLibraries.ibverbs();
    private static final java.lang.foreign.AddressLayout P = ADDRESS;
    private static final java.lang.foreign.ValueLayout.OfInt I = JAVA_INT;
    private static final java.lang.foreign.ValueLayout.OfLong J = JAVA_LONG;
    private static final java.lang.foreign.ValueLayout.OfByte B = JAVA_BYTE;

    // devices
    public static MethodHandle ibv_get_device_list() {
        return ibv_get_device_list.H;
    }

    private static final class ibv_get_device_list {
        static final MethodHandle H = errnoCapturing(L, "ibv_get_device_list", FunctionDescriptor.of(P, P));
    }

    public static MethodHandle ibv_free_device_list() {
        return ibv_free_device_list.H;
    }

    private static final class ibv_free_device_list {
        static final MethodHandle H = plain(L, "ibv_free_device_list", FunctionDescriptor.ofVoid(P));
    }

    public static MethodHandle ibv_get_device_guid() {
        return ibv_get_device_guid.H;
    }

    private static final class ibv_get_device_guid {
        static final MethodHandle H = plain(L, "ibv_get_device_guid", FunctionDescriptor.of(J, P));
    }

    public static MethodHandle ibv_open_device() {
        return ibv_open_device.H;
    }

    private static final class ibv_open_device {
        static final MethodHandle H = errnoCapturing(L, "ibv_open_device", FunctionDescriptor.of(P, P));
    }

    public static MethodHandle ibv_close_device() {
        return ibv_close_device.H;
    }

    private static final class ibv_close_device {
        static final MethodHandle H = errnoCapturing(L, "ibv_close_device", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle ibv_query_device() {
        return ibv_query_device.H;
    }

    private static final class ibv_query_device {
        static final MethodHandle H = errnoCapturing(L, "ibv_query_device", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle ibv_query_gid() {
        return ibv_query_gid.H;
    }

    private static final class ibv_query_gid {
        static final MethodHandle H = errnoCapturing(L, "ibv_query_gid", FunctionDescriptor.of(I, P, B, I, P));
    }

    /** int _ibv_query_gid_ex(ctx, uint32_t port_num, uint32_t gid_index, entry*, uint32_t flags, size_t entry_size). */
    public static MethodHandle _ibv_query_gid_ex() {
        return _ibv_query_gid_ex.H;
    }

    private static final class _ibv_query_gid_ex {
        static final MethodHandle H = optional(L, "_ibv_query_gid_ex", FunctionDescriptor.of(I, P, I, I, P, I, J), true);
    }

    /** ssize_t _ibv_query_gid_table(ctx, entries*, size_t max_entries, uint32_t flags, size_t entry_size). */
    public static MethodHandle _ibv_query_gid_table() {
        return _ibv_query_gid_table.H;
    }

    private static final class _ibv_query_gid_table {
        static final MethodHandle H = optional(L, "_ibv_query_gid_table", FunctionDescriptor.of(J, P, P, J, I, J), true);
    }

    public static MethodHandle ibv_query_pkey() {
        return ibv_query_pkey.H;
    }

    private static final class ibv_query_pkey {
        static final MethodHandle H = errnoCapturing(L, "ibv_query_pkey", FunctionDescriptor.of(I, P, B, I, P));
    }

    public static MethodHandle ibv_get_async_event() {
        return ibv_get_async_event.H;
    }

    private static final class ibv_get_async_event {
        static final MethodHandle H = errnoCapturing(L, "ibv_get_async_event", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle ibv_ack_async_event() {
        return ibv_ack_async_event.H;
    }

    private static final class ibv_ack_async_event {
        static final MethodHandle H = plain(L, "ibv_ack_async_event", FunctionDescriptor.ofVoid(P));
    }

    public static MethodHandle ibv_fork_init() {
        return ibv_fork_init.H;
    }

    private static final class ibv_fork_init {
        static final MethodHandle H = errnoCapturing(L, "ibv_fork_init", FunctionDescriptor.of(I));
    }

    // protection domain, memory
    public static MethodHandle ibv_alloc_pd() {
        return ibv_alloc_pd.H;
    }

    private static final class ibv_alloc_pd {
        static final MethodHandle H = errnoCapturing(L, "ibv_alloc_pd", FunctionDescriptor.of(P, P));
    }

    public static MethodHandle ibv_dealloc_pd() {
        return ibv_dealloc_pd.H;
    }

    private static final class ibv_dealloc_pd {
        static final MethodHandle H = errnoCapturing(L, "ibv_dealloc_pd", FunctionDescriptor.of(I, P));
    }

    /** struct ibv_mr *ibv_reg_mr_iova2(pd, void *addr, size_t length, uint64_t iova, unsigned int access). */
    public static MethodHandle ibv_reg_mr_iova2() {
        return ibv_reg_mr_iova2.H;
    }

    private static final class ibv_reg_mr_iova2 {
        static final MethodHandle H = errnoCapturing(L, "ibv_reg_mr_iova2", FunctionDescriptor.of(P, P, P, J, J, I));
    }

    public static MethodHandle ibv_dereg_mr() {
        return ibv_dereg_mr.H;
    }

    private static final class ibv_dereg_mr {
        static final MethodHandle H = errnoCapturing(L, "ibv_dereg_mr", FunctionDescriptor.of(I, P));
    }

    /** int ibv_rereg_mr(mr, int flags, pd, void *addr, size_t length, int access). */
    public static MethodHandle ibv_rereg_mr() {
        return ibv_rereg_mr.H;
    }

    private static final class ibv_rereg_mr {
        static final MethodHandle H = errnoCapturing(L, "ibv_rereg_mr", FunctionDescriptor.of(I, P, I, P, P, J, I));
    }

    /** struct ibv_mr *ibv_reg_dmabuf_mr(pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access). */
    public static MethodHandle ibv_reg_dmabuf_mr() {
        return ibv_reg_dmabuf_mr.H;
    }

    private static final class ibv_reg_dmabuf_mr {
        static final MethodHandle H = optional(L, "ibv_reg_dmabuf_mr", FunctionDescriptor.of(P, P, J, J, J, I, I), true);
    }

    // completion
    public static MethodHandle ibv_create_comp_channel() {
        return ibv_create_comp_channel.H;
    }

    private static final class ibv_create_comp_channel {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_comp_channel", FunctionDescriptor.of(P, P));
    }

    public static MethodHandle ibv_destroy_comp_channel() {
        return ibv_destroy_comp_channel.H;
    }

    private static final class ibv_destroy_comp_channel {
        static final MethodHandle H = errnoCapturing(L, "ibv_destroy_comp_channel", FunctionDescriptor.of(I, P));
    }

    /** struct ibv_cq *ibv_create_cq(ctx, int cqe, void *cq_context, channel*, int comp_vector). */
    public static MethodHandle ibv_create_cq() {
        return ibv_create_cq.H;
    }

    private static final class ibv_create_cq {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_cq", FunctionDescriptor.of(P, P, I, P, P, I));
    }

    public static MethodHandle ibv_resize_cq() {
        return ibv_resize_cq.H;
    }

    private static final class ibv_resize_cq {
        static final MethodHandle H = errnoCapturing(L, "ibv_resize_cq", FunctionDescriptor.of(I, P, I));
    }

    public static MethodHandle ibv_destroy_cq() {
        return ibv_destroy_cq.H;
    }

    private static final class ibv_destroy_cq {
        static final MethodHandle H = errnoCapturing(L, "ibv_destroy_cq", FunctionDescriptor.of(I, P));
    }

    /** int ibv_get_cq_event(channel*, struct ibv_cq **cq, void **cq_context). */
    public static MethodHandle ibv_get_cq_event() {
        return ibv_get_cq_event.H;
    }

    private static final class ibv_get_cq_event {
        static final MethodHandle H = errnoCapturing(L, "ibv_get_cq_event", FunctionDescriptor.of(I, P, P, P));
    }

    public static MethodHandle ibv_ack_cq_events() {
        return ibv_ack_cq_events.H;
    }

    private static final class ibv_ack_cq_events {
        static final MethodHandle H = plain(L, "ibv_ack_cq_events", FunctionDescriptor.ofVoid(P, I));
    }

    // shared receive queues
    public static MethodHandle ibv_create_srq() {
        return ibv_create_srq.H;
    }

    private static final class ibv_create_srq {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_srq", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle ibv_modify_srq() {
        return ibv_modify_srq.H;
    }

    private static final class ibv_modify_srq {
        static final MethodHandle H = errnoCapturing(L, "ibv_modify_srq", FunctionDescriptor.of(I, P, P, I));
    }

    public static MethodHandle ibv_query_srq() {
        return ibv_query_srq.H;
    }

    private static final class ibv_query_srq {
        static final MethodHandle H = errnoCapturing(L, "ibv_query_srq", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle ibv_destroy_srq() {
        return ibv_destroy_srq.H;
    }

    private static final class ibv_destroy_srq {
        static final MethodHandle H = errnoCapturing(L, "ibv_destroy_srq", FunctionDescriptor.of(I, P));
    }

    // queue pairs
    public static MethodHandle ibv_create_qp() {
        return ibv_create_qp.H;
    }

    private static final class ibv_create_qp {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_qp", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle ibv_modify_qp() {
        return ibv_modify_qp.H;
    }

    private static final class ibv_modify_qp {
        static final MethodHandle H = errnoCapturing(L, "ibv_modify_qp", FunctionDescriptor.of(I, P, P, I));
    }

    public static MethodHandle ibv_query_qp() {
        return ibv_query_qp.H;
    }

    private static final class ibv_query_qp {
        static final MethodHandle H = errnoCapturing(L, "ibv_query_qp", FunctionDescriptor.of(I, P, P, I, P));
    }

    public static MethodHandle ibv_destroy_qp() {
        return ibv_destroy_qp.H;
    }

    private static final class ibv_destroy_qp {
        static final MethodHandle H = errnoCapturing(L, "ibv_destroy_qp", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle ibv_qp_to_qp_ex() {
        return ibv_qp_to_qp_ex.H;
    }

    private static final class ibv_qp_to_qp_ex {
        static final MethodHandle H = plain(L, "ibv_qp_to_qp_ex", FunctionDescriptor.of(P, P));
    }

    // address handles
    public static MethodHandle ibv_create_ah() {
        return ibv_create_ah.H;
    }

    private static final class ibv_create_ah {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_ah", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle ibv_destroy_ah() {
        return ibv_destroy_ah.H;
    }

    private static final class ibv_destroy_ah {
        static final MethodHandle H = errnoCapturing(L, "ibv_destroy_ah", FunctionDescriptor.of(I, P));
    }

    /** int ibv_init_ah_from_wc(ctx, uint8_t port_num, wc*, grh*, ah_attr*). */
    public static MethodHandle ibv_init_ah_from_wc() {
        return ibv_init_ah_from_wc.H;
    }

    private static final class ibv_init_ah_from_wc {
        static final MethodHandle H = errnoCapturing(L, "ibv_init_ah_from_wc", FunctionDescriptor.of(I, P, B, P, P, P));
    }

    /** struct ibv_ah *ibv_create_ah_from_wc(pd, wc*, grh*, uint8_t port_num). */
    public static MethodHandle ibv_create_ah_from_wc() {
        return ibv_create_ah_from_wc.H;
    }

    private static final class ibv_create_ah_from_wc {
        static final MethodHandle H = errnoCapturing(L, "ibv_create_ah_from_wc", FunctionDescriptor.of(P, P, P, P, B));
    }

    // strings
    public static MethodHandle ibv_wc_status_str() {
        return ibv_wc_status_str.H;
    }

    private static final class ibv_wc_status_str {
        static final MethodHandle H = plain(L, "ibv_wc_status_str", FunctionDescriptor.of(P, I));
    }

    public static MethodHandle ibv_event_type_str() {
        return ibv_event_type_str.H;
    }

    private static final class ibv_event_type_str {
        static final MethodHandle H = plain(L, "ibv_event_type_str", FunctionDescriptor.of(P, I));
    }
}
