package io.rdmaffm.verbs;

/**
 * The part of struct ibv_device_attr_ex (from {@code ibv_query_device_ex}) beyond {@link DeviceAttributes}:
 * on-demand paging and packet pacing, what a caller checks before asking for either.
 *
 * @param odpGeneralCaps      odp_caps.general_caps ({@link #ODP_SUPPORT}: the device can page on demand)
 * @param rcOdpCaps           odp_caps.per_transport_caps.rc_odp_caps ({@code IBV_ODP_SUPPORT_SEND} ..)
 * @param udOdpCaps           odp_caps.per_transport_caps.ud_odp_caps
 * @param packetPacingMinKbps packet_pacing_caps.qp_rate_limit_min
 * @param packetPacingMaxKbps packet_pacing_caps.qp_rate_limit_max (0: no packet pacing)
 * @param packetPacingQpTypes packet_pacing_caps.supported_qpts (bit 1 << ibv_qp_type)
 */
public record ExtendedDeviceAttributes(long odpGeneralCaps, int rcOdpCaps, int udOdpCaps, int packetPacingMinKbps,
                                       int packetPacingMaxKbps, int packetPacingQpTypes) {
    /** IBV_ODP_SUPPORT in general_caps. */
    public static final long ODP_SUPPORT = 1;
    /** enum ibv_odp_transport_cap_bits. */
    public static final int ODP_SEND = 1, ODP_RECV = 1 << 1, ODP_WRITE = 1 << 2, ODP_READ = 1 << 3,
            ODP_ATOMIC = 1 << 4, ODP_SRQ_RECV = 1 << 5;

    /** Whether the device can register on-demand-paging memory at all. */
    public boolean onDemandPaging() {
        return (odpGeneralCaps & ODP_SUPPORT) != 0;
    }
}
