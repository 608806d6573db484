package io.rdmaffm.verbs.raw;

/**
 * rdma-core and librdmacm enum and flag values under their C names. Checked one by one against the
 * native shim's table by a host test, so a header change cannot slip through silently.
 */
public final class Constants {
    private Constants() {
    }

    public static final int IBV_SYSFS_NAME_MAX = 64;
    public static final int IBV_SYSFS_PATH_MAX = 256;

    public static final int AF_INET = 2;

    public static final int AF_INET6 = 10;

    public static final int IBV_NODE_UNKNOWN = -1;
    public static final int IBV_NODE_CA = 1;
    public static final int IBV_NODE_SWITCH = 2;
    public static final int IBV_NODE_ROUTER = 3;
    public static final int IBV_NODE_RNIC = 4;
    public static final int IBV_NODE_USNIC = 5;
    public static final int IBV_NODE_USNIC_UDP = 6;
    public static final int IBV_NODE_UNSPECIFIED = 7;

    public static final int IBV_TRANSPORT_UNKNOWN = -1;
    public static final int IBV_TRANSPORT_IB = 0;
    public static final int IBV_TRANSPORT_IWARP = 1;
    public static final int IBV_TRANSPORT_USNIC = 2;
    public static final int IBV_TRANSPORT_USNIC_UDP = 3;
    public static final int IBV_TRANSPORT_UNSPECIFIED = 4;

    public static final int IBV_ATOMIC_NONE = 0;
    public static final int IBV_ATOMIC_HCA = 1;
    public static final int IBV_ATOMIC_GLOB = 2;

    public static final int IBV_PORT_NOP = 0;
    public static final int IBV_PORT_DOWN = 1;
    public static final int IBV_PORT_INIT = 2;
    public static final int IBV_PORT_ARMED = 3;
    public static final int IBV_PORT_ACTIVE = 4;
    public static final int IBV_PORT_ACTIVE_DEFER = 5;

    public static final int IBV_LINK_LAYER_UNSPECIFIED = 0;
    public static final int IBV_LINK_LAYER_INFINIBAND = 1;
    public static final int IBV_LINK_LAYER_ETHERNET = 2;

    public static final int IBV_MTU_256 = 1;
    public static final int IBV_MTU_512 = 2;
    public static final int IBV_MTU_1024 = 3;
    public static final int IBV_MTU_2048 = 4;
    public static final int IBV_MTU_4096 = 5;

    public static final int IBV_GID_TYPE_IB = 0;
    public static final int IBV_GID_TYPE_ROCE_V1 = 1;
    public static final int IBV_GID_TYPE_ROCE_V2 = 2;

    public static final int IBV_EVENT_CQ_ERR = 0;
    public static final int IBV_EVENT_QP_FATAL = 1;
    public static final int IBV_EVENT_QP_REQ_ERR = 2;
    public static final int IBV_EVENT_QP_ACCESS_ERR = 3;
    public static final int IBV_EVENT_COMM_EST = 4;
    public static final int IBV_EVENT_SQ_DRAINED = 5;
    public static final int IBV_EVENT_PATH_MIG = 6;
    public static final int IBV_EVENT_PATH_MIG_ERR = 7;
    public static final int IBV_EVENT_DEVICE_FATAL = 8;
    public static final int IBV_EVENT_PORT_ACTIVE = 9;
    public static final int IBV_EVENT_PORT_ERR = 10;
    public static final int IBV_EVENT_LID_CHANGE = 11;
    public static final int IBV_EVENT_PKEY_CHANGE = 12;
    public static final int IBV_EVENT_SM_CHANGE = 13;
    public static final int IBV_EVENT_SRQ_ERR = 14;
    public static final int IBV_EVENT_SRQ_LIMIT_REACHED = 15;
    public static final int IBV_EVENT_QP_LAST_WQE_REACHED = 16;
    public static final int IBV_EVENT_CLIENT_REREGISTER = 17;
    public static final int IBV_EVENT_GID_CHANGE = 18;
    public static final int IBV_EVENT_WQ_FATAL = 19;

