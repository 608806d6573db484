package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static io.rdmaffm.verbs.raw.Downcalls.critical;
import static io.rdmaffm.verbs.raw.Downcalls.errnoCapturing;
import static io.rdmaffm.verbs.raw.Downcalls.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles into the native shim: rdma-core's static inline verbs as real symbols, and the layout
 * table. The data-path handles (post, poll, notify) return errno values or counts directly, as the
 * verbs do, so they need no errno capture and stay allocation-free. Each handle is built on its first use (see
 * {@link Downcalls}), but for the shim's version, ABI and layout table: every open checks the ABI.
 */
public final class Shim {
    private Shim() {
    }

    private static final SymbolLookup L = NativeLibraries.shim();
    private static final java.lang.foreign.AddressLayout P = ADDRESS;
    private static final java.lang.foreign.ValueLayout.OfInt I = JAVA_INT;
    private static final java.lang.foreign.ValueLayout.OfLong J = JAVA_LONG;
    private static final java.lang.foreign.ValueLayout.OfByte B = JAVA_BYTE;

    public static final MethodHandle rdmaffm_shim_version = plain(L, "rdmaffm_shim_version", FunctionDescriptor.of(P));
    public static final MethodHandle rdmaffm_shim_abi = plain(L, "rdmaffm_shim_abi", FunctionDescriptor.of(I));
    /** const struct rdmaffm_layout_entry *rdmaffm_layout_table(int32_t *count). */
    public static final MethodHandle rdmaffm_layout_table = plain(L, "rdmaffm_layout_table", FunctionDescriptor.of(P, P));

    // data path
    public static MethodHandle rdmaffm_post_send() {
        return rdmaffm_post_send.H;
    }

    private static final class rdmaffm_post_send {
        static final MethodHandle H = plain(L, "rdmaffm_post_send", FunctionDescriptor.of(I, P, P, P));
    }

    public static MethodHandle rdmaffm_post_recv() {
        return rdmaffm_post_recv.H;
    }

    private static final class rdmaffm_post_recv {
        static final MethodHandle H = plain(L, "rdmaffm_post_recv", FunctionDescriptor.of(I, P, P, P));
    }

    public static MethodHandle rdmaffm_post_srq_recv() {
        return rdmaffm_post_srq_recv.H;
    }

    private static final class rdmaffm_post_srq_recv {
        static final MethodHandle H = plain(L, "rdmaffm_post_srq_recv", FunctionDescriptor.of(I, P, P, P));
    }

    /**
     * Polling is the tightest loop of every data path and never enters the kernel, blocks or calls back, so it
     * is a critical downcall (no thread-state transition). Posts stay ordinary downcalls: rxe rings its
     * doorbell with a system call, and a critical call holds off safepoints for its duration. The reference
     * measurement found no gain from critical handles on rxe under emulation, so {@code
     * -Drdmaffm.criticalPoll=false} turns it off for comparison.
     */
    public static MethodHandle rdmaffm_poll_cq() {
        return rdmaffm_poll_cq.H;
    }

    private static final class rdmaffm_poll_cq {
        static final MethodHandle H = poll("rdmaffm_poll_cq");
    }

    public static MethodHandle rdmaffm_req_notify_cq() {
        return rdmaffm_req_notify_cq.H;
    }

    private static final class rdmaffm_req_notify_cq {
        static final MethodHandle H = plain(L, "rdmaffm_req_notify_cq", FunctionDescriptor.of(I, P, I));
    }

    public static MethodHandle rdmaffm_cq_ex_poll() {
        return rdmaffm_cq_ex_poll.H;
    }

    private static final class rdmaffm_cq_ex_poll {
        static final MethodHandle H = poll("rdmaffm_cq_ex_poll");
    }

    // control verbs that are inline in verbs.h
    public static MethodHandle rdmaffm_query_port() {
        return rdmaffm_query_port.H;
    }

    private static final class rdmaffm_query_port {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_query_port", FunctionDescriptor.of(I, P, B, P));
    }

    public static MethodHandle rdmaffm_query_device_ex() {
        return rdmaffm_query_device_ex.H;
    }

    private static final class rdmaffm_query_device_ex {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_query_device_ex", FunctionDescriptor.of(I, P, P));
    }

