package io.rdmaffm.verbs;

/** enum ibv_wr_opcode. */
public enum SendOpcode {
    RDMA_WRITE(0), RDMA_WRITE_WITH_IMM(1), SEND(2), SEND_WITH_IMM(3), RDMA_READ(4), ATOMIC_CMP_AND_SWP(5),
    ATOMIC_FETCH_AND_ADD(6), LOCAL_INV(7), BIND_MW(8), SEND_WITH_INV(9), TSO(10);

    private final int value;

    SendOpcode(int value) {
        this.value = value;
    }

    /** The IBV_WR_* value. */
    public int value() {
        return value;
    }
}
