package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * perftest between two hosts, as people run it: the client here (rxe-host1), the server on the next host of
 * RDMA_HOSTS, started over ssh. Java client against Debian's C server, C client against a Java server, and Java
 * against Java with {@code --verify} (the data pattern needs perftest-java on both sides), for RC write, read
 * latency, UD send and write with rdma_cm ({@code -R}). Each side chooses its own GID: perftest-java by itself,
 * C perftest with the {@code -x} of the IPv4 GID in its own host's table (the VM harness puts it at different
 * indices on the two hosts). Then a Java echo over rdma_cm on the hosts' IPv6 addresses. The Java servers over
 * there share one JVM (RemoteServers), started before the first case. Run by scripts/test.sh in two VMs
 * (scripts/rxe-vms.sh): emulated, lossy RDMA, so few iterations and long timeouts; never a speed test.
 */
@Tag("multihost")
class CrossHostInteropRdmaTest {
    /** Where each side runs. The Java side here runs in this JVM; a Java side over there is bin/rdma-perftest. */
    enum Pairing {
        JAVA_CLIENT_C_SERVER("Java client here, C server there"),
        C_CLIENT_JAVA_SERVER("C client there, Java server here"),
        JAVA_CLIENT_JAVA_SERVER("Java client here, Java server there, --verify");

        final String text;

        Pairing(String text) {
            this.text = text;
        }

        @Override
        public String toString() {
            return text;
        }
    }

    private static final String[][] RUNS = {
        {"ib_write_bw", "-n", "100", "-s", "16384"},
        {"ib_read_lat", "-n", "100"},
        {"ib_send_bw", "-n", "100", "-c", "UD", "-s", "1024"},
        {"ib_write_bw", "-n", "100", "-s", "16384", "-R"},
    };
    private static final int ECHO_COUNT = 50;
    private static final int ECHO_SIZE = 4096;

    private static String device;
    private static RemoteHost peer;
    private static RemoteHost.GidTable here;
    private static RemoteHost.GidTable there;
    /** The JVM over there with the Java servers; their ports by command, and the echo's port. */
    private static RemoteHost.Started javaServers;
    private static final Map<String, Integer> JAVA_SERVER_PORTS = new HashMap<>();
    private static int echoPort;

    @BeforeAll
    static void twoHosts() throws Exception {
        List<String> hosts = RemoteHost.clusterHosts();
        device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        peer = new RemoteHost(System.getProperty("multihost.peer", hosts.get(1)));
        here = RemoteHost.GidTable.local(device);
        there = peer.gids(device);
        System.out.println("GID tables: here " + here.values() + ", " + peer.name + " " + there.values()
                + "; IPv4 GID index here " + here.ipv4Index() + ", there " + there.ipv4Index());
        startJavaServers();
    }

