package io.rdmaffm.perftest.params;

/**
 * What the plan needs to know about the opened device and port: plain values, so {@link RunPlan#derive} can be
 * tested without a device.
 *
 * @param vendorId           {@code ibv_device_attr.vendor_id}
 * @param maxQpRdAtom        {@code ibv_device_attr.max_qp_rd_atom}
 * @param activeMtu          the port's active MTU as {@code enum ibv_mtu} (1 = 256 B .. 5 = 4096 B)
 * @param portMaxMessageSize {@code ibv_port_attr.max_msg_sz}
 */
public record DeviceFacts(int vendorId, int maxQpRdAtom, int activeMtu, long portMaxMessageSize) {
    /** Mellanox's (NVIDIA's) vendor id, for which perftest chooses inline sizes of its own. */
    public static final int MELLANOX_VENDOR = 0x02c9;
}
