package io.rdmaffm.verbs;

/** enum ibv_wc_opcode: what a completion completed. */
public enum WorkCompletionOpcode {
    SEND(0), RDMA_WRITE(1), RDMA_READ(2), COMP_SWAP(3), FETCH_ADD(4), BIND_MW(5), LOCAL_INV(6), TSO(7),
    RECV(128), RECV_RDMA_WITH_IMM(129), UNKNOWN(-1);

    private static final WorkCompletionOpcode[] LOW = {SEND, RDMA_WRITE, RDMA_READ, COMP_SWAP, FETCH_ADD, BIND_MW, LOCAL_INV, TSO};

    private final int value;

    WorkCompletionOpcode(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    /** Lookup without allocation. */
    public static WorkCompletionOpcode of(int value) {
        if (value >= 0 && value < LOW.length) {
            return LOW[value];
        }
        return value == 128 ? RECV : value == 129 ? RECV_RDMA_WITH_IMM : UNKNOWN;
    }
}
