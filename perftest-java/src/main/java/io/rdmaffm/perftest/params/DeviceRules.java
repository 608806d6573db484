package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Verb;

/**
 * The flags a device may not be able to honour, checked against what it reports when it is opened, before the
 * run meets its peer: each refusal names the device and the capability it lacks (perftest checks the same
 * capabilities, mostly later and with less said).
 */
public final class DeviceRules {
    private DeviceRules() {
    }

    /**
     * Checks {@code p} against device {@code c}.
     *
     * @throws InvalidParameterException naming the device, the flag and the capability it lacks
     */
    public static void check(RunParameters p, DeviceCapabilities c) {
        transport(p.endpoint().connection(), c);
        vendorOnly(p, c);
        vector(p, c);
        rateLimit(p, c);
        if (p.on(Flag.ODP)) {
            odp(p, c);
        }
        if (p.on(Flag.MCG)) {
            multicast(c);
        }
        if (p.on(Flag.DUALPORT)) {
            // One port: the device's reason. Two: this implementation's, said as such.
            throw new InvalidParameterException(c.portCount() < 2
                    ? "-O/--dualport: " + c.device() + " has " + c.portCount() + " port (phys_port_cnt); dual-port "
                            + "runs need 2"
                    : "-O/--dualport: QPs on two ports are not supported by perftest-java (" + c.device() + " has "
                            + c.portCount() + " ports)");
        }
    }

    /**
     * {@code -c XRC}, {@code DC}, {@code SRD}: perftest's transports that some devices have (XRC: IBV_DEVICE_XRC;
     * DC: mlx5, through mlx5dv; SRD: EFA, through efadv). The device's reason where it has not the transport; where
     * it has, perftest-java's own (it creates none of those QPs), said as such.
     */
    private static void transport(Connection conn, DeviceCapabilities c) {
        String ours = ", but perftest-java has no " + conn + " QPs: run RC, UC or UD";
        switch (conn) {
            case XRC -> throw new InvalidParameterException("-c XRC: " + (c.xrc()
                    ? c.device() + " has XRC (IBV_DEVICE_XRC in device_cap_flags)" + ours
                    : c.device() + " has no XRC (IBV_DEVICE_XRC not set in device_cap_flags)"));
            case DC -> throw new InvalidParameterException("-c DC: " + (c.mlx5()
                    ? c.described() + " is an mlx5 device, which has DC (mlx5dv)" + ours
                    : "DC is mlx5's transport (mlx5dv), and " + c.described() + " is not an mlx5 device"));
            case SRD -> throw new InvalidParameterException("-c SRD: " + (c.efa()
                    ? c.described() + " is an EFA device, which has SRD (efadv)" + ours
                    : "SRD is EFA's transport (efadv), and " + c.described() + " is not an EFA device"));
            default -> {
            }
        }
    }

    /**
     * mlx5's crypto flags (perftest's HAVE_AES_XTS) and MLNX_OFED's {@code --use_ooo}: refused with what the device
     * is; on an mlx5 device, perftest-java's own reason (it has no mlx5dv crypto), said as such.
     */
    private static void vendorOnly(RunParameters p, DeviceCapabilities c) {
        for (Flag f : new Flag[] {Flag.AES_XTS, Flag.ENCRYPT_ON_TX, Flag.SIG_BEFORE, Flag.AES_BLOCK_SIZE,
            Flag.KEK_PATH, Flag.CREDENTIALS_PATH, Flag.DATA_ENC_KEYS_NUMBER, Flag.DATA_ENC_KEY_APP_PATH}) {
            if (f.kind() == Flag.Kind.BOOLEAN ? p.on(f) : p.value(f) != null) {
                throw new InvalidParameterException(f.longName() + ": " + (c.mlx5()
                        ? c.described() + " is an mlx5 device, which may have crypto (mlx5dv), but perftest-java has "
                                + "no mlx5dv crypto (AES-XTS keys, crypto login, signature MRs)"
                        : "AES-XTS crypto is mlx5's (mlx5dv), and " + c.described() + " is not an mlx5 device"));
            }
        }
        if (p.on(Flag.USE_OOO)) {
            throw new InvalidParameterException("--use_ooo: out-of-order data placement is reported and set through "
                    + "MLNX_OFED's libibverbs (ooo_caps, IBV_QP_OOO_RW_DATA_PLACEMENT); rdma-core's, which perftest-java "
                    + "uses, has neither, so " + c.described() + " cannot be asked for it");
        }
    }

