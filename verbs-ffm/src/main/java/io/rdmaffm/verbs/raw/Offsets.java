package io.rdmaffm.verbs.raw;

import java.lang.foreign.StructLayout;

/**
 * Byte offsets of every struct member the binding reads or writes, as typed constants: one holder class per
 * struct, named for it, one {@code long} per member, named for its C member path with {@code __} for the dot
 * ({@code ibv_qp_attr.ah_attr__grh__sgid_index} is {@code offsetof(struct ibv_qp_attr, ah_attr.grh.sgid_index)}).
 * Each holder resolves its paths in the {@link Structs} layouts once, when first used, so no call resolves a
 * path string; {@code LayoutTableTest} holds every constant, by its name, to the shim's offsetof table.
 */
@SuppressWarnings({"checkstyle:TypeName", "checkstyle:ConstantName"})
public final class Offsets {
    private Offsets() {
    }

    private static long at(StructLayout layout, String path) {
        return Structs.offset(layout, path);
    }

    public static final class ibv_device {
        private static final StructLayout L = Structs.ibv_device;
        public static final long node_type = at(L, "node_type");
        public static final long transport_type = at(L, "transport_type");
        public static final long name = at(L, "name");
        public static final long ibdev_path = at(L, "ibdev_path");
    }

    public static final class ibv_context {
        private static final StructLayout L = Structs.ibv_context;
        public static final long device = at(L, "device");
        public static final long async_fd = at(L, "async_fd");
        public static final long num_comp_vectors = at(L, "num_comp_vectors");
    }

    public static final class ibv_device_attr {
        private static final StructLayout L = Structs.ibv_device_attr;
        public static final long fw_ver = at(L, "fw_ver");
        public static final long node_guid = at(L, "node_guid");
        public static final long sys_image_guid = at(L, "sys_image_guid");
        public static final long max_mr_size = at(L, "max_mr_size");
        public static final long page_size_cap = at(L, "page_size_cap");
        public static final long vendor_id = at(L, "vendor_id");
        public static final long vendor_part_id = at(L, "vendor_part_id");
        public static final long hw_ver = at(L, "hw_ver");
        public static final long max_qp = at(L, "max_qp");
        public static final long max_qp_wr = at(L, "max_qp_wr");
        public static final long device_cap_flags = at(L, "device_cap_flags");
        public static final long max_sge = at(L, "max_sge");
        public static final long max_sge_rd = at(L, "max_sge_rd");
        public static final long max_cq = at(L, "max_cq");
        public static final long max_cqe = at(L, "max_cqe");
        public static final long max_mr = at(L, "max_mr");
        public static final long max_pd = at(L, "max_pd");
        public static final long max_qp_rd_atom = at(L, "max_qp_rd_atom");
        public static final long max_res_rd_atom = at(L, "max_res_rd_atom");
        public static final long max_qp_init_rd_atom = at(L, "max_qp_init_rd_atom");
        public static final long atomic_cap = at(L, "atomic_cap");
        public static final long max_mw = at(L, "max_mw");
        public static final long max_ah = at(L, "max_ah");
        public static final long max_mcast_grp = at(L, "max_mcast_grp");
        public static final long max_mcast_qp_attach = at(L, "max_mcast_qp_attach");
        public static final long max_srq = at(L, "max_srq");
        public static final long max_srq_wr = at(L, "max_srq_wr");
        public static final long max_srq_sge = at(L, "max_srq_sge");
        public static final long max_pkeys = at(L, "max_pkeys");
        public static final long local_ca_ack_delay = at(L, "local_ca_ack_delay");
        public static final long phys_port_cnt = at(L, "phys_port_cnt");
    }

    public static final class ibv_device_attr_ex {
        private static final StructLayout L = Structs.ibv_device_attr_ex;
        public static final long odp_caps__general_caps = at(L, "odp_caps.general_caps");
        public static final long odp_caps__per_transport_caps__rc_odp_caps =
                at(L, "odp_caps.per_transport_caps.rc_odp_caps");
        public static final long odp_caps__per_transport_caps__ud_odp_caps =
                at(L, "odp_caps.per_transport_caps.ud_odp_caps");
        // struct ibv_packet_pacing_caps: qp_rate_limit_min, qp_rate_limit_max (kbps), supported_qpts (u32 each)
        public static final long packet_pacing_caps = at(L, "packet_pacing_caps");
    }

