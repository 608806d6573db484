package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;

import static io.rdmaffm.verbs.raw.LazyHandle.errnoCapturing;
import static io.rdmaffm.verbs.raw.LazyHandle.optional;
import static io.rdmaffm.verbs.raw.LazyHandle.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Downcall handles for the verbs libibverbs.so.1 exports (the default symbol versions). Control verbs
 * capture errno: their first argument is {@link Downcalls#errnoState()}. Names are the C names; each handle
 * is built on its first use ({@link LazyHandle}).
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
    private static final java.lang.foreign.ValueLayout.OfShort S = JAVA_SHORT;

    // devices
    public static final LazyHandle ibv_get_device_list = errnoCapturing(L, "ibv_get_device_list", FunctionDescriptor.of(P, P));
    public static final LazyHandle ibv_free_device_list = plain(L, "ibv_free_device_list", FunctionDescriptor.ofVoid(P));
    public static final LazyHandle ibv_get_device_guid = plain(L, "ibv_get_device_guid", FunctionDescriptor.of(J, P));
    public static final LazyHandle ibv_open_device = errnoCapturing(L, "ibv_open_device", FunctionDescriptor.of(P, P));
    public static final LazyHandle ibv_close_device = errnoCapturing(L, "ibv_close_device", FunctionDescriptor.of(I, P));
    public static final LazyHandle ibv_query_device = errnoCapturing(L, "ibv_query_device", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle ibv_query_gid = errnoCapturing(L, "ibv_query_gid", FunctionDescriptor.of(I, P, B, I, P));
    /** int _ibv_query_gid_ex(ctx, uint32_t port_num, uint32_t gid_index, entry*, uint32_t flags, size_t entry_size). */
    public static final LazyHandle _ibv_query_gid_ex = optional(L, "_ibv_query_gid_ex", FunctionDescriptor.of(I, P, I, I, P, I, J), true);
    /** ssize_t _ibv_query_gid_table(ctx, entries*, size_t max_entries, uint32_t flags, size_t entry_size). */
    public static final LazyHandle _ibv_query_gid_table = optional(L, "_ibv_query_gid_table", FunctionDescriptor.of(J, P, P, J, I, J), true);
    public static final LazyHandle ibv_query_pkey = errnoCapturing(L, "ibv_query_pkey", FunctionDescriptor.of(I, P, B, I, P));
    public static final LazyHandle ibv_get_async_event = errnoCapturing(L, "ibv_get_async_event", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle ibv_ack_async_event = plain(L, "ibv_ack_async_event", FunctionDescriptor.ofVoid(P));
    public static final LazyHandle ibv_fork_init = errnoCapturing(L, "ibv_fork_init", FunctionDescriptor.of(I));

    // protection domain, memory
    public static final LazyHandle ibv_alloc_pd = errnoCapturing(L, "ibv_alloc_pd", FunctionDescriptor.of(P, P));
    public static final LazyHandle ibv_dealloc_pd = errnoCapturing(L, "ibv_dealloc_pd", FunctionDescriptor.of(I, P));
    /** struct ibv_mr *ibv_reg_mr_iova2(pd, void *addr, size_t length, uint64_t iova, unsigned int access). */
    public static final LazyHandle ibv_reg_mr_iova2 = errnoCapturing(L, "ibv_reg_mr_iova2", FunctionDescriptor.of(P, P, P, J, J, I));
    public static final LazyHandle ibv_dereg_mr = errnoCapturing(L, "ibv_dereg_mr", FunctionDescriptor.of(I, P));
    /** int ibv_rereg_mr(mr, int flags, pd, void *addr, size_t length, int access). */
    public static final LazyHandle ibv_rereg_mr = errnoCapturing(L, "ibv_rereg_mr", FunctionDescriptor.of(I, P, I, P, P, J, I));
    /** struct ibv_mr *ibv_reg_dmabuf_mr(pd, uint64_t offset, size_t length, uint64_t iova, int fd, int access). */
    public static final LazyHandle ibv_reg_dmabuf_mr = optional(L, "ibv_reg_dmabuf_mr", FunctionDescriptor.of(P, P, J, J, J, I, I), true);

    // completion
    public static final LazyHandle ibv_create_comp_channel = errnoCapturing(L, "ibv_create_comp_channel", FunctionDescriptor.of(P, P));
    public static final LazyHandle ibv_destroy_comp_channel = errnoCapturing(L, "ibv_destroy_comp_channel", FunctionDescriptor.of(I, P));
    /** struct ibv_cq *ibv_create_cq(ctx, int cqe, void *cq_context, channel*, int comp_vector). */
    public static final LazyHandle ibv_create_cq = errnoCapturing(L, "ibv_create_cq", FunctionDescriptor.of(P, P, I, P, P, I));
    public static final LazyHandle ibv_resize_cq = errnoCapturing(L, "ibv_resize_cq", FunctionDescriptor.of(I, P, I));
    public static final LazyHandle ibv_destroy_cq = errnoCapturing(L, "ibv_destroy_cq", FunctionDescriptor.of(I, P));
    /** int ibv_get_cq_event(channel*, struct ibv_cq **cq, void **cq_context). */
    public static final LazyHandle ibv_get_cq_event = errnoCapturing(L, "ibv_get_cq_event", FunctionDescriptor.of(I, P, P, P));
    public static final LazyHandle ibv_ack_cq_events = plain(L, "ibv_ack_cq_events", FunctionDescriptor.ofVoid(P, I));

    // shared receive queues
    public static final LazyHandle ibv_create_srq = errnoCapturing(L, "ibv_create_srq", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle ibv_modify_srq = errnoCapturing(L, "ibv_modify_srq", FunctionDescriptor.of(I, P, P, I));
    public static final LazyHandle ibv_query_srq = errnoCapturing(L, "ibv_query_srq", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle ibv_destroy_srq = errnoCapturing(L, "ibv_destroy_srq", FunctionDescriptor.of(I, P));

    // queue pairs
    public static final LazyHandle ibv_create_qp = errnoCapturing(L, "ibv_create_qp", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle ibv_modify_qp = errnoCapturing(L, "ibv_modify_qp", FunctionDescriptor.of(I, P, P, I));
    public static final LazyHandle ibv_query_qp = errnoCapturing(L, "ibv_query_qp", FunctionDescriptor.of(I, P, P, I, P));
    public static final LazyHandle ibv_destroy_qp = errnoCapturing(L, "ibv_destroy_qp", FunctionDescriptor.of(I, P));
    public static final LazyHandle ibv_qp_to_qp_ex = plain(L, "ibv_qp_to_qp_ex", FunctionDescriptor.of(P, P));
    /** int ibv_attach_mcast(qp*, const union ibv_gid*, uint16_t lid). */
    public static final LazyHandle ibv_attach_mcast = errnoCapturing(L, "ibv_attach_mcast", FunctionDescriptor.of(I, P, P, S));
    /** int ibv_detach_mcast(qp*, const union ibv_gid*, uint16_t lid). */
    public static final LazyHandle ibv_detach_mcast = errnoCapturing(L, "ibv_detach_mcast", FunctionDescriptor.of(I, P, P, S));

    // address handles
    public static final LazyHandle ibv_create_ah = errnoCapturing(L, "ibv_create_ah", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle ibv_destroy_ah = errnoCapturing(L, "ibv_destroy_ah", FunctionDescriptor.of(I, P));
    /** int ibv_init_ah_from_wc(ctx, uint8_t port_num, wc*, grh*, ah_attr*). */
    public static final LazyHandle ibv_init_ah_from_wc = errnoCapturing(L, "ibv_init_ah_from_wc", FunctionDescriptor.of(I, P, B, P, P, P));
    /** struct ibv_ah *ibv_create_ah_from_wc(pd, wc*, grh*, uint8_t port_num). */
    public static final LazyHandle ibv_create_ah_from_wc = errnoCapturing(L, "ibv_create_ah_from_wc", FunctionDescriptor.of(P, P, P, P, B));

    // strings
    public static final LazyHandle ibv_wc_status_str = plain(L, "ibv_wc_status_str", FunctionDescriptor.of(P, I));
    public static final LazyHandle ibv_event_type_str = plain(L, "ibv_event_type_str", FunctionDescriptor.of(P, I));
}
