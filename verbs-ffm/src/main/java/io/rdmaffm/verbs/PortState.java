package io.rdmaffm.verbs;

/** enum ibv_port_state. */
public enum PortState {
    NOP, DOWN, INIT, ARMED, ACTIVE, ACTIVE_DEFER, UNKNOWN;

    static PortState of(int value) {
        PortState[] all = values();
        return value >= 0 && value < all.length - 1 ? all[value] : UNKNOWN;
    }
}