    /** {@code -g}: the device must have multicast groups, and the port must be one a group is joined on by GID. */
    private static void multicast(DeviceCapabilities c) {
        if (c.maxMcastGroups() <= 0 || c.maxMcastQpAttach() <= 0) {
            throw new InvalidParameterException("-g/--mcg: " + c.device() + " has no multicast groups (max_mcast_grp "
                    + c.maxMcastGroups() + (c.maxMcastGroups() > 0 ? ", max_mcast_qp_attach " + c.maxMcastQpAttach() : "")
                    + ")");
        }
        if ("IB".equals(c.portLink())) {
            throw new InvalidParameterException("-g/--mcg: " + c.device() + " port is InfiniBand, where a group is "
                    + "joined through the subnet manager (an SA MCMemberRecord), which perftest-java does not do; "
                    + "RoCE ports join by GID alone");
        }
    }

    /**
     * {@code --pkey_index} against the port's P_Key table as the device reports it (pkey_tbl_len; Soft-RoCE has
     * one entry): perftest checks only the device-wide max_pkeys and falls back to 0, which hides a wrong index.
     *
     * @param pkeyAtIndex the P_Key at {@code index}, queried only for an index above 0 inside the table
     * @throws InvalidParameterException naming the port and its table
     */
    public static void pkeyIndex(int index, int tableLength, String device, int port,
                                 java.util.function.IntSupplier pkeyAtIndex) {
        if (index >= tableLength) {
            throw new InvalidParameterException("--pkey_index " + index + ": port " + port + " of " + device + " has "
                    + tableLength + " P_Key table entr" + (tableLength == 1 ? "y" : "ies") + " (pkey_tbl_len), index 0"
                    + (tableLength > 1 ? ".." + (tableLength - 1) : "") + " only");
        }
        if (index > 0 && pkeyAtIndex.getAsInt() == 0) {
            throw new InvalidParameterException("--pkey_index " + index + ": entry " + index + " of the P_Key table of "
                    + device + " port " + port + " is empty (P_Key 0)");
        }
    }

    /**
     * {@code --force-link} and {@code --dlid} against the port's link layer as the device reports it. perftest takes
     * a forced type as true and goes on without the GRH RoCE needs (IB on Ethernet) or with a GID chosen as on RoCE
     * (Ethernet on InfiniBand); it puts a LID into a RoCE address, where nothing reads it.
     *
     * @param forced "IB", "Ethernet", or null (not given)
     * @param dlid   0: not given
     * @param link   the port's link layer: "Ethernet", "IB" or "unspecified"
     * @throws InvalidParameterException naming the port and its link layer
     */
    public static void linkFlags(String forced, int dlid, String link, String device, int port) {
        if (forced != null && !forced.equals(link)) {
            throw new InvalidParameterException("--force-link " + forced + ": port " + port + " of " + device + " is "
                    + link + " (its link_layer)" + (forced.equals("Ethernet")
                    ? "; for a GRH on InfiniBand give a GID index (-x)" : "; perftest-java runs a port as the link it is"));
        }
        if (dlid != 0 && !link.equals("IB")) {
            throw new InvalidParameterException("--dlid " + dlid + ": port " + port + " of " + device + " is " + link
                    + " (its link_layer): RoCE addresses the peer by its GID, a LID applies only on InfiniBand");
        }
    }