    public static final class ibv_port_attr {
        private static final StructLayout L = Structs.ibv_port_attr;
        public static final long state = at(L, "state");
        public static final long max_mtu = at(L, "max_mtu");
        public static final long active_mtu = at(L, "active_mtu");
        public static final long gid_tbl_len = at(L, "gid_tbl_len");
        public static final long port_cap_flags = at(L, "port_cap_flags");
        public static final long max_msg_sz = at(L, "max_msg_sz");
        public static final long bad_pkey_cntr = at(L, "bad_pkey_cntr");
        public static final long qkey_viol_cntr = at(L, "qkey_viol_cntr");
        public static final long pkey_tbl_len = at(L, "pkey_tbl_len");
        public static final long lid = at(L, "lid");
        public static final long sm_lid = at(L, "sm_lid");
        public static final long lmc = at(L, "lmc");
        public static final long max_vl_num = at(L, "max_vl_num");
        public static final long sm_sl = at(L, "sm_sl");
        public static final long subnet_timeout = at(L, "subnet_timeout");
        public static final long active_width = at(L, "active_width");
        public static final long active_speed = at(L, "active_speed");
        public static final long phys_state = at(L, "phys_state");
        public static final long link_layer = at(L, "link_layer");
        public static final long flags = at(L, "flags");
        public static final long port_cap_flags2 = at(L, "port_cap_flags2");
    }

    public static final class ibv_gid_entry {
        private static final StructLayout L = Structs.ibv_gid_entry;
        public static final long gid = at(L, "gid");
        public static final long gid_index = at(L, "gid_index");
        public static final long port_num = at(L, "port_num");
        public static final long gid_type = at(L, "gid_type");
        public static final long ndev_ifindex = at(L, "ndev_ifindex");
    }

    public static final class ibv_async_event {
        private static final StructLayout L = Structs.ibv_async_event;
        public static final long element = at(L, "element");
        public static final long event_type = at(L, "event_type");
    }

    public static final class ibv_comp_channel {
        private static final StructLayout L = Structs.ibv_comp_channel;
        public static final long fd = at(L, "fd");
    }

    public static final class ibv_mr {
        private static final StructLayout L = Structs.ibv_mr;
        public static final long lkey = at(L, "lkey");
        public static final long rkey = at(L, "rkey");
    }

    public static final class ibv_mw {
        private static final StructLayout L = Structs.ibv_mw;
        public static final long rkey = at(L, "rkey");
    }

    public static final class ibv_mw_bind_info {
        private static final StructLayout L = Structs.ibv_mw_bind_info;
        public static final long mr = at(L, "mr");
        public static final long addr = at(L, "addr");
        public static final long length = at(L, "length");
        public static final long mw_access_flags = at(L, "mw_access_flags");
    }

    public static final class ibv_mw_bind {
        private static final StructLayout L = Structs.ibv_mw_bind;
        public static final long wr_id = at(L, "wr_id");
        public static final long send_flags = at(L, "send_flags");
        public static final long bind_info__mr = at(L, "bind_info.mr");
        public static final long bind_info__addr = at(L, "bind_info.addr");
        public static final long bind_info__length = at(L, "bind_info.length");
        public static final long bind_info__mw_access_flags = at(L, "bind_info.mw_access_flags");
    }

    public static final class ibv_cq {
        private static final StructLayout L = Structs.ibv_cq;
        public static final long cqe = at(L, "cqe");
    }

    public static final class ibv_cq_init_attr_ex {
        private static final StructLayout L = Structs.ibv_cq_init_attr_ex;
        public static final long cqe = at(L, "cqe");
        public static final long channel = at(L, "channel");
        public static final long comp_vector = at(L, "comp_vector");
        public static final long wc_flags = at(L, "wc_flags");
    }

    public static final class ibv_wc {
        private static final StructLayout L = Structs.ibv_wc;
        public static final long wr_id = at(L, "wr_id");
        public static final long status = at(L, "status");
        public static final long opcode = at(L, "opcode");
        public static final long vendor_err = at(L, "vendor_err");
        public static final long byte_len = at(L, "byte_len");
        public static final long imm_data = at(L, "imm_data");
        public static final long qp_num = at(L, "qp_num");
        public static final long src_qp = at(L, "src_qp");
        public static final long wc_flags = at(L, "wc_flags");
        public static final long pkey_index = at(L, "pkey_index");
        public static final long slid = at(L, "slid");
        public static final long sl = at(L, "sl");
    }

    public static final class ibv_qp {
        private static final StructLayout L = Structs.ibv_qp;
        public static final long qp_num = at(L, "qp_num");
    }