    public static MethodHandle rdmaffm_create_cq_ex() {
        return rdmaffm_create_cq_ex.H;
    }

    private static final class rdmaffm_create_cq_ex {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_create_cq_ex", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle rdmaffm_cq_ex_to_cq() {
        return rdmaffm_cq_ex_to_cq.H;
    }

    private static final class rdmaffm_cq_ex_to_cq {
        static final MethodHandle H = plain(L, "rdmaffm_cq_ex_to_cq", FunctionDescriptor.of(P, P));
    }

    public static MethodHandle rdmaffm_create_qp_ex() {
        return rdmaffm_create_qp_ex.H;
    }

    private static final class rdmaffm_create_qp_ex {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_create_qp_ex", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle rdmaffm_create_srq_ex() {
        return rdmaffm_create_srq_ex.H;
    }

    private static final class rdmaffm_create_srq_ex {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_create_srq_ex", FunctionDescriptor.of(P, P, P));
    }

    public static MethodHandle rdmaffm_alloc_mw() {
        return rdmaffm_alloc_mw.H;
    }

    private static final class rdmaffm_alloc_mw {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_alloc_mw", FunctionDescriptor.of(P, P, I));
    }

    public static MethodHandle rdmaffm_dealloc_mw() {
        return rdmaffm_dealloc_mw.H;
    }

    private static final class rdmaffm_dealloc_mw {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_dealloc_mw", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle rdmaffm_bind_mw() {
        return rdmaffm_bind_mw.H;
    }

    private static final class rdmaffm_bind_mw {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_bind_mw", FunctionDescriptor.of(I, P, P, P));
    }

    public static MethodHandle rdmaffm_inc_rkey() {
        return rdmaffm_inc_rkey.H;
    }

    private static final class rdmaffm_inc_rkey {
        static final MethodHandle H = plain(L, "rdmaffm_inc_rkey", FunctionDescriptor.of(I, I));
    }

    public static MethodHandle rdmaffm_modify_cq() {
        return rdmaffm_modify_cq.H;
    }

    private static final class rdmaffm_modify_cq {
        static final MethodHandle H = errnoCapturing(L, "rdmaffm_modify_cq", FunctionDescriptor.of(I, P, P));
    }

    // extended send API: builders take (qpx, wr_id, wr_flags, ...)
    public static MethodHandle rdmaffm_wr_start() {
        return rdmaffm_wr_start.H;
    }

    private static final class rdmaffm_wr_start {
        static final MethodHandle H = plain(L, "rdmaffm_wr_start", FunctionDescriptor.ofVoid(P));
    }

    public static MethodHandle rdmaffm_wr_complete() {
        return rdmaffm_wr_complete.H;
    }

    private static final class rdmaffm_wr_complete {
        static final MethodHandle H = plain(L, "rdmaffm_wr_complete", FunctionDescriptor.of(I, P));
    }

    public static MethodHandle rdmaffm_wr_abort() {
        return rdmaffm_wr_abort.H;
    }

    private static final class rdmaffm_wr_abort {
        static final MethodHandle H = plain(L, "rdmaffm_wr_abort", FunctionDescriptor.ofVoid(P));
    }

    public static MethodHandle rdmaffm_wr_send() {
        return rdmaffm_wr_send.H;
    }

    private static final class rdmaffm_wr_send {
        static final MethodHandle H = plain(L, "rdmaffm_wr_send", FunctionDescriptor.ofVoid(P, J, I));
    }

    public static MethodHandle rdmaffm_wr_send_imm() {
        return rdmaffm_wr_send_imm.H;
    }

    private static final class rdmaffm_wr_send_imm {
        static final MethodHandle H = plain(L, "rdmaffm_wr_send_imm", FunctionDescriptor.ofVoid(P, J, I, I));
    }

    public static MethodHandle rdmaffm_wr_send_inv() {
        return rdmaffm_wr_send_inv.H;
    }

    private static final class rdmaffm_wr_send_inv {
        static final MethodHandle H = plain(L, "rdmaffm_wr_send_inv", FunctionDescriptor.ofVoid(P, J, I, I));
    }

