package io.rdmaffm.perftest.params;

import static io.rdmaffm.perftest.params.Flag.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.Tool;

import org.junit.jupiter.api.Test;

/**
 * The device flags follow the capabilities the device reports: the same command line is refused on a made-up
 * device without the capability, with its reason, and passes on one that has it. DeviceRulesRdmaTest shows the
 * reasons are read from a real device (Soft-RoCE).
 */
class DeviceRulesTest {
    private static final int ALL_RC_ODP = DeviceCapabilities.ODP_SEND | DeviceCapabilities.ODP_RECV
            | DeviceCapabilities.ODP_WRITE | DeviceCapabilities.ODP_READ | DeviceCapabilities.ODP_ATOMIC;
    /** Like Soft-RoCE on Linux 6.1: one port, one completion vector, no on-demand paging. */
    private static final DeviceCapabilities RXE = new DeviceCapabilities("rxe0", 1, 1, false, 0, "Ethernet",
            0, 8192, 56, false, "");
    /** Like a two-port ConnectX: ODP on RC for every verb, 32 completion vectors. */
    private static final DeviceCapabilities CX = new DeviceCapabilities("mlx5_0", 2, 32, true, ALL_RC_ODP,
            "IB", 100_000_000, 2_097_152, 240, true, "mlx5_core");

    @Test
    void odpFollowsTheDevicesGeneralCaps() {
        ToolOptions odp = new ToolOptions().with(ODP);
        assertEquals("--odp: rxe0 does not support on-demand paging (IBV_ODP_SUPPORT not set in odp_caps.general_caps)",
                refusal(Tool.WRITE_BW, odp, RXE));
        for (Tool t : Tool.values()) {
            DeviceRules.check(ParameterRules.check(t, odp), CX);
        }
    }

    @Test
    void odpFollowsTheTransportCapsOfWhatThisSideDoes() {
        ToolOptions odp = new ToolOptions().with(ODP);
        int noWrite = ALL_RC_ODP & ~DeviceCapabilities.ODP_WRITE;
        assertEquals("--odp: mlx5_1 has no ODP Write on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_WRITE)",
                refusal(Tool.WRITE_LAT, odp, caps(noWrite)));
        DeviceRules.check(ParameterRules.check(Tool.READ_BW, odp), caps(noWrite));
        assertEquals("--odp: mlx5_1 has no ODP Read on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_READ)",
                refusal(Tool.READ_BW, odp, caps(ALL_RC_ODP & ~DeviceCapabilities.ODP_READ)));
        assertEquals("--odp: mlx5_1 has no ODP Atomics on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_ATOMIC)",
                refusal(Tool.ATOMIC_LAT, odp, caps(ALL_RC_ODP & ~DeviceCapabilities.ODP_ATOMIC)));
        // ib_send_bw: the client sends, the server receives, -b does both; ib_send_lat does both
        int sendOnly = DeviceCapabilities.ODP_SEND;
        DeviceRules.check(ParameterRules.check(Tool.SEND_BW, odp.server("peer")), caps(sendOnly));
        assertEquals("--odp: mlx5_1 has no ODP Recv on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_RECV)",
                refusal(Tool.SEND_BW, odp, caps(sendOnly)));
        DeviceRules.check(ParameterRules.check(Tool.SEND_BW, odp), caps(DeviceCapabilities.ODP_SRQ_RECV));
        assertEquals("--odp: mlx5_1 has no ODP Send on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_SEND)",
                refusal(Tool.SEND_BW, new ToolOptions().with(ODP).with(BIDIRECTIONAL),
                        caps(DeviceCapabilities.ODP_RECV)));
        assertEquals("--odp: mlx5_1 has no ODP Recv on RC (rc_odp_caps lacks IBV_ODP_SUPPORT_RECV)",
                refusal(Tool.SEND_LAT, odp.server("peer"), caps(sendOnly)));
        // perftest: never on UC; UD is not checked (devices page UD receives without reporting it)
        assertEquals("--odp: ODP is not available on UC transport",
                refusal(Tool.SEND_BW, new ToolOptions().with(ODP).with(CONNECTION, "UC"), CX));
        DeviceRules.check(ParameterRules.check(Tool.SEND_BW, new ToolOptions().with(ODP).with(CONNECTION, "UD")),
                caps(0));
    }

    @Test
    void dualportFollowsThePortCount() {
        ToolOptions dual = new ToolOptions().with(DUALPORT);
        assertEquals("-O/--dualport: rxe0 has 1 port (phys_port_cnt); dual-port runs need 2",
                refusal(Tool.WRITE_BW, dual, RXE));
        assertEquals("-O/--dualport: QPs on two ports are not supported by perftest-java (mlx5_0 has 2 ports)",
                refusal(Tool.SEND_BW, dual, CX));
        assertEquals("-O/--dualport: rxe0 has 1 port (phys_port_cnt); dual-port runs need 2",
                refusal(Tool.READ_BW, dual.with(REPORT_PER_PORT).with(DURATION, 4), RXE));
    }

