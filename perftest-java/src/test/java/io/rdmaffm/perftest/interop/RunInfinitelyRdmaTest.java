package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
 * {@code --run_infinitely} on Soft-RoCE: a Java side in a JVM of its own prints a row every second until it is
 * sent SIGINT (Ctrl-C), then ends the run cleanly: exit 0, its peer (perftest-java, or Debian's C perftest) ends
 * as C's would or cleaner, and the device holds no more objects than before.
 *
 * <p>Debian's C perftest runs with {@code -F} here: C 4.5 calibrates its clock again for every row, and under
 * TCG the calibration fails for most rows; without {@code -F} that ends C ("Can't produce a report", exit 1)
 * after a row or two, which a Java peer then sees as a peer that went away. With {@code -F} C prints the row
 * with 0.00 figures instead (its message count stays right) and keeps running, as it would on real hardware.
 */
@Tag("rdma")
class RunInfinitelyRdmaTest {
    private static final Pattern ROW = Pattern.compile("(?m)^ 65536 +(\\d+) +0\\.00 +([0-9.]+) ");

    /** Full form only (scripts/interop-full.sh): CI's budget keeps the two both-loop cases below. */
    static Stream<String> passiveSides() {
        return Boolean.getBoolean("interop.full") ? Stream.of("Java", "C") : Stream.of();
    }

    @ParameterizedTest(name = "Java sender, {0} passive side", allowZeroInvocations = true)
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
        List<String> server = new ArrayList<>(passive.equals("C") ? List.of("/usr/bin/ib_write_bw", "-F") : List.of());
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

    /**
     * One case of the runs where both sides loop until stopped (ib_send_bw's receiver, {@code -b}): who runs each
     * side (Java or C), and which side gets SIGINT.
     */
    record BothLoop(String tool, List<String> extra, String client, String server, boolean stopServer) {
        @Override
        public String toString() {
            return tool + String.join(" ", extra) + ": " + client + " client, " + server + " server, SIGINT to the "
                    + (stopServer ? "server" : "client");
        }
    }

    /**
     * CI's short form: a Java sender to C's send receiver (SIGINT to Java) and Java on both sides of {@code -b}
     * (SIGINT to the server); the full form (-Dinterop.full=true, scripts/interop-full.sh) adds the rest, C's
     * sender to a Java receiver and {@code -b} against C both ways among them.
     */
    static Stream<BothLoop> bothLoopCases() {
        List<BothLoop> all = new ArrayList<>(List.of(
                new BothLoop("ib_send_bw", List.of(), "Java", "C", false),
                new BothLoop("ib_write_bw", List.of("-b"), "Java", "Java", true)));
        if (Boolean.getBoolean("interop.full")) {
            all.addAll(List.of(
                    new BothLoop("ib_send_bw", List.of(), "Java", "Java", false),
                    new BothLoop("ib_send_bw", List.of(), "Java", "Java", true),
                    new BothLoop("ib_write_bw", List.of("-b"), "Java", "Java", false),
                    new BothLoop("ib_read_bw", List.of("-b"), "Java", "Java", false),
                    new BothLoop("ib_send_bw", List.of(), "C", "Java", false),
                    new BothLoop("ib_write_bw", List.of("-b"), "Java", "C", false),
                    new BothLoop("ib_write_bw", List.of("-b"), "C", "Java", false)));
        }
        return all.stream();
    }

    /**
     * Both sides print a row every second; SIGINT to one ends both. A perftest-java side ends with exit 0 (the one
     * stopped says " User stopped traffic", its peer learns the end from the exchange connection's close) and the
     * device holds no more objects than before. Debian's C perftest 4.5-0.17 has no SIGINT handler and its loops
     * never return: stopped, it dies (exit 130), and as the peer of a stopped Java side it keeps looping (its
     * send receiver prints rows of 0 messages; its -b sender fails once the Java side's QPs are gone), as it does
     * with a C peer, until it is stopped too.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("bothLoopCases")
    void bothSidesLoopUntilOneIsStopped(BothLoop c) throws Exception {
        String device = PerftestPeers.device();
        if (c.client().equals("C") || c.server().equals("C")) {
            PerftestPeers.requireCPerftest();
        }
        String baseline = RdmaResources.summary(device);
        for (int attempt = 1; ; attempt++) {
            System.out.println(java.time.Instant.now() + " " + c + ": attempt " + attempt);
            String clockFailure = bothLoopOnce(c, device, baseline);
            if (clockFailure == null) {
                return;
            }
            assertTrue(attempt < 3, "C perftest's clock calibration failed 3 times:" + clockFailure);
            System.out.println("retrying: C perftest's clock calibration failed under emulation" + clockFailure);
        }
    }

    /** One run of {@code c}; null when it passed, C's output when C's clock calibration failed (to retry). */
    private static String bothLoopOnce(BothLoop c, String device, String baseline) throws Exception {
        int port = PerftestPeers.freshPort();
        List<String> common = concat(List.of("-d", device, "-x", PerftestPeers.gidIndex(), "-p",
                String.valueOf(port), "-D", "1", "--run_infinitely"), c.extra());
        // no warm-up: the rows and the end are checked, not the figures (and CI's budget)
        List<String> javaOnly = List.of("--warmup", "0");
        Side server = Side.start(c.server(), c.tool(), concat(common, c.server().equals("Java") ? javaOnly : List.of()),
                c.stopServer());
        PerftestPeers.awaitListening(port, 60);
        Side client = Side.start(c.client(), c.tool(), concat(common, c.client().equals("Java") ? javaOnly : List.of(),
                List.of(PerftestPeers.serverIp())), !c.stopServer());
        Side stopped = c.stopServer() ? server : client;
        Side other = c.stopServer() ? client : server;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (rows(stopped.out()) < 3 && stopped.alive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (stopped.c() && stopped.out().contains("Can't produce a report")) {
            stopped.interrupt();
            other.interrupt();
            other.await(60);
            stopped.await(30);
            RdmaResources.awaitSummary(device, baseline, 20);
            return "\n" + stopped.out();
        }
        assertTrue(stopped.alive(), "runs until stopped:\n" + stopped.out() + "\n--- its peer ---\n" + other.out());
        assertTrue(rows(stopped.out()) >= 3, "a row every second:\n" + stopped.out());
        System.out.println(java.time.Instant.now() + " " + c + ": " + rows(stopped.out()) + " rows, SIGINT");
        stopped.interrupt();
        int stoppedExit = stopped.await(60);
        int otherExit;
        if (other.c()) {
            // C 4.5's loop has no end of its own: a -b sender fails once our QPs are gone, a receiver loops on
            // (as with a C peer): a few seconds show which, then Ctrl-C ends it as a user would
            otherExit = other.awaitOrInterrupt(5);
        } else {
            otherExit = other.await(60);
        }
        System.out.println(java.time.Instant.now() + " " + c + ": exits " + stoppedExit + ", " + otherExit);
        String both = "\n--- stopped: " + stopped.who + " ---\n" + stopped.out() + "\n--- other: " + other.who + " ---\n"
                + other.out();
        if (other.c() && other.out().contains("Can't produce a report")) {
            RdmaResources.awaitSummary(device, baseline, 20);
            return both;
        }
        assertEquals(stopped.c() ? 130 : 0, stoppedExit, "the stopped side's exit status" + both);
        if (!other.c()) {
            assertEquals(0, otherExit, "its peer's exit status" + both);
            assertFalse(other.out().contains("User stopped traffic"), "only the stopped side says it" + both);
        }
        if (!stopped.c()) {
            assertTrue(stopped.out().contains(" User stopped traffic"), both);
        }
        assertTrue(rows(other.out()) >= 1, "the peer printed its rows too" + both);
        for (Side s : List.of(stopped, other)) {
            // an interval may count none (a receiver's first, before a sender in a fresh JVM posts): C prints those
            // C's rows read 0.00 where its clock calibration failed under TCG (-F: it says so and goes on)
            boolean figures = !(s.c() && s.out().contains("Correlation coefficient"));
            long counted = 0;
            Matcher m = ROW.matcher(s.out());
            while (m.find()) {
                long n = Long.parseLong(m.group(1));
                if (figures) {
                    assertEquals(n > 0, Double.parseDouble(m.group(2)) > 0, "a row's bandwidth is its count's: "
                            + m.group() + both);
                }
                counted += n;
            }
            assertTrue(counted > 0, s.who + "'s rows count messages" + both);
        }
        assertEquals(baseline, RdmaResources.awaitSummary(device, baseline, 20), "nothing left on the device" + both);
        return null;
    }

    /** One side of a run, in a process of its own (SIGINT reaches it alone), or a Java side in this JVM. */
    private static final class Side {
        final String who;
        private final Process process;
        private final StringBuffer out = new StringBuffer();
        private final PerftestPeers.Peer inJvm;
        private String inJvmOut = "";

        private Side(String who, Process process, PerftestPeers.Peer inJvm) {
            this.who = who;
            this.process = process;
            this.inJvm = inJvm;
        }

        /** {@code impl} "Java" or "C"; a side that will get SIGINT, and every C side, runs in a process. */
        static Side start(String impl, String tool, List<String> args, boolean signalled) throws IOException {
            String who = impl + " " + tool;
            if (impl.equals("Java") && !signalled) {
                return new Side(who, null, PerftestPeers.startJava(concat(List.of(tool), args)));
            }
            List<String> cmd = impl.equals("C") ? concat(cPinned(), List.of("/usr/bin/" + tool, "-F"), args)
                    : concat(javaTool(tool), args);
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            Side s = new Side(who, p, null);
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        s.out.append(l).append('\n');
                    }
                } catch (IOException e) {
                    s.out.append("(output ended: ").append(e.getMessage()).append(")\n");
                }
            }, "side-output");
            reader.setDaemon(true);
            reader.start();
            return s;
        }

        boolean c() {
            return who.startsWith("C ");
        }

        String out() {
            return process == null ? inJvmOut : out.toString();
        }

        boolean alive() {
            return process != null && process.isAlive();
        }

        void interrupt() throws Exception {
            if (process != null && process.isAlive()) {
                new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).inheritIO().start().waitFor();
            }
        }

        /** The exit status once it ended; fails the test when it does not end within {@code seconds}. */
        int await(long seconds) throws Exception {
            if (process == null) {
                PerftestPeers.Outcome o = inJvm.await(seconds);
                inJvmOut = o.output();
                return o.exitCode();
            }
            boolean ended = process.waitFor(seconds, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Thread.sleep(200); // the reader's last lines
            assertTrue(ended, who + " did not end within " + seconds + " s:\n" + out);
            return process.exitValue();
        }

        /** A C side that may loop on: its status if it ended within {@code seconds}, else SIGINT's. */
        int awaitOrInterrupt(long seconds) throws Exception {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                interrupt();
            }
            return await(30);
        }
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

    /** The Soft-RoCE VM keeps JVMs on CPU 0; a C side gets the other one (as PerftestPeers.startC places it). */
    private static List<String> cPinned() {
        String cpu = System.getenv("RDMAFFM_PEER_CPU");
        return cpu != null && java.nio.file.Files.isExecutable(Path.of("/usr/bin/taskset"))
                ? List.of("/usr/bin/taskset", "-c", cpu) : List.of();
    }

    /** perftest-java's tool in a JVM of its own, as a user starts it: SIGINT goes to it alone. */
    private static List<String> javaTool(String tool) {
        String classPath = String.join(java.io.File.pathSeparator, Stream.of(System.getProperty("jdk.module.path"),
                System.getProperty("java.class.path")).filter(s -> s != null && !s.isBlank()).toList());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPath, "io.rdmaffm.perftest.cli.Main", tool);
    }
}
