package io.rdmaffm.verbs;

/** enum ibv_qp_type. Soft-RoCE supports RC, UC and UD. */
public enum QueuePairType {
    RC(2), UC(3), UD(4), RAW_PACKET(8), XRC_SEND(9), XRC_RECV(10);

    private final int value;

    QueuePairType(int value) {
        this.value = value;
    }

    public int value() {
        return value;
    }

    public static QueuePairType of(int value) {
        for (QueuePairType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown ibv_qp_type " + value);
    }
}