    public static final int IBV_ACCESS_LOCAL_WRITE = 1;
    public static final int IBV_ACCESS_REMOTE_WRITE = 2;
    public static final int IBV_ACCESS_REMOTE_READ = 4;
    public static final int IBV_ACCESS_REMOTE_ATOMIC = 8;
    public static final int IBV_ACCESS_MW_BIND = 16;
    public static final int IBV_ACCESS_ZERO_BASED = 32;
    public static final int IBV_ACCESS_ON_DEMAND = 64;
    public static final int IBV_ACCESS_HUGETLB = 128;
    public static final int IBV_ACCESS_RELAXED_ORDERING = 1048576;

    public static final int IBV_MW_TYPE_1 = 1;
    public static final int IBV_MW_TYPE_2 = 2;

    public static final int IBV_WC_SUCCESS = 0;
    public static final int IBV_WC_LOC_LEN_ERR = 1;
    public static final int IBV_WC_LOC_QP_OP_ERR = 2;
    public static final int IBV_WC_LOC_EEC_OP_ERR = 3;
    public static final int IBV_WC_LOC_PROT_ERR = 4;
    public static final int IBV_WC_WR_FLUSH_ERR = 5;
    public static final int IBV_WC_MW_BIND_ERR = 6;
    public static final int IBV_WC_BAD_RESP_ERR = 7;
    public static final int IBV_WC_LOC_ACCESS_ERR = 8;
    public static final int IBV_WC_REM_INV_REQ_ERR = 9;
    public static final int IBV_WC_REM_ACCESS_ERR = 10;
    public static final int IBV_WC_REM_OP_ERR = 11;
    public static final int IBV_WC_RETRY_EXC_ERR = 12;
    public static final int IBV_WC_RNR_RETRY_EXC_ERR = 13;
    public static final int IBV_WC_LOC_RDD_VIOL_ERR = 14;
    public static final int IBV_WC_REM_INV_RD_REQ_ERR = 15;
    public static final int IBV_WC_REM_ABORT_ERR = 16;
    public static final int IBV_WC_INV_EECN_ERR = 17;
    public static final int IBV_WC_INV_EEC_STATE_ERR = 18;
    public static final int IBV_WC_FATAL_ERR = 19;
    public static final int IBV_WC_RESP_TIMEOUT_ERR = 20;
    public static final int IBV_WC_GENERAL_ERR = 21;
    public static final int IBV_WC_TM_ERR = 22;
    public static final int IBV_WC_TM_RNDV_INCOMPLETE = 23;
    public static final int IBV_WC_SEND = 0;
    public static final int IBV_WC_RDMA_WRITE = 1;
    public static final int IBV_WC_RDMA_READ = 2;
    public static final int IBV_WC_COMP_SWAP = 3;
    public static final int IBV_WC_FETCH_ADD = 4;
    public static final int IBV_WC_BIND_MW = 5;
    public static final int IBV_WC_LOCAL_INV = 6;
    public static final int IBV_WC_TSO = 7;
    public static final int IBV_WC_RECV = 128;
    public static final int IBV_WC_RECV_RDMA_WITH_IMM = 129;
    public static final int IBV_WC_WITH_IMM = 2;
    public static final int IBV_WC_WITH_INV = 8;
    public static final int IBV_WC_GRH = 1;
    public static final int IBV_WC_IP_CSUM_OK = 4;
    public static final int IBV_WC_EX_WITH_BYTE_LEN = 1;
    public static final int IBV_WC_EX_WITH_IMM = 2;
    public static final int IBV_WC_EX_WITH_QP_NUM = 4;
    public static final int IBV_WC_EX_WITH_SRC_QP = 8;
    public static final int IBV_WC_EX_WITH_SLID = 16;
    public static final int IBV_WC_EX_WITH_SL = 32;
    public static final int IBV_WC_EX_WITH_DLID_PATH_BITS = 64;
    public static final int IBV_WC_STANDARD_FLAGS = 127;

    public static final int IBV_CQ_INIT_ATTR_MASK_FLAGS = 1;
    public static final int IBV_CQ_INIT_ATTR_MASK_PD = 2;

    public static final int IBV_CREATE_CQ_ATTR_SINGLE_THREADED = 1;

