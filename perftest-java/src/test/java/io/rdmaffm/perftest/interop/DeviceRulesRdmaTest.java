package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.RdmaDevice;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The device flags' refusals carry the reason the device itself reports: each expectation is computed from what
 * this test reads from the device through verbs-ffm (port count, num_comp_vectors, ODP caps), so the same test
 * holds on Soft-RoCE (one port, no ODP on Linux 6.1) and on a device that has them. DeviceRulesTest covers the
 * rules with made-up devices.
 */
@Tag("rdma")
class DeviceRulesRdmaTest {

    @Test
    void odpFollowsTheDevicesOnDemandPaging() throws Exception {
        String device = PerftestPeers.device();
        boolean odp;
        try (Context ctx = Context.open(device)) {
            odp = ctx.queryDeviceExtended().onDemandPaging();
        }
        if (!odp) {
            PerftestPeers.Outcome o = javaServer("ib_write_bw", "--odp");
            assertEquals(2, o.exitCode(), o.output());
            assertTrue(o.output().contains("--odp: " + device + " does not support on-demand paging "
                    + "(IBV_ODP_SUPPORT not set in odp_caps.general_caps)"), o.output());
            return;
        }
        // A device with ODP: a Java pair runs with it (both sides register on demand).
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("ib_write_bw", "-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(port), "--odp", "-n", "50", "--warmup", "0");
        PerftestPeers.Peer server = PerftestPeers.startJava(common);
        PerftestPeers.awaitListening(port, 60);
        List<String> client = new java.util.ArrayList<>(common);
        client.add(PerftestPeers.serverIp());
        PerftestPeers.Outcome c = PerftestPeers.startJava(client).await(120);
        PerftestPeers.Outcome s = server.await(120);
        assertEquals(0, c.exitCode(), c.output());
        assertEquals(0, s.exitCode(), s.output());
    }

    @Test
    void dualportFollowsThePortCount() throws Exception {
        String device = PerftestPeers.device();
        int ports;
        try (Context ctx = Context.open(device)) {
            ports = ctx.portCount();
        }
        PerftestPeers.Outcome o = javaServer("ib_send_bw", "-O");
        assertEquals(2, o.exitCode(), o.output());
        String expected = ports < 2
                ? "-O/--dualport: " + device + " has " + ports + " port (phys_port_cnt); dual-port runs need 2"
                : "-O/--dualport: QPs on two ports are not supported by perftest-java (" + device + " has " + ports
                        + " ports)";
        assertTrue(o.output().contains(expected), o.output());
    }

    @Test
    void theCompletionVectorIsBoundedByTheDevicesCount() throws Exception {
        String device = PerftestPeers.device();
        int vectors;
        try (Context ctx = Context.open(device)) {
            vectors = ctx.completionVectors();
        }
        PerftestPeers.Outcome o = javaServer("ib_send_bw", "-e", "-X", String.valueOf(vectors));
        assertEquals(2, o.exitCode(), o.output());
        assertTrue(o.output().contains("-X/--vector " + vectors + ": " + device + " has " + vectors
                + " completion vector"), o.output());
        assertTrue(o.output().contains("(num_comp_vectors), 0"), o.output());
    }

    /**
     * {@code -c XRC} and {@code -c DC} meet what the device reports: its IBV_DEVICE_XRC bit and its kernel driver.
     * In-process (OpenDevice, as a tool opens the device), so no JVM is started for it; the exit status of a refusal
     * is ToolCommandLineTest's.
     */
    @Test
    void xrcAndDcFollowTheDevice() throws Exception {
        String device = PerftestPeers.device();
        boolean xrc;
        try (Context ctx = Context.open(device)) {
            xrc = (ctx.queryDevice().deviceCapFlags() & (1 << 20)) != 0; // IBV_DEVICE_XRC
        }
        Path sysfs = Path.of(RdmaDevice.list().stream().filter(d -> d.name().equals(device)).findFirst().orElseThrow()
                .ibdevPath(), "device", "driver");
        String driver = Files.exists(sysfs) ? sysfs.toRealPath().getFileName().toString() : "";
        if (device.startsWith("rxe")) {
            // Soft-RoCE: no XRC on Linux 6.1 (ibv_devinfo -v lists no XRC), and a virtual ib device (no parent).
            assertFalse(xrc, device);
            assertEquals("", driver, device);
        }
        assertEquals(xrc ? "-c XRC: " + device + " has XRC (IBV_DEVICE_XRC in device_cap_flags), but perftest-java "
                        + "has no XRC QPs: run RC, UC or UD"
                        : "-c XRC: " + device + " has no XRC (IBV_DEVICE_XRC not set in device_cap_flags)",
                refusal(Tool.WRITE_BW, device, "XRC"));
        String described = device + (driver.isEmpty() ? " (a software device: no kernel driver of its own)"
                : " (driver " + driver + ")");
        assertEquals(driver.startsWith("mlx5_core") ? "-c DC: " + described + " is an mlx5 device, which has DC "
                        + "(mlx5dv), but perftest-java has no DC QPs: run RC, UC or UD"
                        : "-c DC: DC is mlx5's transport (mlx5dv), and " + described + " is not an mlx5 device",
                refusal(Tool.READ_BW, device, "DC"));
    }

    private static String refusal(Tool tool, String device, String connection) {
        RunParameters p = ParameterRules.check(tool, new ToolOptions().with(Flag.DEVICE, device)
                .with(Flag.CONNECTION, connection));
        return assertThrows(InvalidParameterException.class, () -> OpenDevice.open(p).close()).getMessage();
    }

    /** A Java server given {@code flags}: it is refused when it opens the device, before any client comes. */
    private static PerftestPeers.Outcome javaServer(String tool, String... flags) throws Exception {
        List<String> args = PerftestPeers.args(tool, "-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(),
                "-p", String.valueOf(PerftestPeers.freshPort()), "--warmup", "0");
        args.addAll(List.of(flags));
        return PerftestPeers.startJava(args).await(120);
    }
}
