package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static io.rdmaffm.verbs.raw.Downcalls.critical;
import static io.rdmaffm.verbs.raw.Downcalls.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Downcall handles into the native shim: rdma-core's static inline verbs as real symbols, and the layout
 * table. The data-path handles (post, poll, notify) return errno values or counts directly, as the
 * verbs do, so they need no errno capture and stay allocation-free, and take their pointers as {@code long}. Control verbs are {@link LazyHandle}s,
 * built on first use; the data path's handles are built with their holder class ({@link DataPath},
 * {@link WorkRequests}); the shim's version, ABI and layout table with this class (every open checks the ABI).
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

    // control verbs that are inline in verbs.h
    public static final LazyHandle rdmaffm_query_port = LazyHandle.errnoCapturing(L, "rdmaffm_query_port", FunctionDescriptor.of(I, P, B, P));
    public static final LazyHandle rdmaffm_query_device_ex = LazyHandle.errnoCapturing(L, "rdmaffm_query_device_ex", FunctionDescriptor.of(I, P, P));
    public static final LazyHandle rdmaffm_create_cq_ex = LazyHandle.errnoCapturing(L, "rdmaffm_create_cq_ex", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle rdmaffm_cq_ex_to_cq = LazyHandle.plain(L, "rdmaffm_cq_ex_to_cq", FunctionDescriptor.of(P, P));
    public static final LazyHandle rdmaffm_create_qp_ex = LazyHandle.errnoCapturing(L, "rdmaffm_create_qp_ex", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle rdmaffm_create_srq_ex = LazyHandle.errnoCapturing(L, "rdmaffm_create_srq_ex", FunctionDescriptor.of(P, P, P));
    public static final LazyHandle rdmaffm_alloc_mw = LazyHandle.errnoCapturing(L, "rdmaffm_alloc_mw", FunctionDescriptor.of(P, P, I));
    public static final LazyHandle rdmaffm_dealloc_mw = LazyHandle.errnoCapturing(L, "rdmaffm_dealloc_mw", FunctionDescriptor.of(I, P));
    public static final LazyHandle rdmaffm_bind_mw = LazyHandle.errnoCapturing(L, "rdmaffm_bind_mw", FunctionDescriptor.of(I, P, P, P));
    public static final LazyHandle rdmaffm_inc_rkey = LazyHandle.plain(L, "rdmaffm_inc_rkey", FunctionDescriptor.of(I, I));
    public static final LazyHandle rdmaffm_modify_cq = LazyHandle.errnoCapturing(L, "rdmaffm_modify_cq", FunctionDescriptor.of(I, P, P));

    /**
     * The data path: post, poll, notify. Static final handles, which the JIT inlines as constants, in a holder
     * class of their own so that they are built when a program first posts or polls, not when it opens a device.
     */
    public static final class DataPath {
        private DataPath() {
        }

        /**
         * Posting a send stays an ordinary downcall by default: rxe (and siw) ring the doorbell with a system call,
         * and a critical call holds off safepoints for as long as it runs. {@code -Drdmaffm.criticalPostSend=true}
         * makes it critical, for comparison.
         */
        public static final MethodHandle rdmaffm_post_send = Shim.post("rdmaffm_post_send", "rdmaffm.criticalPostSend", false);
        /**
         * Posting a receive only writes the receive queue in user memory in rxe and the hardware providers (no
         * doorbell, no system call), and a send_bw server or send_lat side posts one per message, so it is a
         * critical downcall; {@code -Drdmaffm.criticalPostRecv=false} turns it off for comparison.
         */
        public static final MethodHandle rdmaffm_post_recv = Shim.post("rdmaffm_post_recv", "rdmaffm.criticalPostRecv", true);
        public static final MethodHandle rdmaffm_post_srq_recv = Shim.post("rdmaffm_post_srq_recv", "rdmaffm.criticalPostRecv", true);
        /**
         * Polling is the tightest loop of every data path and never enters the kernel, blocks or calls back, so it
         * is a critical downcall (no thread-state transition). The reference measurement found no gain from
         * critical handles on rxe under emulation, so {@code -Drdmaffm.criticalPoll=false} turns it off for
         * comparison.
         */
        public static final MethodHandle rdmaffm_poll_cq = Shim.poll("rdmaffm_poll_cq");
        public static final MethodHandle rdmaffm_req_notify_cq = plain(L, "rdmaffm_req_notify_cq", FunctionDescriptor.of(I, P, I));
        public static final MethodHandle rdmaffm_cq_ex_poll = Shim.poll("rdmaffm_cq_ex_poll");
    }

    /** uint64_t rdmaffm_cycles(void): the CPU's cycle counter; critical (one instruction, never blocks). */
    public static final class Cycles {
        private Cycles() {
        }

        public static final MethodHandle rdmaffm_cycles = critical(L, "rdmaffm_cycles", FunctionDescriptor.of(J));
    }

    /**
     * The extended send API ({@code ibv_wr_*}): builders take (qpx, wr_id, wr_flags, ...). Built with the first
     * extended queue pair's first use.
     */
    public static final class WorkRequests {
        private WorkRequests() {
        }

        public static final MethodHandle rdmaffm_wr_start = plain(L, "rdmaffm_wr_start", FunctionDescriptor.ofVoid(P));
        public static final MethodHandle rdmaffm_wr_complete = plain(L, "rdmaffm_wr_complete", FunctionDescriptor.of(I, P));
        public static final MethodHandle rdmaffm_wr_abort = plain(L, "rdmaffm_wr_abort", FunctionDescriptor.ofVoid(P));
        public static final MethodHandle rdmaffm_wr_send = plain(L, "rdmaffm_wr_send", FunctionDescriptor.ofVoid(P, J, I));
        public static final MethodHandle rdmaffm_wr_send_imm = plain(L, "rdmaffm_wr_send_imm", FunctionDescriptor.ofVoid(P, J, I, I));
        public static final MethodHandle rdmaffm_wr_send_inv = plain(L, "rdmaffm_wr_send_inv", FunctionDescriptor.ofVoid(P, J, I, I));
        public static final MethodHandle rdmaffm_wr_rdma_write = plain(L, "rdmaffm_wr_rdma_write", FunctionDescriptor.ofVoid(P, J, I, I, J));
        public static final MethodHandle rdmaffm_wr_rdma_write_imm = plain(L, "rdmaffm_wr_rdma_write_imm", FunctionDescriptor.ofVoid(P, J, I, I, J, I));
        public static final MethodHandle rdmaffm_wr_rdma_read = plain(L, "rdmaffm_wr_rdma_read", FunctionDescriptor.ofVoid(P, J, I, I, J));
        public static final MethodHandle rdmaffm_wr_atomic_cmp_swp = plain(L, "rdmaffm_wr_atomic_cmp_swp", FunctionDescriptor.ofVoid(P, J, I, I, J, J, J));
        public static final MethodHandle rdmaffm_wr_atomic_fetch_add = plain(L, "rdmaffm_wr_atomic_fetch_add", FunctionDescriptor.ofVoid(P, J, I, I, J, J));
        public static final MethodHandle rdmaffm_wr_local_inv = plain(L, "rdmaffm_wr_local_inv", FunctionDescriptor.ofVoid(P, J, I, I));
        public static final MethodHandle rdmaffm_wr_bind_mw = plain(L, "rdmaffm_wr_bind_mw", FunctionDescriptor.ofVoid(P, J, I, P, I, P));
        public static final MethodHandle rdmaffm_wr_set_sge = plain(L, "rdmaffm_wr_set_sge", FunctionDescriptor.ofVoid(P, I, J, I));
        public static final MethodHandle rdmaffm_wr_set_sge_list = plain(L, "rdmaffm_wr_set_sge_list", FunctionDescriptor.ofVoid(P, J, P));
        public static final MethodHandle rdmaffm_wr_set_inline_data = plain(L, "rdmaffm_wr_set_inline_data", FunctionDescriptor.ofVoid(P, P, J));
        public static final MethodHandle rdmaffm_wr_set_ud_addr = plain(L, "rdmaffm_wr_set_ud_addr", FunctionDescriptor.ofVoid(P, P, I, I));
    }

    // Post and poll take their pointers as long (the same register as a pointer on every 64-bit ABI the JDK's
    // linker supports): a segment argument makes the linker check it and keep its arena alive per call, which C2
    // did not always inline (PrintInlining in the Soft-RoCE VM: "too big", "virtual call", "low call site
    // frequency"), costing ~200 instructions an operation; the callers' Lifetime guards keep the memory alive.
    private static MethodHandle post(String name, String property, boolean criticalByDefault) {
        return criticalUnlessSwitched(name, FunctionDescriptor.of(I, J, J, J), property, criticalByDefault);
    }

    private static MethodHandle poll(String name) {
        return criticalUnlessSwitched(name, FunctionDescriptor.of(I, J, I, J), "rdmaffm.criticalPoll", true);
    }

    /** A data-path handle, critical or not as the system property {@code property} says (default given). */
    private static MethodHandle criticalUnlessSwitched(String name, FunctionDescriptor fd, String property,
                                                       boolean criticalByDefault) {
        return Boolean.parseBoolean(System.getProperty(property, Boolean.toString(criticalByDefault)))
                ? critical(L, name, fd) : plain(L, name, fd);
    }
}