    public static final class ibv_qp_init_attr {
        private static final StructLayout L = Structs.ibv_qp_init_attr;
        public static final long send_cq = at(L, "send_cq");
        public static final long recv_cq = at(L, "recv_cq");
        public static final long srq = at(L, "srq");
        public static final long cap__max_send_wr = at(L, "cap.max_send_wr");
        public static final long cap__max_recv_wr = at(L, "cap.max_recv_wr");
        public static final long cap__max_send_sge = at(L, "cap.max_send_sge");
        public static final long cap__max_recv_sge = at(L, "cap.max_recv_sge");
        public static final long cap__max_inline_data = at(L, "cap.max_inline_data");
        public static final long qp_type = at(L, "qp_type");
        public static final long sq_sig_all = at(L, "sq_sig_all");
    }

    public static final class ibv_qp_init_attr_ex {
        private static final StructLayout L = Structs.ibv_qp_init_attr_ex;
        public static final long comp_mask = at(L, "comp_mask");
        public static final long pd = at(L, "pd");
        public static final long send_ops_flags = at(L, "send_ops_flags");
    }

    public static final class ibv_ah_attr {
        private static final StructLayout L = Structs.ibv_ah_attr;
        public static final long grh__dgid = at(L, "grh.dgid");
        public static final long grh__flow_label = at(L, "grh.flow_label");
        public static final long grh__sgid_index = at(L, "grh.sgid_index");
        public static final long grh__hop_limit = at(L, "grh.hop_limit");
        public static final long grh__traffic_class = at(L, "grh.traffic_class");
        public static final long dlid = at(L, "dlid");
        public static final long sl = at(L, "sl");
        public static final long src_path_bits = at(L, "src_path_bits");
        public static final long static_rate = at(L, "static_rate");
        public static final long is_global = at(L, "is_global");
        public static final long port_num = at(L, "port_num");
    }

    public static final class ibv_qp_attr {
        private static final StructLayout L = Structs.ibv_qp_attr;
        public static final long qp_state = at(L, "qp_state");
        public static final long path_mtu = at(L, "path_mtu");
        public static final long qkey = at(L, "qkey");
        public static final long rq_psn = at(L, "rq_psn");
        public static final long sq_psn = at(L, "sq_psn");
        public static final long dest_qp_num = at(L, "dest_qp_num");
        public static final long qp_access_flags = at(L, "qp_access_flags");
        public static final long cap__max_send_wr = at(L, "cap.max_send_wr");
        public static final long cap__max_recv_wr = at(L, "cap.max_recv_wr");
        public static final long cap__max_inline_data = at(L, "cap.max_inline_data");
        public static final long ah_attr = at(L, "ah_attr");
        public static final long ah_attr__grh__sgid_index = at(L, "ah_attr.grh.sgid_index");
        public static final long ah_attr__is_global = at(L, "ah_attr.is_global");
        public static final long pkey_index = at(L, "pkey_index");
        public static final long en_sqd_async_notify = at(L, "en_sqd_async_notify");
        public static final long max_rd_atomic = at(L, "max_rd_atomic");
        public static final long max_dest_rd_atomic = at(L, "max_dest_rd_atomic");
        public static final long min_rnr_timer = at(L, "min_rnr_timer");
        public static final long port_num = at(L, "port_num");
        public static final long timeout = at(L, "timeout");
        public static final long retry_cnt = at(L, "retry_cnt");
        public static final long rnr_retry = at(L, "rnr_retry");
    }

    public static final class ibv_srq_attr {
        private static final StructLayout L = Structs.ibv_srq_attr;
        public static final long max_wr = at(L, "max_wr");
        public static final long max_sge = at(L, "max_sge");
        public static final long srq_limit = at(L, "srq_limit");
    }

    public static final class ibv_srq_init_attr {
        private static final StructLayout L = Structs.ibv_srq_init_attr;
        public static final long attr__max_wr = at(L, "attr.max_wr");
        public static final long attr__max_sge = at(L, "attr.max_sge");
        public static final long attr__srq_limit = at(L, "attr.srq_limit");
    }

    public static final class ibv_sge {
        private static final StructLayout L = Structs.ibv_sge;
        public static final long addr = at(L, "addr");
        public static final long length = at(L, "length");
        public static final long lkey = at(L, "lkey");
    }

    public static final class ibv_recv_wr {
        private static final StructLayout L = Structs.ibv_recv_wr;
        public static final long wr_id = at(L, "wr_id");
        public static final long next = at(L, "next");
        public static final long sg_list = at(L, "sg_list");
        public static final long num_sge = at(L, "num_sge");
    }