    /** One JVM over there runs every Java server at once; it starts while the C cases run. */
    private static void startJavaServers() throws Exception {
        // Surefire puts the project's modules on the module path and the rest on the class path; the
        // remote JVM runs everything from the class path, so it needs both.
        String classPath = String.join(java.io.File.pathSeparator, java.util.stream.Stream.of(
                        System.getProperty("jdk.module.path"), System.getProperty("java.class.path"))
                .filter(s -> s != null && !s.isBlank()).toList());
        List<String> java = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                RemoteServers.class.getName()));
        for (String[] run : RUNS) {
            int port = PerftestPeers.freshPort();
            JAVA_SERVER_PORTS.put(String.join(" ", run), port);
            java.addAll(List.of(String.valueOf(port), List.of(run).contains("-R") ? "rdma_cm" : "tcp"));
            java.addAll(javaArgs(run, port, true));
            java.addAll(List.of("--accept-timeout", "900", "--"));
        }
        if (here.ulaIndex() >= 0 && there.ulaIndex() >= 0) {
            echoPort = PerftestPeers.freshPort();
            java.addAll(List.of(String.valueOf(echoPort), "rdma_cm", "cm-echo",
                    there.address(there.ulaIndex()).getHostAddress(), String.valueOf(ECHO_COUNT),
                    String.valueOf(ECHO_SIZE)));
        } else {
            java.removeLast();
        }
        javaServers = peer.start(1200, java);
    }

    @AfterAll
    static void stopJavaServers() throws Exception {
        if (javaServers != null) {
            javaServers.await(30);
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Pairing pairing : Pairing.values()) {
            for (String[] r : RUNS) {
                all.add(Arguments.of(pairing, String.join(" ", r), r));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{index}: {0}: {1}")
    @MethodSource("cases")
    void perftestAcrossHosts(Pairing pairing, String command, String[] run) throws Exception {
        String tool = run[0];
        boolean cClient = pairing == Pairing.C_CLIENT_JAVA_SERVER;
        Run r = null;
        // C perftest's clock calibration sometimes fails under an emulated CPU ("Can't produce a report", inf
        // latencies): such a run is repeated, at most twice, as in InteropRdmaTest; anything else fails at once.
        for (int attempt = 0; attempt < 3; attempt++) {
            r = runOnce(pairing, run);
            String cOut = cClient ? r.client.output() : r.server.output();
            if (pairing == Pairing.JAVA_CLIENT_JAVA_SERVER || !InteropRdmaTest.cClockFailed(cOut)) {
                break;
            }
            System.out.println("retrying: C perftest's clock calibration failed under emulation" + r.both);
        }
        String both = r.both;
        assertEquals(0, r.client.exitCode(), "client exit code" + both);
        assertEquals(0, r.server.exitCode(), "server exit code" + both);
        PerftestOutputParser.Parsed pc = PerftestOutputParser.parse(r.client.output());
        PerftestOutputParser.Parsed ps = PerftestOutputParser.parse(r.server.output());
        assertEquals(pc.title(), ps.title(), "both sides run the same test" + both);

        // Each side used its own host's IPv4 GID, and learned the other's.
        RemoteHost.GidTable clientHost = cClient ? there : here;
        RemoteHost.GidTable serverHost = cClient ? here : there;
        checkGids("client", pc, clientHost, serverHost, both);
        checkGids("server", ps, serverHost, clientHost, both);

        if (tool.endsWith("_bw")) {
            assertFalse(pc.bwRows().isEmpty(), "client printed a BW row" + both);
            for (var row : pc.bwRows()) {
                assertTrue(row.msgRate() > 0 && row.bwAvg() > 0 && row.bwPeak() >= 0 && row.iters() > 0,
                        "sane BW figures " + row + both);
            }
            if (tool.equals("ib_send_bw")) {
                assertFalse(ps.bwRows().isEmpty(), "send_bw server prints its own row" + both);
            } else {
                // The server prints the client's figures, carried across the hosts by the report exchange.
                assertEquals(pc.bwRows().getLast(), ps.bwRows().getLast(), "server shows the client's row" + both);
            }
        } else {
            assertFalse(pc.latRows().isEmpty(), "the client printed latency rows" + both);
            // A read_lat server is passive (prints no rows): here the client always measures.
            for (var row : pc.latRows()) {
                assertTrue(row.tMin() > 0 && row.tMin() <= row.typical() && row.typical() <= row.tMax()
                        && row.p99() <= row.p999(), "sane latency figures " + row + both);
            }
        }
        if (pairing == Pairing.JAVA_CLIENT_JAVA_SERVER) {
            assertTrue(both.contains(" verify: all data as expected"), "a Java side verified the data" + both);
            assertFalse(both.contains("mismatching bytes"), "no side found a mismatch" + both);
        }
    }

    /**
     * The IPv6 case: perftest -R resolves IPv4 only (Debian's C perftest 4.5-0.17 and perftest-java alike), so a
     * verbs-ffm rdma_cm echo (CmEcho) runs between the hosts' unique local IPv6 addresses instead: the server
     * there, started over ssh, the client here; 50 messages of 4 KiB, every byte checked.
     */
    @Test
    void javaEchoOverRdmaCmOnIpv6AcrossHosts() throws Exception {
        Assumptions.assumeTrue(echoPort != 0, "the hosts have no RoCE v2 GID of an IPv6 unique local address");
        InetAddress server = there.address(there.ulaIndex());
        javaServers.awaitLine(RemoteHost.LISTENING + echoPort, 300);
        String account;
        try {
            account = echoWithOneMoreTryIfRejected(new InetSocketAddress(server, echoPort));
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError(e + "\n--- server ---\n" + javaServers.awaitServer(echoPort, 30).output(), e);
        }
        PerftestPeers.Outcome sv = javaServers.awaitServer(echoPort, 120);
        String both = "\n--- client ---\n" + account + "\n--- server ---\n" + sv.output();
        assertEquals(0, sv.exitCode(), "server exit code" + both);
        assertTrue(sv.output().contains("cm-echo: echoed " + ECHO_COUNT + " messages of " + ECHO_SIZE + " bytes"),
                "the server echoed" + both);
        String local = here.address(here.ulaIndex()).getHostAddress();
        assertTrue(account.contains(local) && sv.output().contains(local),
                "both sides saw the connection on IPv6 (" + local + ")" + both);
    }

    /**
     * Twice in many CI runs the first connect on IPv6 was rejected as if nothing listened, though the server's
     * cm_id was in LISTEN (checked with rdma res) and kept waiting: not explained yet. One more connect, said in
     * the output; a second rejection fails the test. (A third case, both connects rejected, was explained: the
     * server had stopped waiting after 120 s while the cases before this one ran; it now waits 900 s.)
     */
    private static String echoWithOneMoreTryIfRejected(InetSocketAddress server) throws Exception {
        try {
            return CmEcho.echo(server, ECHO_COUNT, ECHO_SIZE);
        } catch (RuntimeException e) {
            if (!String.valueOf(e.getMessage()).contains("REJECTED")) {
                throw e;
            }
            System.out.println("retrying: the first rdma_cm connect on IPv6 was rejected: " + e.getMessage());
            Thread.sleep(2000);
            return CmEcho.echo(server, ECHO_COUNT, ECHO_SIZE);
        }
    }

    /** perftest-java's arguments for one run: no -x (it chooses its GID as perftest does). */
    private static List<String> javaArgs(String[] run, int port, boolean verify) {
        List<String> args = PerftestPeers.args(run[0], "-d", device, "-p", String.valueOf(port));
        args.addAll(Arrays.asList(run).subList(1, run.length));
        args.addAll(List.of("--warmup", "200", "--timeout", "60"));
        if (verify) {
            args.add("--verify");
        }
        return args;
    }

    /** One run's outcomes, and both outputs for messages. */
    private record Run(PerftestPeers.Outcome client, PerftestPeers.Outcome server, String both) {
    }

    private static Run runOnce(Pairing pairing, String[] run) throws Exception {
        String tool = run[0];
        boolean rdmaCm = List.of(run).contains("-R");
        int port = pairing == Pairing.JAVA_CLIENT_JAVA_SERVER ? JAVA_SERVER_PORTS.get(String.join(" ", run))
                : PerftestPeers.freshPort();
        // C is given its own host's IPv4 GID index (the C side always runs over there).
        List<String> c = PerftestPeers.args("/usr/bin/" + tool, "-d", device, "-p", String.valueOf(port),
                "-x", String.valueOf(there.ipv4Index()));
        c.addAll(Arrays.asList(run).subList(1, run.length));
        String peerIp = there.address(there.ipv4Index()).getHostAddress();
        String localIp = here.address(here.ipv4Index()).getHostAddress();
        PerftestPeers.Peer server;
        PerftestPeers.Peer client;
        switch (pairing) {
            case JAVA_CLIENT_C_SERVER -> {
                server = peer.startServer(port, rdmaCm, 240, 60, c);
                client = PerftestPeers.startJava(RemoteHost.concat(javaArgs(run, port, false), peerIp));
            }
            case C_CLIENT_JAVA_SERVER -> {
                server = PerftestPeers.startJava(javaArgs(run, port, false));
                if (rdmaCm) {
                    PerftestPeers.awaitRdmaCmListening(port, 60);
                } else {
                    PerftestPeers.awaitListening(port, 60);
                }
                client = peer.start(240, RemoteHost.concat(c, localIp));
            }
            default -> {
                javaServers.awaitLine(RemoteHost.LISTENING + port, 300);
                server = seconds -> javaServers.awaitServer(port, seconds);
                client = PerftestPeers.startJava(RemoteHost.concat(javaArgs(run, port, true), peerIp));
            }
        }
        PerftestPeers.Outcome cl = client.await(300);
        PerftestPeers.Outcome sv = server.await(120);
        String[] who = pairing.text.split(", ");
        return new Run(cl, sv, "\n--- " + who[0] + " ---\n" + cl.output() + "\n--- " + who[1] + " ---\n" + sv.output());
    }

    /** The side's local GID is its own host's IPv4 GID, and the remote GID it printed is the peer host's. */
    private static void checkGids(String side, PerftestOutputParser.Parsed out, RemoteHost.GidTable own,
            RemoteHost.GidTable other, String both) {
        int locals = 0;
        for (var a : out.addresses()) {
            assertTrue(a.gid() != null, side + " printed the GID of every address" + both);
            boolean local = a.side().equals("local");
            RemoteHost.GidTable host = local ? own : other;
            assertArrayEquals(host.bytes(host.ipv4Index()), a.gid(), side + ": " + a.side() + " GID" + both);
            locals += local ? 1 : 0;
        }
        assertTrue(locals > 0, side + " printed its local address" + both);
    }
}
