package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.raw.Constants;

/** enum rdma_port_space: which transport an rdma_cm id's port numbers belong to. */
public enum PortSpace {
    /** RDMA_PS_TCP: reliable connected queue pairs (RC), the usual choice. */
    TCP(Constants.RDMA_PS_TCP),
    /** RDMA_PS_UDP: unreliable datagram queue pairs (UD); the peer's QP number and Q_Key come with the events. */
    UDP(Constants.RDMA_PS_UDP);

    private final int value;

    PortSpace(int value) {
        this.value = value;
    }

    /** The RDMA_PS_* value. */
    public int value() {
        return value;
    }
}