    public static final class ibv_send_wr {
        private static final StructLayout L = Structs.ibv_send_wr;
        public static final long wr_id = at(L, "wr_id");
        public static final long next = at(L, "next");
        public static final long sg_list = at(L, "sg_list");
        public static final long num_sge = at(L, "num_sge");
        public static final long opcode = at(L, "opcode");
        public static final long send_flags = at(L, "send_flags");
        public static final long imm_data = at(L, "imm_data");
        public static final long wr__rdma__remote_addr = at(L, "wr.rdma.remote_addr");
        public static final long wr__rdma__rkey = at(L, "wr.rdma.rkey");
        public static final long wr__atomic__remote_addr = at(L, "wr.atomic.remote_addr");
        public static final long wr__atomic__compare_add = at(L, "wr.atomic.compare_add");
        public static final long wr__atomic__swap = at(L, "wr.atomic.swap");
        public static final long wr__atomic__rkey = at(L, "wr.atomic.rkey");
        public static final long wr__ud__ah = at(L, "wr.ud.ah");
        public static final long wr__ud__remote_qpn = at(L, "wr.ud.remote_qpn");
        public static final long wr__ud__remote_qkey = at(L, "wr.ud.remote_qkey");
        public static final long bind_mw__mw = at(L, "bind_mw.mw");
        public static final long bind_mw__rkey = at(L, "bind_mw.rkey");
        public static final long bind_mw__bind_info__mr = at(L, "bind_mw.bind_info.mr");
        public static final long bind_mw__bind_info__addr = at(L, "bind_mw.bind_info.addr");
        public static final long bind_mw__bind_info__length = at(L, "bind_mw.bind_info.length");
        public static final long bind_mw__bind_info__mw_access_flags = at(L, "bind_mw.bind_info.mw_access_flags");
    }

    public static final class sockaddr_in {
        private static final StructLayout L = Structs.sockaddr_in;
        public static final long sin_family = at(L, "sin_family");
        public static final long sin_port = at(L, "sin_port");
        public static final long sin_addr = at(L, "sin_addr");
    }

    public static final class sockaddr_in6 {
        private static final StructLayout L = Structs.sockaddr_in6;
        public static final long sin6_family = at(L, "sin6_family");
        public static final long sin6_port = at(L, "sin6_port");
        public static final long sin6_flowinfo = at(L, "sin6_flowinfo");
        public static final long sin6_addr = at(L, "sin6_addr");
        public static final long sin6_scope_id = at(L, "sin6_scope_id");
    }

    public static final class pollfd {
        private static final StructLayout L = Structs.pollfd;
        public static final long fd = at(L, "fd");
        public static final long events = at(L, "events");
        public static final long revents = at(L, "revents");
    }

    public static final class rdma_event_channel {
        private static final StructLayout L = Structs.rdma_event_channel;
        public static final long fd = at(L, "fd");
    }

    public static final class rdma_cm_id {
        private static final StructLayout L = Structs.rdma_cm_id;
        public static final long verbs = at(L, "verbs");
        public static final long qp = at(L, "qp");
        public static final long route__addr__src_storage = at(L, "route.addr.src_storage");
        public static final long route__addr__dst_storage = at(L, "route.addr.dst_storage");
        public static final long port_num = at(L, "port_num");
    }

    public static final class rdma_conn_param {
        private static final StructLayout L = Structs.rdma_conn_param;
        public static final long private_data = at(L, "private_data");
        public static final long private_data_len = at(L, "private_data_len");
        public static final long responder_resources = at(L, "responder_resources");
        public static final long initiator_depth = at(L, "initiator_depth");
        public static final long flow_control = at(L, "flow_control");
        public static final long retry_count = at(L, "retry_count");
        public static final long rnr_retry_count = at(L, "rnr_retry_count");
        public static final long srq = at(L, "srq");
        public static final long qp_num = at(L, "qp_num");
    }

    public static final class rdma_cm_event {
        private static final StructLayout L = Structs.rdma_cm_event;
        public static final long id = at(L, "id");
        public static final long listen_id = at(L, "listen_id");
        public static final long event = at(L, "event");
        public static final long status = at(L, "status");
        public static final long param__conn__private_data = at(L, "param.conn.private_data");
        public static final long param__conn__private_data_len = at(L, "param.conn.private_data_len");
        public static final long param__conn__responder_resources = at(L, "param.conn.responder_resources");
        public static final long param__conn__initiator_depth = at(L, "param.conn.initiator_depth");
        public static final long param__conn__retry_count = at(L, "param.conn.retry_count");
        public static final long param__conn__rnr_retry_count = at(L, "param.conn.rnr_retry_count");
        public static final long param__conn__qp_num = at(L, "param.conn.qp_num");
        public static final long param__ud__private_data = at(L, "param.ud.private_data");
        public static final long param__ud__private_data_len = at(L, "param.ud.private_data_len");
        public static final long param__ud__qp_num = at(L, "param.ud.qp_num");
        public static final long param__ud__qkey = at(L, "param.ud.qkey");
        public static final long param__ud__ah_attr = at(L, "param.ud.ah_attr");
    }
}
