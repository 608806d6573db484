package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On rxe: {@code -q 4 --threads 2} on the bandwidth tools against a Java peer and against C perftest (which knows
 * nothing of it: the wire is the single thread's), the figures exact (the JSON's messages are -n x -q, its bytes
 * messages x size, the row's message rate times its size its bandwidth) and the loop threads seen running. CI's
 * short form is one case (write, Java client, C server); {@code -Dinterop.full=true} runs write, read and send
 * with Java as client, as server and on both sides.
 */
@Tag("rdma")
class ThreadsRdmaTest {
    private static final int ITERS = 3000;
    private static final int SIZE = 4096;
    private static final int QPS = 4;

    /** Who runs each side. */
    enum Peers {
        JAVA_CLIENT_C_SERVER, C_CLIENT_JAVA_SERVER, JAVA_BOTH
    }

    static Stream<Arguments> cases() {
        if (!Boolean.getBoolean("interop.full")) {
            return Stream.of(Arguments.of("ib_write_bw", Peers.JAVA_CLIENT_C_SERVER));
        }
        List<Arguments> all = new ArrayList<>();
        for (String tool : List.of("ib_write_bw", "ib_read_bw", "ib_send_bw")) {
            for (Peers peers : Peers.values()) {
                all.add(Arguments.of(tool, peers));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("cases")
    void twoThreadsDriveFourQpsExactlyAgainstAnyPeer(String tool, Peers peers) throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        boolean javaClient = peers != Peers.C_CLIENT_JAVA_SERVER;
        boolean javaServer = peers != Peers.JAVA_CLIENT_C_SERVER;
        for (int attempt = 0; ; attempt++) {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                    String.valueOf(port), "-n", String.valueOf(ITERS), "-s", String.valueOf(SIZE), "-q",
                    String.valueOf(QPS));
            Path json = Files.createTempFile("threads", ".json");
            List<String> java = new ArrayList<>(List.of(tool));
            java.addAll(common);
            java.addAll(List.of("--threads", "2", "--warmup", "1000", "--out_json", "--out_json_file", json.toString()));
            List<String> c = new ArrayList<>(List.of("/usr/bin/" + tool));
            c.addAll(common);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            AtomicBoolean running = new AtomicBoolean(true);
            Thread watcher = Thread.ofPlatform().daemon(true).start(() -> {
                while (running.get()) {
                    for (Thread t : Thread.getAllStackTraces().keySet()) {
                        if (t.getName().startsWith("bw-loop-")) {
                            seen.add(t.getName());
                        }
                    }
                    try {
                        Thread.sleep(2);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            PerftestPeers.Peer server;
            if (javaServer) {
                // the Java server writes its own JSON: the client's (where Java) is the one read below
                List<String> s = new ArrayList<>(java.subList(0, java.indexOf("--out_json")));
                server = PerftestPeers.startJava(s);
            } else {
                server = PerftestPeers.startC(c);
            }
            PerftestPeers.awaitListening(port, 60);
            PerftestPeers.Peer client;
            if (javaClient) {
                java.add(PerftestPeers.serverIp());
                client = PerftestPeers.startJava(java);
            } else {
                List<String> s = new ArrayList<>(c);
                s.add(PerftestPeers.serverIp());
                client = PerftestPeers.startC(s);
            }
            PerftestPeers.Outcome cl = client.await(240);
            PerftestPeers.Outcome sv = server.await(60);
            running.set(false);
            watcher.join();
            String both = "\n--- client ---\n" + cl.output() + "\n--- server ---\n" + sv.output();
            String cOut = javaClient ? (javaServer ? "" : sv.output()) : cl.output();
            if (InteropRdmaTest.cClockFailed(cOut) && attempt < 2) {
                System.out.println("retrying: C perftest's clock calibration failed under emulation" + both);
                continue;
            }
            assertEquals(0, cl.exitCode(), "client exit code" + both);
            assertEquals(0, sv.exitCode(), "server exit code" + both);
            // A Java side runs loops as the client, and as the send_bw server (write and read servers are passive).
            if (javaClient || tool.equals("ib_send_bw")) {
                assertTrue(seen.contains("bw-loop-1"), "a second loop thread ran: " + seen + both);
            }
            // Every side that prints a row prints a sane one: message rate x size is the bandwidth (MiB/s).
            for (PerftestPeers.Outcome side : List.of(cl, sv)) {
                for (PerftestOutputParser.BwRow row : PerftestOutputParser.parse(side.output()).bwRows()) {
                    assertEquals(SIZE, row.size(), both);
                    assertTrue(row.bwAvg() > 0 && row.msgRate() > 0, both);
                    double implied = row.msgRate() * 1e6 * SIZE / (1 << 20);
                    assertEquals(row.bwAvg(), implied, Math.max(0.02, row.bwAvg() * 0.01), "BW = rate x size" + both);
                }
            }
            assertTrue(!PerftestOutputParser.parse(cl.output()).bwRows().isEmpty(), "the client's row" + both);
            if (javaClient) {
                String doc = Files.readString(json);
                assertTrue(doc.contains("\"threads\": 2"), "the JSON records the threads: " + doc);
                Matcher m = Pattern.compile("\"messages\": (\\d+),\\s*\"bytes\": (\\d+)").matcher(doc);
                assertTrue(m.find(), doc);
                assertEquals((long) ITERS * QPS, Long.parseLong(m.group(1)), "every QP's iterations: " + doc);
                assertEquals((long) ITERS * QPS * SIZE, Long.parseLong(m.group(2)), "bytes = messages x size: " + doc);
            }
            Files.deleteIfExists(json);
            return;
        }
    }
}