    public static MethodHandle rdmaffm_wr_rdma_write() {
        return rdmaffm_wr_rdma_write.H;
    }

    private static final class rdmaffm_wr_rdma_write {
        static final MethodHandle H = plain(L, "rdmaffm_wr_rdma_write", FunctionDescriptor.ofVoid(P, J, I, I, J));
    }

    public static MethodHandle rdmaffm_wr_rdma_write_imm() {
        return rdmaffm_wr_rdma_write_imm.H;
    }

    private static final class rdmaffm_wr_rdma_write_imm {
        static final MethodHandle H = plain(L, "rdmaffm_wr_rdma_write_imm", FunctionDescriptor.ofVoid(P, J, I, I, J, I));
    }

    public static MethodHandle rdmaffm_wr_rdma_read() {
        return rdmaffm_wr_rdma_read.H;
    }

    private static final class rdmaffm_wr_rdma_read {
        static final MethodHandle H = plain(L, "rdmaffm_wr_rdma_read", FunctionDescriptor.ofVoid(P, J, I, I, J));
    }

    public static MethodHandle rdmaffm_wr_atomic_cmp_swp() {
        return rdmaffm_wr_atomic_cmp_swp.H;
    }

    private static final class rdmaffm_wr_atomic_cmp_swp {
        static final MethodHandle H = plain(L, "rdmaffm_wr_atomic_cmp_swp", FunctionDescriptor.ofVoid(P, J, I, I, J, J, J));
    }

    public static MethodHandle rdmaffm_wr_atomic_fetch_add() {
        return rdmaffm_wr_atomic_fetch_add.H;
    }

    private static final class rdmaffm_wr_atomic_fetch_add {
        static final MethodHandle H = plain(L, "rdmaffm_wr_atomic_fetch_add", FunctionDescriptor.ofVoid(P, J, I, I, J, J));
    }

    public static MethodHandle rdmaffm_wr_local_inv() {
        return rdmaffm_wr_local_inv.H;
    }

    private static final class rdmaffm_wr_local_inv {
        static final MethodHandle H = plain(L, "rdmaffm_wr_local_inv", FunctionDescriptor.ofVoid(P, J, I, I));
    }

    public static MethodHandle rdmaffm_wr_bind_mw() {
        return rdmaffm_wr_bind_mw.H;
    }

    private static final class rdmaffm_wr_bind_mw {
        static final MethodHandle H = plain(L, "rdmaffm_wr_bind_mw", FunctionDescriptor.ofVoid(P, J, I, P, I, P));
    }

    public static MethodHandle rdmaffm_wr_set_sge() {
        return rdmaffm_wr_set_sge.H;
    }

    private static final class rdmaffm_wr_set_sge {
        static final MethodHandle H = plain(L, "rdmaffm_wr_set_sge", FunctionDescriptor.ofVoid(P, I, J, I));
    }

    public static MethodHandle rdmaffm_wr_set_sge_list() {
        return rdmaffm_wr_set_sge_list.H;
    }

    private static final class rdmaffm_wr_set_sge_list {
        static final MethodHandle H = plain(L, "rdmaffm_wr_set_sge_list", FunctionDescriptor.ofVoid(P, J, P));
    }

    public static MethodHandle rdmaffm_wr_set_inline_data() {
        return rdmaffm_wr_set_inline_data.H;
    }

    private static final class rdmaffm_wr_set_inline_data {
        static final MethodHandle H = plain(L, "rdmaffm_wr_set_inline_data", FunctionDescriptor.ofVoid(P, P, J));
    }

    public static MethodHandle rdmaffm_wr_set_ud_addr() {
        return rdmaffm_wr_set_ud_addr.H;
    }

    private static final class rdmaffm_wr_set_ud_addr {
        static final MethodHandle H = plain(L, "rdmaffm_wr_set_ud_addr", FunctionDescriptor.ofVoid(P, P, I, I));
    }

    private static MethodHandle poll(String name) {
        FunctionDescriptor fd = FunctionDescriptor.of(I, P, I, P);
        return Boolean.parseBoolean(System.getProperty("rdmaffm.criticalPoll", "true")) ? critical(L, name, fd)
                : plain(L, name, fd);
    }
}
