package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.counters.CounterChange;
import io.rdmaffm.perftest.counters.EthtoolStats;
import io.rdmaffm.perftest.counters.PortCounters;
import io.rdmaffm.perftest.report.PerftestOutputParser;
import io.rdmaffm.verbs.topology.Sysfs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On rxe: the port's real counters rise with traffic and {@code -W} prints their change as C does, against a C
 * peer; {@code --tclass} (TCP exchange) and {@code -T} (with {@code -R}) interoperate with C perftest both ways.
 * Short form for CI: 2 B to 64 KiB messages, a few hundred iterations per case.
 */
@Tag("rdma")
class CountersAndClassRdmaTest {
    private static final String W = "hw_counters/sent_pkts,hw_counters/rcvd_pkts";
    private static final Pattern BLOCK = Pattern.compile(
            "\n\thw_counters/sent_pkts=(\\d+)\n\thw_counters/rcvd_pkts=(\\d+)\n\n");

    private record Pair(PerftestPeers.Outcome client, PerftestPeers.Outcome server, String both) {
    }

    /** One run of ib_write_bw with {@code extra} on both sides; C's failed clock calibration is retried. */
    private static Pair run(boolean javaIsClient, List<String> cExtra, List<String> javaExtra, boolean rdmaCm)
            throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        Pair last = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                    String.valueOf(port), "-n", "300", "-s", "65536");
            List<String> c = new ArrayList<>(List.of("/usr/bin/ib_write_bw"));
            c.addAll(common);
            c.addAll(cExtra);
            List<String> java = new ArrayList<>(List.of("ib_write_bw"));
            java.addAll(common);
            java.addAll(javaExtra);
            java.addAll(List.of("--warmup", "1000"));
            PerftestPeers.Peer server;
            PerftestPeers.Peer client;
            if (javaIsClient) {
                server = PerftestPeers.startC(c);
                await(rdmaCm, port, 30);
                java.add(PerftestPeers.serverIp());
                client = PerftestPeers.startJava(java);
            } else {
                server = PerftestPeers.startJava(java);
                await(rdmaCm, port, 60);
                c.add(PerftestPeers.serverIp());
                client = PerftestPeers.startC(c);
            }
            PerftestPeers.Outcome cl = client.await(240);
            PerftestPeers.Outcome sv = server.await(60);
            last = new Pair(cl, sv, "\n--- client (" + (javaIsClient ? "Java" : "C") + ") ---\n" + cl.output()
                    + "\n--- server (" + (javaIsClient ? "C" : "Java") + ") ---\n" + sv.output());
            if (!InteropRdmaTest.cClockFailed(javaIsClient ? sv.output() : cl.output())) {
                break;
            }
            System.out.println("retrying: C perftest's clock calibration failed under emulation" + last.both());
        }
        assertEquals(0, last.client().exitCode(), "client exit code" + last.both());
        assertEquals(0, last.server().exitCode(), "server exit code" + last.both());
        return last;
    }

    private static void await(boolean rdmaCm, int port, long seconds) throws Exception {
        if (rdmaCm) {
            PerftestPeers.awaitRdmaCmListening(port, seconds);
        } else {
            PerftestPeers.awaitListening(port, seconds);
        }
    }

    @Test
    void rxeCountersRiseWithTrafficAndMinusWPrintsThemAsCDoes() throws Exception {
        String device = PerftestPeers.device();
        Sysfs fs = new Sysfs(Path.of("/"));
        PortCounters before = PortCounters.take(fs, device, 1, System.getenv("RDMA_NETDEV"), EthtoolStats.forLiveHost());
        Path json = Files.createTempFile("counters", ".json");
        Pair p = run(true, List.of("-W", W), List.of("-W", W, "--out_json", "--out_json_file", json.toString()), false);
        PortCounters after = PortCounters.take(fs, device, 1, System.getenv("RDMA_NETDEV"), EthtoolStats.forLiveHost());
        CounterChange change = new CounterChange(before, after);
        // 300 x 64 KiB at rxe's MTU is thousands of packets each way (both QPs are on this device).
        assertTrue(change.delta("hw_counters/sent_pkts").value() >= 300, change.deltas().toString());
        assertTrue(change.delta("hw_counters/rcvd_pkts").value() >= 300, change.deltas().toString());
        // rxe has no PMA counters/ and none of mlx5's congestion counters: absent, never 0
        assertEquals(device + " port 1 has no counters/ directory", change.delta("counters/port_xmit_wait").problem());
        assertFalse(change.delta("hw_counters/np_cnp_sent").known());

        for (PerftestPeers.Outcome side : List.of(p.client(), p.server())) {
            // after the row: each counter's change, then an empty line (the Java client's and the C server's)
            String row = PerftestOutputParser.parse(side.output()).bwRows().isEmpty() ? "" : "row";
            assertEquals("row", row, "a BW row" + p.both());
            Matcher m = BLOCK.matcher(side.output());
            assertTrue(m.find(), "the -W block after the row" + p.both());
            assertTrue(Long.parseLong(m.group(1)) > 0 && Long.parseLong(m.group(2)) > 0, m.group() + p.both());
        }
        String java = p.client().output();
        assertTrue(Pattern.compile("\\d\n\thw_counters/sent_pkts=").matcher(java).find(), "right after the row: " + java);
        String doc = Files.readString(json);
        Files.deleteIfExists(json);
        assertTrue(Pattern.compile("\"counters\": \\{\\s*\"device\": \"" + device + "\",\\s*\"port\": 1,[\\s\\S]*"
                + "\"deltas\": \\[\\s*\\{\\s*\"hw_counters/sent_pkts\": [1-9]\\d*,").matcher(doc).find(), doc);
    }

    @Test
    void aCounterThePortLacksIsOneLineAndExitTwo() throws Exception {
        PerftestPeers.Outcome o = PerftestPeers.startJava(PerftestPeers.args("ib_write_bw", "-d", PerftestPeers.device(),
                "-x", PerftestPeers.gidIndex(), "-p", String.valueOf(PerftestPeers.freshPort()), "--warmup", "0",
                "-W", "hw_counters/rcvd_pkts,counters/port_xmit_wait")).await(120);
        assertEquals(2, o.exitCode(), o.output());
        assertTrue(o.output().contains("-W: cannot read counter counters/port_xmit_wait of " + PerftestPeers.device()
                + " port 1: the port has no such counter"), o.output());
    }

    /** Each flag with Java as the client and as the server; CI's short form one way each (Java client for --tclass). */
    static Stream<Arguments> classCases() {
        return Boolean.getBoolean("interop.full")
                ? Stream.of(Arguments.of(true, "--tclass"), Arguments.of(false, "--tclass"), Arguments.of(true, "-T"),
                        Arguments.of(false, "-T"))
                : Stream.of(Arguments.of(true, "--tclass"), Arguments.of(false, "-T"));
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("classCases")
    void theClassInteroperatesWithCPerftest(boolean javaIsClient, String flag) throws Exception {
        boolean rdmaCm = flag.equals("-T");
        List<String> extra = rdmaCm ? List.of("-R", "-T", "96") : List.of("--tclass=96");
        Pair p = run(javaIsClient, extra, extra, rdmaCm);
        assertFalse(PerftestOutputParser.parse(p.client().output()).bwRows().isEmpty(), "a BW row" + p.both());
        if (rdmaCm) {
            // C's banner names the type of service; Java's banner is C's
            assertTrue(p.client().output().contains("Data ex. method : rdma_cm \tTOS    : 96"), p.both());
        }
    }
}