    /**
     * The rate limit {@code p} runs with on device {@code c}: HW needs a static rate, which only an InfiniBand
     * port's address carries (perftest reads it back and falls back to SW, or fails where HW was asked for); PP
     * needs the device's packet pacing, and then raw Ethernet QPs, which perftest-java has not.
     *
     * @throws InvalidParameterException naming the device and what it lacks
     */
    public static RateLimit rateLimit(RunParameters p, DeviceCapabilities c) {
        RateLimit r = RateLimit.of(p);
        String port = "port " + p.endpoint().ibPort() + " of " + c.device() + " is " + c.portLink()
                + " (its link_layer): a static rate (ah_attr.static_rate) applies only on InfiniBand";
        if (r.type() == RateLimit.Type.HW && !"IB".equals(c.portLink())) {
            if (r.typeGiven()) {
                throw new InvalidParameterException("--rate_limit_type HW: " + port);
            }
            if (!RateLimit.swAllowed(p.tool(), p.workload().bidirectional())) {
                throw new InvalidParameterException("--rate_limit: " + port + ", and the "
                        + RateLimit.swRefusal(p.tool()));
            }
            return r.as(RateLimit.Type.SW);
        }
        if (r.type() == RateLimit.Type.PP) {
            throw new InvalidParameterException("--rate_limit_type PP: " + (c.packetPacingMaxKbps() == 0
                    ? c.device() + " has no packet pacing (packet_pacing_caps.qp_rate_limit_max is 0)"
                    : "packet pacing is for raw Ethernet QPs (perftest's raw_ethernet tools), which perftest-java has "
                            + "not (" + c.device() + " paces up to " + c.packetPacingMaxKbps() + " kb/s)"));
        }
        return r;
    }

    /** perftest refuses a vector above num_comp_vectors; the last valid one is num_comp_vectors - 1. */
    private static void vector(RunParameters p, DeviceCapabilities c) {
        int vector = (Integer) p.value(Flag.VECTOR);
        if (vector >= c.completionVectors()) {
            throw new InvalidParameterException("-X/--vector " + vector + ": " + c.device() + " has "
                    + c.completionVectors() + " completion vector" + (c.completionVectors() == 1 ? "" : "s")
                    + " (num_comp_vectors), 0" + (c.completionVectors() > 1 ? ".." + (c.completionVectors() - 1) : "")
                    + " only");
        }
    }

    /** As perftest's check_odp_support: the device at all, then the transport's caps for what this side does. */
    private static void odp(RunParameters p, DeviceCapabilities c) {
        String prefix = "--odp: " + c.device();
        if (!c.onDemandPaging()) {
            throw new InvalidParameterException(prefix
                    + " does not support on-demand paging (IBV_ODP_SUPPORT not set in odp_caps.general_caps)");
        }
        Connection conn = p.endpoint().connection();
        if (conn == Connection.UC) {
            throw new InvalidParameterException("--odp: ODP is not available on UC transport");
        }
        if (conn != Connection.RC) {
            return; // UD: perftest skips the check (devices page UD receives without saying so)
        }
        Verb verb = p.verb();
        boolean sends = verb == Verb.SEND && (p.isClient() || p.workload().bidirectional() || !p.tool().bandwidth());
        boolean receives = verb == Verb.SEND && (!p.isClient() || p.workload().bidirectional()
                || !p.tool().bandwidth());
        int caps = c.rcOdpCaps();
        if (sends && (caps & DeviceCapabilities.ODP_SEND) == 0) {
            throw lacks(prefix, "Send", "IBV_ODP_SUPPORT_SEND");
        }
        if (receives && (caps & (DeviceCapabilities.ODP_RECV | DeviceCapabilities.ODP_SRQ_RECV)) == 0) {
            throw lacks(prefix, "Recv", "IBV_ODP_SUPPORT_RECV");
        }
        if (verb == Verb.WRITE && (caps & DeviceCapabilities.ODP_WRITE) == 0) {
            throw lacks(prefix, "Write", "IBV_ODP_SUPPORT_WRITE");
        }
        if (verb == Verb.READ && (caps & DeviceCapabilities.ODP_READ) == 0) {
            throw lacks(prefix, "Read", "IBV_ODP_SUPPORT_READ");
        }
        if (verb == Verb.ATOMIC && (caps & DeviceCapabilities.ODP_ATOMIC) == 0) {
            throw lacks(prefix, "Atomics", "IBV_ODP_SUPPORT_ATOMIC");
        }
    }

    private static InvalidParameterException lacks(String prefix, String what, String bit) {
        return new InvalidParameterException(prefix + " has no ODP " + what + " on RC (rc_odp_caps lacks " + bit + ")");
    }
}
