package io.rdmaffm.verbs;

/** enum ibv_qp_state. */
public enum QueuePairState {
    RESET, INIT, RTR, RTS, SQD, SQE, ERR, UNKNOWN;

    public int value() {
        return ordinal();
    }

    static QueuePairState of(int value) {
        QueuePairState[] all = values();
        return value >= 0 && value < all.length ? all[value] : UNKNOWN;
    }
}
