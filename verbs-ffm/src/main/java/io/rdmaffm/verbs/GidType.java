package io.rdmaffm.verbs;

/** enum ibv_gid_type: how the port uses a GID table entry. */
public enum GidType {
    IB, ROCE_V1, ROCE_V2, UNKNOWN;

    static GidType of(int value) {
        return switch (value) {
            case 0 -> IB;
            case 1 -> ROCE_V1;
            case 2 -> ROCE_V2;
            default -> UNKNOWN;
        };
    }
}