    @Test
    void theCompletionVectorFollowsTheDevicesCount() {
        ToolOptions x1 = new ToolOptions().with(EVENTS).with(VECTOR, 1);
        assertEquals("-X/--vector 1: rxe0 has 1 completion vector (num_comp_vectors), 0 only",
                refusal(Tool.SEND_BW, x1, RXE));
        DeviceRules.check(ParameterRules.check(Tool.SEND_BW, x1), CX);
        assertEquals("-X/--vector 32: mlx5_0 has 32 completion vectors (num_comp_vectors), 0..31 only",
                refusal(Tool.READ_LAT, new ToolOptions().with(EVENTS).with(VECTOR, 32), CX));
        DeviceRules.check(ParameterRules.check(Tool.SEND_LAT, new ToolOptions().with(EVENTS).with(VECTOR, 0)), RXE);
        DeviceRules.check(ParameterRules.check(Tool.WRITE_BW, new ToolOptions()), RXE); // no flag, nothing asked
    }

    @Test
    void packetPacingIsRefusedWithTheDevicesReason() {
        ToolOptions pp = new ToolOptions().with(RATE_LIMIT, "100").with(RATE_UNITS, "M").with(RATE_LIMIT_TYPE, "PP");
        assertEquals("--rate_limit_type PP: rxe0 has no packet pacing (packet_pacing_caps.qp_rate_limit_max is 0)",
                refusal(Tool.WRITE_BW, pp, RXE));
        // A device that paces: perftest's own limit (raw Ethernet QPs only), with what the device reports.
        assertEquals("--rate_limit_type PP: packet pacing is for raw Ethernet QPs (perftest's raw_ethernet tools), "
                + "which perftest-java has not (mlx5_0 paces up to 100000000 kb/s)", refusal(Tool.WRITE_BW, pp, CX));
        assertEquals("--rate_limit_type PP: rxe0 has no packet pacing (packet_pacing_caps.qp_rate_limit_max is 0)",
                refusal(Tool.SEND_BW, pp.with(TYPICAL_PKT_SIZE, 1024), RXE));
    }

    @Test
    void hwRateLimitNeedsAnInfinibandPort() {
        ToolOptions hw = new ToolOptions().with(RATE_LIMIT, "10").with(RATE_LIMIT_TYPE, "HW");
        assertEquals("--rate_limit_type HW: port 1 of rxe0 is Ethernet (its link_layer): a static rate "
                + "(ah_attr.static_rate) applies only on InfiniBand", refusal(Tool.WRITE_BW, hw, RXE));
        RateLimit onIb = DeviceRules.rateLimit(ParameterRules.check(Tool.WRITE_LAT, hw), CX);
        assertEquals(RateLimit.Type.HW, onIb.type());
        assertEquals(3, onIb.ibvRate(), "IBV_RATE_10_GBPS");
    }

    @Test
    void anImpliedHwRateLimitFallsBackToSwOnEthernetAsPerftestDoes() {
        ToolOptions implied = new ToolOptions().with(RATE_LIMIT, "40");
        RateLimit rxe = DeviceRules.rateLimit(ParameterRules.check(Tool.WRITE_BW, implied), RXE);
        assertEquals(RateLimit.Type.SW, rxe.type());
        assertEquals(0, rxe.ibvRate());
        assertEquals(RateLimit.Type.HW, DeviceRules.rateLimit(ParameterRules.check(Tool.WRITE_BW, implied), CX).type());
        // where SW cannot run either, the refusal says both
        assertEquals("--rate_limit: port 1 of rxe0 is Ethernet (its link_layer): a static rate (ah_attr.static_rate) "
                + "applies only on InfiniBand, and the SW rate limiter runs only in the bandwidth tests of send, "
                + "write and read, and not with ib_send_bw -b (ib_send_lat)", refusal(Tool.SEND_LAT, implied, RXE));
        DeviceRules.check(ParameterRules.check(Tool.SEND_LAT, implied), CX);
    }

    private static DeviceCapabilities caps(int rcOdp) {
        return new DeviceCapabilities("mlx5_1", 1, 8, true, rcOdp, "IB", 0, 0, 0, true, "mlx5_core");
    }

    private static String refusal(Tool tool, ToolOptions o, DeviceCapabilities c) {
        RunParameters p = ParameterRules.check(tool, o);
        return assertThrows(InvalidParameterException.class, () -> DeviceRules.check(p, c)).getMessage();
    }

