package io.rdmaffm.perftest.interop;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --ipv6} and {@code --source_ip} on rxe, against Debian's C perftest. {@code --ipv6} turns perftest 4.5's
 * automatic GID choice to IPv6: the test gives the device's netdev an IPv6 address (root, as in the Soft-RoCE VM;
 * taken away afterwards) and runs both sides with {@code --ipv6} and no {@code -x}: both pick the IPv6 RoCE v2 GID
 * and the RoCE v2 packets travel over IPv6. The full form (-Dinterop.full=true) runs each case both ways.
 */
@Tag("rdma")
class ConnectionSetupFlagsRdmaTest {
    private static final String ADDRESS = "fd77::1";

    @Test
    void javaAndCChooseTheIpv6GidAndInteroperate() throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        String netdev = System.getenv("RDMA_NETDEV");
        Assumptions.assumeTrue(netdev != null, "RDMA_NETDEV unset: no netdev to give an IPv6 address");
        Path disable = Path.of("/proc/sys/net/ipv6/conf", netdev, "disable_ipv6");
        Assumptions.assumeTrue(Files.isWritable(disable), "no IPv6 on " + netdev + " to enable (or not root)");
        String wasDisabled = Files.readString(disable).trim();
        try {
            run(device, ipv6Gid(device, netdev, disable));
        } finally {
            // Put the link back as it was: later tests see the GID table they expect.
            new ProcessBuilder("ip", "-6", "addr", "del", ADDRESS + "/64", "dev", netdev).start().waitFor(10,
                    TimeUnit.SECONDS);
            Files.writeString(disable, wasDisabled);
        }
    }

    private static void run(String device, int gid) throws Exception {
        boolean full = Boolean.getBoolean("interop.full");
        for (boolean javaServer : full ? new boolean[] {false, true} : new boolean[] {false}) {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("-d", device, "-p", String.valueOf(port), "-n", "200", "--ipv6");
            List<String> c = new ArrayList<>(List.of("/usr/bin/ib_send_bw"));
            c.addAll(common);
            List<String> j = new ArrayList<>(List.of("ib_send_bw"));
            j.addAll(common);
            j.addAll(List.of("--warmup", "0"));
            (javaServer ? c : j).add(PerftestPeers.serverIp());
            PerftestPeers.Peer server = javaServer ? PerftestPeers.startJava(j) : PerftestPeers.startC(c);
            PerftestPeers.awaitListening(port, 60);
            PerftestPeers.Peer client = javaServer ? PerftestPeers.startC(c) : PerftestPeers.startJava(j);
            PerftestPeers.Outcome co = client.await(120);
            PerftestPeers.Outcome so = server.await(60);
            String both = "\n--- client ---\n" + co.output() + "\n--- server ---\n" + so.output();
            assertEquals(0, co.exitCode(), "client" + both);
            assertEquals(0, so.exitCode(), "server" + both);
            // Both perftests walk the table the same way: the same index, and an IPv6 GID (not ::ffff:a.b.c.d).
            String java = javaServer ? so.output() : co.output();
            String cOut = javaServer ? co.output() : so.output();
            String javaIndex = line(java, " GID index       : ");
            assertEquals(line(cOut, " GID index       : "), javaIndex, "C and Java chose the same GID" + both);
            assertTrue(!line(java, " GID: ").startsWith("00:00:00:00:00:00:00:00:00:00:255:255"),
                    "an IPv6 GID (index " + javaIndex + "; the added address's RoCE v2 GID is " + gid + ")" + both);
        }
    }

    /**
     * {@code --source_ip}: the server listens on that address only and the client's set-up leaves from it, over
     * the TCP exchange and over rdma_cm ({@code -R}); Java against C (both ways in the full form). A client bound
     * to an address the host does not have fails at once, saying so.
     */
    @Test
    void sourceIpBindsTheSetUpAgainstC() throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        String ip = PerftestPeers.serverIp();
        boolean full = Boolean.getBoolean("interop.full");
        for (String[] extra : List.of(new String[] {}, new String[] {"-R"})) {
            for (boolean javaServer : full ? new boolean[] {false, true} : new boolean[] {extra.length == 1}) {
                int port = PerftestPeers.freshPort();
                List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                        String.valueOf(port), "-n", "200", "--source_ip", ip);
                common.addAll(List.of(extra));
                List<String> c = new ArrayList<>(List.of("/usr/bin/ib_write_bw"));
                c.addAll(common);
                List<String> j = new ArrayList<>(List.of("ib_write_bw"));
                j.addAll(common);
                j.addAll(List.of("--warmup", "0"));
                (javaServer ? c : j).add(ip);
                PerftestPeers.Peer server = javaServer ? PerftestPeers.startJava(j) : PerftestPeers.startC(c);
                if (extra.length == 1) {
                    PerftestPeers.awaitRdmaCmListening(port, 60);
                } else {
                    PerftestPeers.awaitListening(port, 60);
                }
                PerftestPeers.Peer client = javaServer ? PerftestPeers.startC(c) : PerftestPeers.startJava(j);
                PerftestPeers.Outcome co = client.await(120);
                PerftestPeers.Outcome so = server.await(60);
                String both = "\n" + String.join(" ", j) + "\n--- client ---\n" + co.output() + "\n--- server ---\n"
                        + so.output();
                assertEquals(0, co.exitCode(), "client" + both);
                assertEquals(0, so.exitCode(), "server" + both);
            }
        }
        PerftestPeers.Outcome bad = PerftestPeers.startJava(new ArrayList<>(List.of("ib_write_bw", "-d", device, "-x",
                PerftestPeers.gidIndex(), "-p", String.valueOf(PerftestPeers.freshPort()), "--source_ip", "192.0.2.7",
                "--warmup", "0", ip))).await(60);
        assertTrue(bad.exitCode() != 0 && bad.output().contains("Failed to bind socket to --source_ip 192.0.2.7"),
                bad.exitCode() + ": " + bad.output());
    }

    private static String line(String output, String prefix) {
        for (String l : output.split("\n")) {
            if (l.startsWith(prefix)) {
                return l.substring(prefix.length()).trim();
            }
        }
        throw new AssertionError("no line '" + prefix + "' in:\n" + output);
    }

    /** Adds the address (once) and waits for its RoCE v2 GID; returns its index. */
    private static int ipv6Gid(String device, String netdev, Path disable) throws Exception {
        Files.writeString(disable, "0");
        Process ip = new ProcessBuilder("ip", "-6", "addr", "replace", ADDRESS + "/64", "dev", netdev, "nodad")
                .redirectErrorStream(true).start();
        assertTrue(ip.waitFor(10, TimeUnit.SECONDS), "ip -6 addr");
        String said = new String(ip.getInputStream().readAllBytes());
        assertEquals(0, ip.exitValue(), "ip -6 addr replace: " + said);
        Path gids = Path.of("/sys/class/infiniband", device, "ports/1/gids");
        Path types = Path.of("/sys/class/infiniband", device, "ports/1/gid_attrs/types");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 16 && Files.exists(gids.resolve(String.valueOf(i))); i++) {
                String g = Files.readString(gids.resolve(String.valueOf(i))).trim();
                String t;
                try {
                    t = Files.readString(types.resolve(String.valueOf(i))).trim();
                } catch (java.io.IOException e) {
                    continue;
                }
                if (g.startsWith("fd77:") && t.contains("v2")) {
                    return i;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no RoCE v2 GID for " + ADDRESS + " on " + device + " within 10 s");
    }
}
