package io.rdmaffm.verbs.raw;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.SequenceLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.UnionLayout;
import java.lang.foreign.ValueLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * Every rdma-core and librdmacm struct the binding touches, declared once, with the C field names.
 * Unnamed padding stands for fields Java never reads (mutexes, function-pointer tables); every named
 * member and every size is checked against the native shim's offsetof table by a host test.
 * x86_64 / aarch64 LP64 only; the one difference between the two is {@link #PTHREAD_MUTEX}.
 */
public final class Structs {
    private Structs() {
    }

    static final ValueLayout.OfByte U8 = JAVA_BYTE;
    static final ValueLayout.OfShort U16 = JAVA_SHORT;
    static final ValueLayout.OfInt U32 = JAVA_INT;
    static final ValueLayout.OfLong U64 = JAVA_LONG;
    static final AddressLayout PTR = ADDRESS;

    private static MemoryLayout pad(long bytes) {
        return MemoryLayout.paddingLayout(bytes);
    }

    private static SequenceLayout bytes(long n) {
        return MemoryLayout.sequenceLayout(n, JAVA_BYTE);
    }

    private static StructLayout struct(String name, MemoryLayout... members) {
        return MemoryLayout.structLayout(members).withName(name);
    }

    private static StructLayout anonStruct(MemoryLayout... members) {
        return MemoryLayout.structLayout(members);
    }

    private static UnionLayout anonUnion(MemoryLayout... members) {
        return MemoryLayout.unionLayout(members);
    }

    /** union ibv_gid: 16 raw bytes, 8-byte aligned because of its subnet_prefix/interface_id view. */
    static final SequenceLayout GID = bytes(16).withByteAlignment(8);
    /**
     * glibc's pthread_mutex_t is 40 bytes on x86_64 but 48 on aarch64 (its generic ABI), which moves every
     * member after the mutex in ibv_context, ibv_cq, ibv_cq_ex, ibv_qp, ibv_qp_ex and ibv_srq; pthread_cond_t
     * is 48 on both. Aarch64LayoutTableTest holds these layouts, computed as on aarch64, to the aarch64 shim.
     */
    static final MemoryLayout PTHREAD_MUTEX = bytes("aarch64".equals(NativeLibraries.arch()) ? 48 : 40)
            .withByteAlignment(8);
    static final MemoryLayout PTHREAD_COND = bytes(48).withByteAlignment(8);

    // ---- devices, contexts, queries ----

    public static final StructLayout ibv_device = struct("ibv_device",
            pad(16), // _ops
            U32.withName("node_type"),
            U32.withName("transport_type"),
            bytes(64).withName("name"),
            bytes(64).withName("dev_name"),
            bytes(256).withName("dev_path"),
            bytes(256).withName("ibdev_path"));

    public static final StructLayout ibv_context = struct("ibv_context",
            PTR.withName("device"),
            MemoryLayout.sequenceLayout(32, PTR).withName("ops"),
            U32.withName("cmd_fd"),
            U32.withName("async_fd"),
            U32.withName("num_comp_vectors"),
            pad(4),
            pad(PTHREAD_MUTEX.byteSize()), // mutex
            PTR.withName("abi_compat"));

    public static final StructLayout ibv_device_attr = struct("ibv_device_attr",
            bytes(64).withName("fw_ver"),
            U64.withName("node_guid"),
            U64.withName("sys_image_guid"),
            U64.withName("max_mr_size"),
            U64.withName("page_size_cap"),
            U32.withName("vendor_id"),
            U32.withName("vendor_part_id"),
            U32.withName("hw_ver"),
            U32.withName("max_qp"),
            U32.withName("max_qp_wr"),
            U32.withName("device_cap_flags"),
            U32.withName("max_sge"),
            U32.withName("max_sge_rd"),
            U32.withName("max_cq"),
            U32.withName("max_cqe"),
            U32.withName("max_mr"),
            U32.withName("max_pd"),
            U32.withName("max_qp_rd_atom"),
            U32.withName("max_ee_rd_atom"),
            U32.withName("max_res_rd_atom"),
            U32.withName("max_qp_init_rd_atom"),
            U32.withName("max_ee_init_rd_atom"),
            U32.withName("atomic_cap"),
            U32.withName("max_ee"),
            U32.withName("max_rdd"),
            U32.withName("max_mw"),
            U32.withName("max_raw_ipv6_qp"),
            U32.withName("max_raw_ethy_qp"),
            U32.withName("max_mcast_grp"),
            U32.withName("max_mcast_qp_attach"),
            U32.withName("max_total_mcast_qp_attach"),
            U32.withName("max_ah"),
            U32.withName("max_fmr"),
            U32.withName("max_map_per_fmr"),
            U32.withName("max_srq"),
            U32.withName("max_srq_wr"),
            U32.withName("max_srq_sge"),
            U16.withName("max_pkeys"),
            U8.withName("local_ca_ack_delay"),
            U8.withName("phys_port_cnt"),
            pad(4));

    public static final StructLayout ibv_device_attr_ex = struct("ibv_device_attr_ex",
            ibv_device_attr.withName("orig_attr"),
            U32.withName("comp_mask"),
            pad(4),
            anonStruct(
                    U64.withName("general_caps"),
                    anonStruct(
                            U32.withName("rc_odp_caps"),
                            U32.withName("uc_odp_caps"),
                            U32.withName("ud_odp_caps")).withName("per_transport_caps"),
                    pad(4)).withName("odp_caps"),
            U64.withName("completion_timestamp_mask"),
            U64.withName("hca_core_clock"),
            U64.withName("device_cap_flags_ex"),
            bytes(8).withName("tso_caps"),
            bytes(32).withByteAlignment(8).withName("rss_caps"),
            U32.withName("max_wq_type_rq"),
            bytes(12).withName("packet_pacing_caps"),
            U32.withName("raw_packet_caps"),
            bytes(20).withName("tm_caps"),
            anonStruct(
                    U16.withName("max_cq_count"),
                    U16.withName("max_cq_period")).withName("cq_mod_caps"),
            pad(4),
            U64.withName("max_dm_size"),
            bytes(6).withName("pci_atomic_caps"),
            pad(2),
            U32.withName("xrc_odp_caps"),
            U32.withName("phys_port_cnt_ex"));

    public static final StructLayout ibv_port_attr = struct("ibv_port_attr",
            U32.withName("state"),
            U32.withName("max_mtu"),
            U32.withName("active_mtu"),
            U32.withName("gid_tbl_len"),
            U32.withName("port_cap_flags"),
            U32.withName("max_msg_sz"),
            U32.withName("bad_pkey_cntr"),
            U32.withName("qkey_viol_cntr"),
            U16.withName("pkey_tbl_len"),
            U16.withName("lid"),
            U16.withName("sm_lid"),
            U8.withName("lmc"),
            U8.withName("max_vl_num"),
            U8.withName("sm_sl"),
            U8.withName("subnet_timeout"),
            U8.withName("init_type_reply"),
            U8.withName("active_width"),
            U8.withName("active_speed"),
            U8.withName("phys_state"),
            U8.withName("link_layer"),
            U8.withName("flags"),
            U16.withName("port_cap_flags2"),
            pad(2));

    public static final StructLayout ibv_gid_entry = struct("ibv_gid_entry",
            GID.withName("gid"),
            U32.withName("gid_index"),
            U32.withName("port_num"),
            U32.withName("gid_type"),
            U32.withName("ndev_ifindex"));

    public static final StructLayout ibv_async_event = struct("ibv_async_event",
            anonUnion(
                    PTR.withName("cq"),
                    PTR.withName("qp"),
                    PTR.withName("srq"),
                    PTR.withName("wq"),
                    U32.withName("port_num")).withName("element"),
            U32.withName("event_type"),
            pad(4));

    // ---- protection domain, memory ----

    public static final StructLayout ibv_pd = struct("ibv_pd",
            PTR.withName("context"),
            U32.withName("handle"),
            pad(4));

    public static final StructLayout ibv_mr = struct("ibv_mr",
            PTR.withName("context"),
            PTR.withName("pd"),
            PTR.withName("addr"),
            U64.withName("length"),
            U32.withName("handle"),
            U32.withName("lkey"),
            U32.withName("rkey"),
            pad(4));

    public static final StructLayout ibv_mw = struct("ibv_mw",
            PTR.withName("context"),
            PTR.withName("pd"),
            U32.withName("rkey"),
            U32.withName("handle"),
            U32.withName("type"),
            pad(4));

    public static final StructLayout ibv_mw_bind_info = struct("ibv_mw_bind_info",
            PTR.withName("mr"),
            U64.withName("addr"),
            U64.withName("length"),
            U32.withName("mw_access_flags"),
            pad(4));

    public static final StructLayout ibv_mw_bind = struct("ibv_mw_bind",
            U64.withName("wr_id"),
            U32.withName("send_flags"),
            pad(4),
            ibv_mw_bind_info.withName("bind_info"));

    public static final StructLayout ibv_ah = struct("ibv_ah",
            PTR.withName("context"),
            PTR.withName("pd"),
            U32.withName("handle"),
            pad(4));

    // ---- completion ----

    public static final StructLayout ibv_comp_channel = struct("ibv_comp_channel",
            PTR.withName("context"),
            U32.withName("fd"),
            U32.withName("refcnt"));

    public static final StructLayout ibv_cq = struct("ibv_cq",
            PTR.withName("context"),
            PTR.withName("channel"),
            PTR.withName("cq_context"),
            U32.withName("handle"),
            U32.withName("cqe"),
            PTHREAD_MUTEX.withName("mutex"),
            PTHREAD_COND.withName("cond"),
            U32.withName("comp_events_completed"),
            U32.withName("async_events_completed"));

    public static final StructLayout ibv_cq_init_attr_ex = struct("ibv_cq_init_attr_ex",
            U32.withName("cqe"),
            pad(4),
            PTR.withName("cq_context"),
            PTR.withName("channel"),
            U32.withName("comp_vector"),
            pad(4),
            U64.withName("wc_flags"),
            U32.withName("comp_mask"),
            U32.withName("flags"),
            PTR.withName("parent_domain"));

    public static final StructLayout ibv_cq_ex = struct("ibv_cq_ex",
            PTR.withName("context"),
            PTR.withName("channel"),
            PTR.withName("cq_context"),
            U32.withName("handle"),
            U32.withName("cqe"),
            // mutex, cond, event counters, comp_mask
            pad(PTHREAD_MUTEX.byteSize() + PTHREAD_COND.byteSize() + 4 + 4 + 4),
            U32.withName("status"),
            U64.withName("wr_id"),
            pad(18 * 8)); // start_poll ... read_completion_wallclock_ns

    public static final StructLayout ibv_poll_cq_attr = struct("ibv_poll_cq_attr",
            U32.withName("comp_mask"));

    public static final StructLayout ibv_modify_cq_attr = struct("ibv_modify_cq_attr",
            U32.withName("attr_mask"),
            anonStruct(
                    U16.withName("cq_count"),
                    U16.withName("cq_period")).withName("moderate"));

    public static final StructLayout ibv_wc = struct("ibv_wc",
            U64.withName("wr_id"),
            U32.withName("status"),
            U32.withName("opcode"),
            U32.withName("vendor_err"),
            U32.withName("byte_len"),
            anonUnion(
                    U32.withName("imm_data"),
                    U32.withName("invalidated_rkey")),
            U32.withName("qp_num"),
            U32.withName("src_qp"),
            U32.withName("wc_flags"),
            U16.withName("pkey_index"),
            U16.withName("slid"),
            U8.withName("sl"),
            U8.withName("dlid_path_bits"),
            pad(2));

    // ---- queue pairs ----

    public static final StructLayout ibv_qp = struct("ibv_qp",
            PTR.withName("context"),
            PTR.withName("qp_context"),
            PTR.withName("pd"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            U32.withName("handle"),
            U32.withName("qp_num"),
            U32.withName("state"),
            U32.withName("qp_type"),
            PTHREAD_MUTEX.withName("mutex"),
            PTHREAD_COND.withName("cond"),
            U32.withName("events_completed"),
            pad(4));

    public static final StructLayout ibv_qp_cap = struct("ibv_qp_cap",
            U32.withName("max_send_wr"),
            U32.withName("max_recv_wr"),
            U32.withName("max_send_sge"),
            U32.withName("max_recv_sge"),
            U32.withName("max_inline_data"));

    public static final StructLayout ibv_qp_init_attr = struct("ibv_qp_init_attr",
            PTR.withName("qp_context"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            ibv_qp_cap.withName("cap"),
            U32.withName("qp_type"),
            U32.withName("sq_sig_all"),
            pad(4));

    public static final StructLayout ibv_rx_hash_conf = struct("ibv_rx_hash_conf",
            U8.withName("rx_hash_function"),
            U8.withName("rx_hash_key_len"),
            pad(6),
            PTR.withName("rx_hash_key"),
            U64.withName("rx_hash_fields_mask"));

    public static final StructLayout ibv_qp_init_attr_ex = struct("ibv_qp_init_attr_ex",
            PTR.withName("qp_context"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            ibv_qp_cap.withName("cap"),
            U32.withName("qp_type"),
            U32.withName("sq_sig_all"),
            U32.withName("comp_mask"),
            PTR.withName("pd"),
            PTR.withName("xrcd"),
            U32.withName("create_flags"),
            U16.withName("max_tso_header"),
            pad(2),
            PTR.withName("rwq_ind_tbl"),
            ibv_rx_hash_conf.withName("rx_hash_conf"),
            U32.withName("source_qpn"),
            pad(4),
            U64.withName("send_ops_flags"));

    public static final StructLayout ibv_global_route = struct("ibv_global_route",
            GID.withName("dgid"),
            U32.withName("flow_label"),
            U8.withName("sgid_index"),
            U8.withName("hop_limit"),
            U8.withName("traffic_class"),
            pad(1));

    public static final StructLayout ibv_ah_attr = struct("ibv_ah_attr",
            ibv_global_route.withName("grh"),
            U16.withName("dlid"),
            U8.withName("sl"),
            U8.withName("src_path_bits"),
            U8.withName("static_rate"),
            U8.withName("is_global"),
            U8.withName("port_num"),
            pad(1));

    public static final StructLayout ibv_qp_attr = struct("ibv_qp_attr",
            U32.withName("qp_state"),
            U32.withName("cur_qp_state"),
            U32.withName("path_mtu"),
            U32.withName("path_mig_state"),
            U32.withName("qkey"),
            U32.withName("rq_psn"),
            U32.withName("sq_psn"),
            U32.withName("dest_qp_num"),
            U32.withName("qp_access_flags"),
            ibv_qp_cap.withName("cap"),
            ibv_ah_attr.withName("ah_attr"),
            ibv_ah_attr.withName("alt_ah_attr"),
            U16.withName("pkey_index"),
            U16.withName("alt_pkey_index"),
            U8.withName("en_sqd_async_notify"),
            U8.withName("sq_draining"),
            U8.withName("max_rd_atomic"),
            U8.withName("max_dest_rd_atomic"),
            U8.withName("min_rnr_timer"),
            U8.withName("port_num"),
            U8.withName("timeout"),
            U8.withName("retry_cnt"),
            U8.withName("rnr_retry"),
            U8.withName("alt_port_num"),
            U8.withName("alt_timeout"),
            pad(1),
            U32.withName("rate_limit"),
            pad(4));

    public static final StructLayout ibv_qp_ex = struct("ibv_qp_ex",
            ibv_qp.withName("qp_base"),
            U64.withName("comp_mask"),
            U64.withName("wr_id"),
            U32.withName("wr_flags"),
            pad(4),
            pad(21 * 8)); // wr_atomic_cmp_swp ... wr_atomic_write

    // ---- shared receive queues ----

    public static final StructLayout ibv_srq = struct("ibv_srq",
            PTR.withName("context"),
            PTR.withName("srq_context"),
            PTR.withName("pd"),
            U32.withName("handle"),
            pad(4),
            PTHREAD_MUTEX.withName("mutex"),
            PTHREAD_COND.withName("cond"),
            U32.withName("events_completed"),
            pad(4));

    public static final StructLayout ibv_srq_attr = struct("ibv_srq_attr",
            U32.withName("max_wr"),
            U32.withName("max_sge"),
            U32.withName("srq_limit"));

    public static final StructLayout ibv_srq_init_attr = struct("ibv_srq_init_attr",
            PTR.withName("srq_context"),
            ibv_srq_attr.withName("attr"),
            pad(4));

    // ---- work requests ----

    public static final StructLayout ibv_sge = struct("ibv_sge",
            U64.withName("addr"),
            U32.withName("length"),
            U32.withName("lkey"));

    public static final StructLayout ibv_recv_wr = struct("ibv_recv_wr",
            U64.withName("wr_id"),
            PTR.withName("next"),
            PTR.withName("sg_list"),
            U32.withName("num_sge"),
            pad(4));

    public static final StructLayout ibv_send_wr = struct("ibv_send_wr",
            U64.withName("wr_id"),
            PTR.withName("next"),
            PTR.withName("sg_list"),
            U32.withName("num_sge"),
            U32.withName("opcode"),
            U32.withName("send_flags"),
            anonUnion(
                    U32.withName("imm_data"),
                    U32.withName("invalidate_rkey")),
            anonUnion(
                    anonStruct(
                            U64.withName("remote_addr"),
                            U32.withName("rkey"),
                            pad(4)).withName("rdma"),
                    anonStruct(
                            U64.withName("remote_addr"),
                            U64.withName("compare_add"),
                            U64.withName("swap"),
                            U32.withName("rkey"),
                            pad(4)).withName("atomic"),
                    anonStruct(
                            PTR.withName("ah"),
                            U32.withName("remote_qpn"),
                            U32.withName("remote_qkey")).withName("ud")).withName("wr"),
            anonUnion(
                    anonStruct(U32.withName("remote_srqn")).withName("xrc")).withName("qp_type"),
            pad(4),
            anonUnion(
                    anonStruct(
                            PTR.withName("mw"),
                            U32.withName("rkey"),
                            pad(4),
                            ibv_mw_bind_info.withName("bind_info")).withName("bind_mw"),
                    anonStruct(
                            PTR.withName("hdr"),
                            U16.withName("hdr_sz"),
                            U16.withName("mss"),
                            pad(4)).withName("tso")));

    // ---- sockets and rdma_cm ----

    public static final StructLayout sockaddr_in = struct("sockaddr_in",
            U16.withName("sin_family"),
            U16.withName("sin_port"),
            U32.withName("sin_addr"),
            pad(8));

    public static final StructLayout sockaddr_in6 = struct("sockaddr_in6",
            U16.withName("sin6_family"),
            U16.withName("sin6_port"),
            U32.withName("sin6_flowinfo"),
            bytes(16).withName("sin6_addr"),
            U32.withName("sin6_scope_id"));

    public static final StructLayout sockaddr_storage = struct("sockaddr_storage",
            bytes(128).withByteAlignment(8));

    /** struct pollfd, for poll(2) on completion-channel, async-event and rdma_cm event fds. */
    public static final StructLayout pollfd = struct("pollfd",
            U32.withName("fd"),
            U16.withName("events"),
            U16.withName("revents"));

    public static final StructLayout rdma_event_channel = struct("rdma_event_channel",
            U32.withName("fd"));

    public static final StructLayout rdma_addr = struct("rdma_addr",
            anonUnion(
                    bytes(16).withName("src_addr"),
                    sockaddr_in.withName("src_sin"),
                    sockaddr_in6.withName("src_sin6"),
                    sockaddr_storage.withName("src_storage")),
            anonUnion(
                    bytes(16).withName("dst_addr"),
                    sockaddr_in.withName("dst_sin"),
                    sockaddr_in6.withName("dst_sin6"),
                    sockaddr_storage.withName("dst_storage")),
            bytes(40).withByteAlignment(8).withName("addr"));

    public static final StructLayout rdma_route = struct("rdma_route",
            rdma_addr.withName("addr"),
            PTR.withName("path_rec"),
            U32.withName("num_paths"),
            pad(4));

    public static final StructLayout rdma_cm_id = struct("rdma_cm_id",
            PTR.withName("verbs"),
            PTR.withName("channel"),
            PTR.withName("context"),
            PTR.withName("qp"),
            rdma_route.withName("route"),
            U32.withName("ps"),
            U8.withName("port_num"),
            pad(3),
            PTR.withName("event"),
            PTR.withName("send_cq_channel"),
            PTR.withName("send_cq"),
            PTR.withName("recv_cq_channel"),
            PTR.withName("recv_cq"),
            PTR.withName("srq"),
            PTR.withName("pd"),
            U32.withName("qp_type"),
            pad(4));

    public static final StructLayout rdma_conn_param = struct("rdma_conn_param",
            PTR.withName("private_data"),
            U8.withName("private_data_len"),
            U8.withName("responder_resources"),
            U8.withName("initiator_depth"),
            U8.withName("flow_control"),
            U8.withName("retry_count"),
            U8.withName("rnr_retry_count"),
            U8.withName("srq"),
            pad(1),
            U32.withName("qp_num"),
            pad(4));

    public static final StructLayout rdma_ud_param = struct("rdma_ud_param",
            PTR.withName("private_data"),
            U8.withName("private_data_len"),
            pad(7),
            ibv_ah_attr.withName("ah_attr"),
            U32.withName("qp_num"),
            U32.withName("qkey"));

    public static final StructLayout rdma_cm_event = struct("rdma_cm_event",
            PTR.withName("id"),
            PTR.withName("listen_id"),
            U32.withName("event"),
            U32.withName("status"),
            anonUnion(
                    rdma_conn_param.withName("conn"),
                    rdma_ud_param.withName("ud")).withName("param"));

    /**
     * Byte offset of a named field given as a C member path ("wr.rdma.remote_addr"); members of anonymous
     * unions and structs are reached through them, as in C. Resolved once, into static final constants.
     */
    public static long offset(GroupLayout layout, String path) {
        long total = 0;
        GroupLayout current = layout;
        String[] parts = path.split("\\.");
        for (int i = 0; i < parts.length; i++) {
            long[] found = find(current, parts[i], 0);
            if (found == null) {
                throw new IllegalArgumentException("no member " + path + " in " + layout.name().orElse("?"));
            }
            total += found[0];
            MemoryLayout member = memberAt(current, parts[i]);
            if (i < parts.length - 1) {
                if (!(member instanceof GroupLayout g)) {
                    throw new IllegalArgumentException(parts[i] + " is not a struct or union in " + path);
                }
                current = g;
            }
        }
        return total;
    }

    private static long[] find(GroupLayout group, String name, long base) {
        long off = 0;
        for (MemoryLayout m : group.memberLayouts()) {
            long here = group instanceof UnionLayout ? 0 : off;
            if (m.name().isPresent()) {
                if (m.name().get().equals(name)) {
                    return new long[] {base + here};
                }
            } else if (m instanceof GroupLayout anon) {
                long[] inner = find(anon, name, base + here);
                if (inner != null) {
                    return inner;
                }
            }
            off += m.byteSize();
        }
        return null;
    }

    private static MemoryLayout memberAt(GroupLayout group, String name) {
        for (MemoryLayout m : group.memberLayouts()) {
            if (m.name().isPresent()) {
                if (m.name().get().equals(name)) {
                    return m;
                }
            } else if (m instanceof GroupLayout anon) {
                MemoryLayout inner = memberAt(anon, name);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }
}
