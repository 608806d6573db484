package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD multicast ({@code ib_send_bw -g}) between perftest-java and Debian's C perftest on one device, both ways:
 * CI's short form of scripts/multicast-vms.sh. rxe in Linux 6.1 attaches a QP to a group at the link layer only,
 * so the test holds an IPv6-level join of perftest's default group (ff01:0:2:c985::) on the device's netdev
 * for each run, as an operator does (docs/multicast.md); the sender's datagrams then loop back to the same rxe
 * device and reach the attached QP. Both sides use an IPv6 RoCE v2 GID (a group's GID is IPv6). Delivery is
 * checked where it happens: the receiver (the server) prints its row of 50 messages, and the device's
 * {@code rcvd_pkts} counter rose by at least that many. Default size: 64 KiB shrinks to the MTU on both sides.
 */
@Tag("rdma")
class MulticastInteropRdmaTest {
    /** perftest's default group (MCG_GID in multicast_resources.h): 255:1:0:0:0:2:201:133:0:... */
    private static final String GROUP = "ff01:0:2:c985::";
    private static final int ITERATIONS = 50;

    @ParameterizedTest(name = "Java server: {0}")
    @ValueSource(booleans = {false, true})
    void groupDeliversBetweenJavaAndC(boolean javaServer) throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        String netdev = System.getenv("RDMA_NETDEV");
        Assumptions.assumeTrue(netdev != null, "RDMA_NETDEV unset: no netdev to join the group on");
        int gid = RemoteHost.GidTable.local(device).ipv6Index();
        Assumptions.assumeTrue(gid >= 0, device + " has no IPv6 RoCE v2 GID (IPv6 off on " + netdev + "?)");
        Path rcvd = Path.of("/sys/class/infiniband", device, "ports/1/hw_counters/rcvd_pkts");
        String both = "";
        try (DatagramChannel join = DatagramChannel.open(StandardProtocolFamily.INET6)) {
            join.join(InetAddress.getByName(GROUP), NetworkInterface.getByName(netdev));
            for (int attempt = 0; attempt < 3; attempt++) {
                long before = Files.isReadable(rcvd) ? Long.parseLong(Files.readString(rcvd).trim()) : -1;
                int port = PerftestPeers.freshPort();
                List<String> common = PerftestPeers.args("-d", device, "-p", String.valueOf(port), "-x",
                        String.valueOf(gid), "-c", "UD", "-g", "-n", String.valueOf(ITERATIONS));
                List<String> c = PerftestPeers.args("/usr/bin/ib_send_bw");
                c.addAll(common);
                List<String> j = PerftestPeers.args("ib_send_bw", "--warmup", "0", "--timeout", "30");
                j.addAll(common);
                (javaServer ? c : j).add(PerftestPeers.serverIp());
                PerftestPeers.Peer server = javaServer ? PerftestPeers.startJava(j) : PerftestPeers.startC(c);
                PerftestPeers.awaitListening(port, 60);
                PerftestPeers.Peer client = javaServer ? PerftestPeers.startC(c) : PerftestPeers.startJava(j);
                PerftestPeers.Outcome co = client.await(90);
                PerftestPeers.Outcome so = server.await(60);
                long after = before < 0 ? -1 : Long.parseLong(Files.readString(rcvd).trim());
                both = "\n--- client ---\n" + co.output() + "\n--- server ---\n" + so.output() + "\nrcvd_pkts "
                        + before + " -> " + after;
                if (InteropRdmaTest.cClockFailed(javaServer ? co.output() : so.output()) && attempt < 2) {
                    System.out.println("retrying: C perftest's clock calibration failed under emulation" + both);
                    continue;
                }
                assertEquals(0, co.exitCode(), "client exit code" + both);
                assertEquals(0, so.exitCode(), "server exit code" + both);
                PerftestOutputParser.Parsed receiver = PerftestOutputParser.parse(so.output());
                assertEquals("Send BW Multicast Test", receiver.title(), both);
                assertFalse(receiver.bwRows().isEmpty(), "the receiver printed its row" + both);
                PerftestOutputParser.BwRow row = receiver.bwRows().getFirst();
                assertEquals(ITERATIONS, row.iters(), "the receiver counted every message" + both);
                assertTrue(row.size() > 0 && row.size() < 65536 && row.bwAvg() > 0,
                        "MTU-sized messages arrived " + row + both);
                if (after >= 0) {
                    assertTrue(after - before >= ITERATIONS, "the device received the group's datagrams" + both);
                }
                System.out.println("multicast " + (javaServer ? "C client -> Java server" : "Java client -> C server")
                        + ": receiver row " + row + ", rcvd_pkts +" + (after - before));
                return;
            }
        }
        throw new AssertionError("C perftest's clock calibration failed three times" + both);
    }
}