    public static final int IBV_CQ_ATTR_MODERATE = 1;

    public static final int IBV_WR_RDMA_WRITE = 0;
    public static final int IBV_WR_RDMA_WRITE_WITH_IMM = 1;
    public static final int IBV_WR_SEND = 2;
    public static final int IBV_WR_SEND_WITH_IMM = 3;
    public static final int IBV_WR_RDMA_READ = 4;
    public static final int IBV_WR_ATOMIC_CMP_AND_SWP = 5;
    public static final int IBV_WR_ATOMIC_FETCH_AND_ADD = 6;
    public static final int IBV_WR_LOCAL_INV = 7;
    public static final int IBV_WR_BIND_MW = 8;
    public static final int IBV_WR_SEND_WITH_INV = 9;
    public static final int IBV_WR_TSO = 10;
    public static final int IBV_WR_DRIVER1 = 11;

    public static final int IBV_SEND_FENCE = 1;
    public static final int IBV_SEND_SIGNALED = 2;
    public static final int IBV_SEND_SOLICITED = 4;
    public static final int IBV_SEND_INLINE = 8;
    public static final int IBV_SEND_IP_CSUM = 16;

    public static final int IBV_QPT_RC = 2;
    public static final int IBV_QPT_UC = 3;
    public static final int IBV_QPT_UD = 4;
    public static final int IBV_QPT_RAW_PACKET = 8;
    public static final int IBV_QPT_XRC_SEND = 9;
    public static final int IBV_QPT_XRC_RECV = 10;
    public static final int IBV_QPT_DRIVER = 255;

    public static final int IBV_QPS_RESET = 0;
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    public static final int IBV_QPS_SQD = 4;
    public static final int IBV_QPS_SQE = 5;
    public static final int IBV_QPS_ERR = 6;
    public static final int IBV_QPS_UNKNOWN = 7;

    public static final int IBV_MIG_MIGRATED = 0;
    public static final int IBV_MIG_REARM = 1;
    public static final int IBV_MIG_ARMED = 2;

    public static final int IBV_QP_STATE = 1;
    public static final int IBV_QP_CUR_STATE = 2;
    public static final int IBV_QP_EN_SQD_ASYNC_NOTIFY = 4;
    public static final int IBV_QP_ACCESS_FLAGS = 8;
    public static final int IBV_QP_PKEY_INDEX = 16;
    public static final int IBV_QP_PORT = 32;
    public static final int IBV_QP_QKEY = 64;
    public static final int IBV_QP_AV = 128;
    public static final int IBV_QP_PATH_MTU = 256;
    public static final int IBV_QP_TIMEOUT = 512;
    public static final int IBV_QP_RETRY_CNT = 1024;
    public static final int IBV_QP_RNR_RETRY = 2048;
    public static final int IBV_QP_RQ_PSN = 4096;
    public static final int IBV_QP_MAX_QP_RD_ATOMIC = 8192;
    public static final int IBV_QP_ALT_PATH = 16384;
    public static final int IBV_QP_MIN_RNR_TIMER = 32768;
    public static final int IBV_QP_SQ_PSN = 65536;
    public static final int IBV_QP_MAX_DEST_RD_ATOMIC = 131072;
    public static final int IBV_QP_PATH_MIG_STATE = 262144;
    public static final int IBV_QP_CAP = 524288;
    public static final int IBV_QP_DEST_QPN = 1048576;
    public static final int IBV_QP_RATE_LIMIT = 33554432;
    public static final int IBV_QP_INIT_ATTR_PD = 1;
    public static final int IBV_QP_INIT_ATTR_XRCD = 2;
    public static final int IBV_QP_INIT_ATTR_CREATE_FLAGS = 4;
    public static final int IBV_QP_INIT_ATTR_MAX_TSO_HEADER = 8;
    public static final int IBV_QP_INIT_ATTR_IND_TABLE = 16;
    public static final int IBV_QP_INIT_ATTR_RX_HASH = 32;
    public static final int IBV_QP_INIT_ATTR_SEND_OPS_FLAGS = 64;
    public static final int IBV_QP_EX_WITH_RDMA_WRITE = 1;
    public static final int IBV_QP_EX_WITH_RDMA_WRITE_WITH_IMM = 2;
    public static final int IBV_QP_EX_WITH_SEND = 4;
    public static final int IBV_QP_EX_WITH_SEND_WITH_IMM = 8;
    public static final int IBV_QP_EX_WITH_RDMA_READ = 16;
    public static final int IBV_QP_EX_WITH_ATOMIC_CMP_AND_SWP = 32;
    public static final int IBV_QP_EX_WITH_ATOMIC_FETCH_AND_ADD = 64;
    public static final int IBV_QP_EX_WITH_LOCAL_INV = 128;
    public static final int IBV_QP_EX_WITH_BIND_MW = 256;
    public static final int IBV_QP_EX_WITH_SEND_WITH_INV = 512;
    public static final int IBV_QP_EX_WITH_TSO = 1024;

