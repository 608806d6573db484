package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code --run_infinitely} on Soft-RoCE: a Java sender in a JVM of its own prints a row every second until it is
 * sent SIGINT (Ctrl-C), then ends the run cleanly: exit 0, its peer (perftest-java, or Debian's C perftest) ends
 * with exit 0 and the sender's whole-run row, and the device holds no more objects than before.
 */
@Tag("rdma")
class RunInfinitelyRdmaTest {
    private static final Pattern ROW = Pattern.compile("(?m)^ 65536 +(\\d+) +0\\.00 +([0-9.]+) ");

    /** CI's short form: a Java passive side; the full form (scripts/interop-full.sh) adds C's. */
    static Stream<String> passiveSides() {
        return Boolean.getBoolean("interop.full") ? Stream.of("Java", "C") : Stream.of("Java");
    }

    @ParameterizedTest(name = "Java sender, {0} passive side")
    @MethodSource("passiveSides")
    void rowsUntilSigintThenBothSidesEndCleanly(String passive) throws Exception {
        String device = PerftestPeers.device();
        if (passive.equals("C")) {
            PerftestPeers.requireCPerftest();
        }
        String baseline = RdmaResources.summary(device);
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(port), "-D", "1", "--run_infinitely");
        List<String> server = new ArrayList<>(passive.equals("C") ? List.of("/usr/bin/ib_write_bw") : List.of());
        server.addAll(common);
        PerftestPeers.Peer sv = passive.equals("C") ? PerftestPeers.startC(server)
                : PerftestPeers.startJava(concat(List.of("ib_write_bw"), server, List.of("--warmup", "0")));
        PerftestPeers.awaitListening(port, 60);
        // no warm-up: the rows and the end are checked, not the figures (and CI's budget)
        List<String> client = concat(javaTool("ib_write_bw"), common, List.of("--warmup", "0",
                PerftestPeers.serverIp()));
        Process p = new ProcessBuilder(client).redirectErrorStream(true).start();
        StringBuffer out = new StringBuffer();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    out.append(l).append('\n');
                }
            } catch (IOException e) {
                out.append("(output ended: ").append(e.getMessage()).append(")\n");
            }
        }, "sender-output");
        reader.setDaemon(true);
        reader.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (rows(out.toString()) < 3 && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertTrue(p.isAlive(), "the sender runs until stopped:\n" + out);
        assertTrue(rows(out.toString()) >= 3, "a row every second:\n" + out);
        new ProcessBuilder("kill", "-INT", String.valueOf(p.pid())).inheritIO().start().waitFor();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the sender ends after SIGINT:\n" + out);
        reader.join(5_000);
        PerftestPeers.Outcome peer = sv.await(60);
        String both = "\n--- sender (Java) ---\n" + out + "\n--- " + passive + " ---\n" + peer.output();
        assertEquals(0, p.exitValue(), "sender's exit status" + both);
        assertEquals(0, peer.exitCode(), "passive side's exit status" + both);
        assertTrue(out.toString().contains(" User stopped traffic"), both);
        long intervals = 0;
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            assertTrue(Long.parseLong(m.group(1)) > 0 && Double.parseDouble(m.group(2)) > 0,
                    "each interval's row counts messages: " + m.group() + both);
            intervals += Long.parseLong(m.group(1));
        }
        // The passive side prints the sender's whole run, as Debian's C does (upstream's later " Client closed
        // connection" is not in 4.5-0.17): every interval's messages and those after the last row.
        List<io.rdmaffm.perftest.report.PerftestOutputParser.BwRow> peerRows =
                io.rdmaffm.perftest.report.PerftestOutputParser.parse(peer.output()).bwRows();
        assertEquals(1, peerRows.size(), "one row on the passive side" + both);
        assertTrue(peerRows.get(0).iters() >= intervals, "the whole run's count: " + peerRows.get(0) + both);
        assertEquals(baseline, RdmaResources.summary(device), "nothing left on the device" + both);
    }

    private static int rows(String out) {
        int n = 0;
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            n++;
        }
        return n;
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        return Stream.of(parts).flatMap(List::stream).toList();
    }

    /** perftest-java's tool in a JVM of its own, as a user starts it: SIGINT goes to it alone. */
    private static List<String> javaTool(String tool) {
        String classPath = String.join(java.io.File.pathSeparator, Stream.of(System.getProperty("jdk.module.path"),
                System.getProperty("java.class.path")).filter(s -> s != null && !s.isBlank()).toList());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "io.rdmaffm.perftest.cli.Main", tool);
    }
}