    @Test
    void multicastFollowsTheDevicesGroupsAndTheLink() {
        ToolOptions mcg = new ToolOptions().with(MCG);
        DeviceRules.check(ParameterRules.check(Tool.SEND_BW, mcg), RXE);
        DeviceCapabilities noGroups = new DeviceCapabilities("dev9", 1, 1, false, 0, "Ethernet", 0, 0, 0, false, "");
        assertEquals("-g/--mcg: dev9 has no multicast groups (max_mcast_grp 0)",
                refusal(Tool.SEND_LAT, mcg, noGroups));
        assertEquals("-g/--mcg: mlx5_0 port is InfiniBand, where a group is joined through the subnet manager "
                + "(an SA MCMemberRecord), which perftest-java does not do; RoCE ports join by GID alone",
                refusal(Tool.SEND_BW, mcg, CX));
    }

    /** Like an EFA device: SRD's provider. */
    private static final DeviceCapabilities EFA = new DeviceCapabilities("rdmap0s6", 1, 2, false, 0, "unspecified",
            0, 0, 0, false, "efa");

    @Test
    void transportsOfSomeDevicesAreRefusedWithTheDevicesReason() {
        ToolOptions xrc = new ToolOptions().with(CONNECTION, "XRC");
        assertEquals("-c XRC: rxe0 has no XRC (IBV_DEVICE_XRC not set in device_cap_flags)",
                refusal(Tool.WRITE_BW, xrc, RXE));
        assertEquals("-c XRC: mlx5_0 has XRC (IBV_DEVICE_XRC in device_cap_flags), but perftest-java has no XRC QPs: "
                + "run RC, UC or UD", refusal(Tool.WRITE_BW, xrc, CX));
        ToolOptions dc = new ToolOptions().with(CONNECTION, "DC");
        assertEquals("-c DC: DC is mlx5's transport (mlx5dv), and rxe0 (a software device: no kernel driver of its "
                + "own) is not an mlx5 device", refusal(Tool.READ_LAT, dc, RXE));
        assertEquals("-c DC: DC is mlx5's transport (mlx5dv), and rdmap0s6 (driver efa) is not an mlx5 device",
                refusal(Tool.READ_LAT, dc, EFA));
        assertEquals("-c DC: mlx5_0 (driver mlx5_core) is an mlx5 device, which has DC (mlx5dv), but perftest-java "
                + "has no DC QPs: run RC, UC or UD", refusal(Tool.ATOMIC_BW, dc, CX));
        ToolOptions srd = new ToolOptions().with(CONNECTION, "SRD");
        assertEquals("-c SRD: SRD is EFA's transport (efadv), and mlx5_0 (driver mlx5_core) is not an EFA device",
                refusal(Tool.SEND_BW, srd, CX));
        assertEquals("-c SRD: rdmap0s6 (driver efa) is an EFA device, which has SRD (efadv), but perftest-java has "
                + "no SRD QPs: run RC, UC or UD", refusal(Tool.READ_BW, srd, EFA));
        // The DCI streams need -c DC (ParameterRules), which then meets the device.
        assertTrue(refusal(Tool.SEND_BW, dc.with(LOG_DCI_STREAMS, "2"), RXE).startsWith("-c DC: DC is mlx5's"));
    }

    @Test
    void mlx5CryptoAndOooAreRefusedWithTheDevicesReason() {
        ToolOptions aes = new ToolOptions().with(AES_XTS).with(KEK_PATH, "/k").with(DATA_ENC_KEY_APP_PATH, "/a")
                .with(CREDENTIALS_PATH, "/c");
        assertEquals("--aes_xts: AES-XTS crypto is mlx5's (mlx5dv), and rxe0 (a software device: no kernel driver of "
                + "its own) is not an mlx5 device", refusal(Tool.WRITE_BW, aes, RXE));
        assertEquals("--aes_xts: mlx5_0 (driver mlx5_core) is an mlx5 device, which may have crypto (mlx5dv), but "
                + "perftest-java has no mlx5dv crypto (AES-XTS keys, crypto login, signature MRs)",
                refusal(Tool.WRITE_BW, aes, CX));
        assertTrue(refusal(Tool.SEND_LAT, new ToolOptions().with(DATA_ENC_KEYS_NUMBER, "4"), EFA)
                .startsWith("--data_enc_keys_number: AES-XTS crypto is mlx5's (mlx5dv), and rdmap0s6 (driver efa)"));
        for (DeviceCapabilities c : new DeviceCapabilities[] {RXE, CX}) {
            assertTrue(refusal(Tool.WRITE_BW, new ToolOptions().with(USE_OOO), c).startsWith("--use_ooo: out-of-order "
                    + "data placement is reported and set through MLNX_OFED's libibverbs"), c.device());
        }
    }
}
