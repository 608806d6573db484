package io.rdmaffm.perftest.params;

/**
 * What the opened device can do, as it reports it, for the flags that need a capability ({@link DeviceRules}):
 * plain values, so the rules are tested with a made-up device.
 *
 * @param device            the device's name, for the refusal's line
 * @param portCount         {@code ibv_device_attr.phys_port_cnt}
 * @param completionVectors {@code ibv_context.num_comp_vectors}
 * @param onDemandPaging    {@code IBV_ODP_SUPPORT} in {@code ibv_device_attr_ex.odp_caps.general_caps}
 * @param rcOdpCaps         {@code odp_caps.per_transport_caps.rc_odp_caps} (enum ibv_odp_transport_cap_bits)
 * @param portLink          the run's port as its {@code ibv_port_attr.link_layer} says: "IB" or "Ethernet"
 * @param packetPacingMaxKbps {@code ibv_device_attr_ex.packet_pacing_caps.qp_rate_limit_max} (0: no packet pacing)
 * @param maxMcastGroups    {@code ibv_device_attr.max_mcast_grp} (0: no multicast)
 * @param maxMcastQpAttach  {@code ibv_device_attr.max_mcast_qp_attach} (QPs one group takes)
 * @param xrc               {@code IBV_DEVICE_XRC} in {@code ibv_device_attr.device_cap_flags}
 * @param driver            the kernel driver of the device's parent (sysfs {@code device/driver}, e.g.
 *                          {@code mlx5_core}, {@code efa}); "" for a software device (rxe, siw), which has none
 */
public record DeviceCapabilities(String device, int portCount, int completionVectors, boolean onDemandPaging,
                                 int rcOdpCaps, String portLink, int packetPacingMaxKbps, int maxMcastGroups,
                                 int maxMcastQpAttach, boolean xrc, String driver) {
    /** enum ibv_odp_transport_cap_bits. */
    static final int ODP_SEND = 1, ODP_RECV = 1 << 1, ODP_WRITE = 1 << 2, ODP_READ = 1 << 3, ODP_ATOMIC = 1 << 4,
            ODP_SRQ_RECV = 1 << 5;
    /** enum ibv_device_cap_flags: XRC domains and XRC QPs. */
    public static final int IBV_DEVICE_XRC = 1 << 20;

    /** An mlx5 device: a ConnectX or BlueField function (mlx5_core, or its sub-functions' mlx5_core.sf). */
    boolean mlx5() {
        return driver.startsWith("mlx5_core");
    }

    /** An AWS Elastic Fabric Adapter. */
    boolean efa() {
        return driver.equals("efa");
    }

    /** The device and its driver, as a refusal names them. */
    String described() {
        return device + (driver.isEmpty() ? " (a software device: no kernel driver of its own)"
                : " (driver " + driver + ")");
    }
}