    public static final int IBV_SRQ_MAX_WR = 1;
    public static final int IBV_SRQ_LIMIT = 2;

    public static final int RDMA_PS_IPOIB = 2;
    public static final int RDMA_PS_TCP = 262;
    public static final int RDMA_PS_UDP = 273;
    public static final int RDMA_PS_IB = 319;

    public static final int RDMA_CM_EVENT_ADDR_RESOLVED = 0;
    public static final int RDMA_CM_EVENT_ADDR_ERROR = 1;
    public static final int RDMA_CM_EVENT_ROUTE_RESOLVED = 2;
    public static final int RDMA_CM_EVENT_ROUTE_ERROR = 3;
    public static final int RDMA_CM_EVENT_CONNECT_REQUEST = 4;
    public static final int RDMA_CM_EVENT_CONNECT_RESPONSE = 5;
    public static final int RDMA_CM_EVENT_CONNECT_ERROR = 6;
    public static final int RDMA_CM_EVENT_UNREACHABLE = 7;
    public static final int RDMA_CM_EVENT_REJECTED = 8;
    public static final int RDMA_CM_EVENT_ESTABLISHED = 9;
    public static final int RDMA_CM_EVENT_DISCONNECTED = 10;
    public static final int RDMA_CM_EVENT_DEVICE_REMOVAL = 11;
    public static final int RDMA_CM_EVENT_MULTICAST_JOIN = 12;
    public static final int RDMA_CM_EVENT_MULTICAST_ERROR = 13;
    public static final int RDMA_CM_EVENT_ADDR_CHANGE = 14;
    public static final int RDMA_CM_EVENT_TIMEWAIT_EXIT = 15;

    public static final int RDMA_MAX_RESP_RES = 255;
    public static final int RDMA_MAX_INIT_DEPTH = 255;
    /** The Q_Key rdma_cm gives every UD queue pair of the RDMA_PS_UDP port space (rdma_cma.h). */
    public static final int RDMA_UDP_QKEY = 0x01234567;

    public static final int RDMA_OPTION_ID = 0;
    public static final int RDMA_OPTION_ID_TOS = 0;
    public static final int RDMA_OPTION_ID_REUSEADDR = 1;
    public static final int RDMA_OPTION_ID_AFONLY = 2;
    public static final int RDMA_OPTION_ID_ACK_TIMEOUT = 3;

    public static final int POLLIN = 1;
    public static final int F_GETFL = 3;
    public static final int F_SETFL = 4;
    public static final int O_NONBLOCK = 2048;

    public static final int IBV_REREG_MR_CHANGE_TRANSLATION = 1;
    public static final int IBV_REREG_MR_CHANGE_PD = 2;
    public static final int IBV_REREG_MR_CHANGE_ACCESS = 4;

    /** errno values (Linux, asm-generic/errno*.h) the binding tests for or reports itself. */
    public static final int ENOENT = 2;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final int ENOMEM = 12;
    public static final int ENODEV = 19;
    public static final int EINVAL = 22;
    public static final int ENOSPC = 28;
    public static final int ENOSYS = 38;
    public static final int ENODATA = 61;
    public static final int EPROTONOSUPPORT = 93;
    public static final int EOPNOTSUPP = 95;
    public static final int ETIMEDOUT = 110;
}
