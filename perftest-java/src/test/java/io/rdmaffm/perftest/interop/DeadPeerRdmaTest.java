package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.faults.FaultRecords;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A Java server whose client (Debian's C perftest, or perftest-java in its own JVM) is killed with SIGKILL at a
 * phase of the run: right after the exchange connected the QPs ("remote address" printed), in the measured
 * loop (1.5 s after the table header), or in the final exchange after the loop (reports, closing handshake:
 * the client reaches the server through a {@link ReportCuttingRelay}, which passes half of the client's first
 * message after the loop and kills it there). The Java survivor must end within its {@code --timeout} plus a margin,
 * exit 1, print one error line and no stack trace, and leave the device's kernel objects where they were. A
 * peer that dies before or inside the TCP exchange is covered without a device by ExitCodesTest and
 * ExchangeFuzzTest (the kernel closes a killed process's socket: the survivor sees the same close).
 *
 * <p>Per push: six cases of ib_write_bw and ib_send_lat, every peer and phase; {@code -Dfaults.full=true}: all
 * eight tools, each with both peers at all three phases.
 */
@Tag("rdma")
class DeadPeerRdmaTest {
    private static final int TIMEOUT_S = 5;
    /** The survivor's limit after the kill: its --timeout plus the emulated CPU's slowness. */
    private static final int MARGIN_S = 25;
    /** The reporting phase's -D: its loop must end for the final exchange to begin. */
    private static final int REPORTING_DURATION_S = 4;
    private static FaultRecords records;
    /** The device's objects before the first case; a killed peer's are freed by the kernel after it has gone. */
    private static String baseline;

    @BeforeAll
    static void open() throws Exception {
        records = FaultRecords.open("dead-peer");
        baseline = RdmaResources.summary(PerftestPeers.device());
    }

    @AfterAll
    static void close() {
        records = null;
    }

    static Stream<Arguments> cases() {
        List<String> tools = Boolean.getBoolean("faults.full")
                ? List.of("ib_write_bw", "ib_write_lat", "ib_send_bw", "ib_send_lat", "ib_read_bw", "ib_read_lat",
                        "ib_atomic_bw", "ib_atomic_lat")
                : List.of("ib_write_bw", "ib_send_lat");
        List<Arguments> all = new ArrayList<>();
        for (String tool : tools) {
            for (String peer : List.of("C", "Java")) {
                for (String phase : List.of("connected", "measuring", "reporting")) {
                    // ib_write_lat has no final exchange: both sides just exit after the loop (perftest's quirk)
                    if (phase.equals("reporting") && tool.equals("ib_write_lat")) {
                        continue;
                    }
                    all.add(Arguments.of(tool, peer, phase));
                }
            }
        }
        if (!Boolean.getBoolean("faults.full")) {
            // ~25 s a case in CI's emulated VM: per push six, every peer and phase once
            return Stream.of(
                    Arguments.of("ib_write_bw", "C", "measuring"), Arguments.of("ib_write_bw", "Java", "connected"),
                    Arguments.of("ib_write_bw", "C", "reporting"), Arguments.of("ib_send_lat", "C", "measuring"),
                    Arguments.of("ib_send_lat", "Java", "measuring"), Arguments.of("ib_send_lat", "Java", "reporting"));
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1} client killed when {2}")
    @MethodSource("cases")
    void survivorExitsOneWithOneLine(String tool, String peer, String phase) throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        String before = RdmaResources.awaitSummary(device, baseline, 10);
        String cutAt = "";
        boolean reporting = phase.equals("reporting");
        PerftestPeers.Peer survivor;
        // Up to three tries where the C client's own clock calibration failed (it then skips the final exchange).
        for (int attempt = 1; ; attempt++) {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("-d", device, "-x", PerftestPeers.gidIndex(), "-D",
                    reporting ? String.valueOf(REPORTING_DURATION_S) : "60");
            List<String> server = new ArrayList<>(List.of(tool, "-p", String.valueOf(port)));
            server.addAll(common);
            server.addAll(List.of("--timeout", String.valueOf(TIMEOUT_S), "--accept-timeout", "120", "--warmup",
                    "0"));
            survivor = PerftestPeers.startJava(server);
            PerftestPeers.awaitListening(port, 60);

            // C perftest's stdout is a pipe here: without line buffering its table header would come only at
            // exit.
            List<String> client = new ArrayList<>(peer.equals("C") ? List.of("stdbuf", "-oL", "/usr/bin/" + tool)
                    : javaTool(tool));
            client.addAll(common);
            if (peer.equals("Java")) {
                client.addAll(List.of("--warmup", "0"));
            }
            try (ReportCuttingRelay relay = new ReportCuttingRelay(PerftestPeers.serverIp(), port)) {
                client.addAll(List.of("-p", String.valueOf(reporting ? relay.port() : port),
                        PerftestPeers.serverIp()));
                Watched victim = Watched.start(client);
                String marker = phase.equals("connected") ? "remote address" : " #bytes";
                if (!victim.awaitLine(marker, 120)) {
                    victim.kill();
                    fail("the " + peer + " client never printed '" + marker + "':\n" + victim.output());
                }
                if (!phase.equals("connected")) {
                    Thread.sleep(1500);
                }
                if (reporting) {
                    relay.arm(victim::killQuietly);
                    boolean cut = relay.awaitCut(REPORTING_DURATION_S + 60);
                    victim.kill();
                    if (!cut && peer.equals("C") && attempt < 3 && InteropRdmaTest.cClockFailed(victim.output())) {
                        System.out.println("retrying: C perftest's clock calibration failed under emulation");
                        survivor.await(TIMEOUT_S + MARGIN_S);
                        RdmaResources.awaitSummary(device, before, 10);
                        continue;
                    }
                    if (!cut) {
                        fail("the " + peer + " client sent nothing after its loop:\n" + victim.output());
                    }
                    cutAt = relay.describeCut();
                } else {
                    victim.kill();
                }
            }
            break;
        }
        long t0 = System.nanoTime();
        PerftestPeers.Outcome out = survivor.await(TIMEOUT_S + MARGIN_S);
        double seconds = (System.nanoTime() - t0) / 1e9;
        String after = RdmaResources.awaitSummary(device, before, 10);
        String caseName = tool + ", " + peer + " client killed when " + phase;
        String line = PerftestPeers.errorLine(out.output());
        records.add("peer SIGKILLed", caseName + (reporting ? " (server got " + cutAt + ")" : ""),
                "exit " + out.exitCode() + ": " + line, seconds, -1,
                before.equals(after) ? "" : after, "Java server survives");

        assertEquals(1, out.exitCode(), caseName + ":\n" + out.output());
        assertFalse(out.output().contains("\tat "), "no stack trace: " + out.output());
        assertFalse(line.isEmpty(), "no error line: " + out.output());
        assertEquals(before, after, "rdma resources after the run");
    }

    /** perftest-java's tool in a JVM of its own, as a user starts it (modules on the class path, C1 only). */
    private static List<String> javaTool(String tool) {
        String classPath = String.join(java.io.File.pathSeparator, Stream.of(System.getProperty("jdk.module.path"),
                System.getProperty("java.class.path")).filter(s -> s != null && !s.isBlank()).toList());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                "io.rdmaffm.perftest.cli.Main", tool);
    }

    /** A process whose output is read as it comes, to kill it at a line. */
    private static final class Watched {
        private final Process process;
        private final StringBuffer output = new StringBuffer();

        private Watched(Process process) {
            this.process = process;
        }

        static Watched start(List<String> command) throws IOException {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            Watched w = new Watched(p);
            Thread t = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        w.output.append(l).append('\n');
                    }
                } catch (IOException e) {
                    w.output.append("(output ended: ").append(e.getMessage()).append(")\n");
                }
            }, "victim-output");
            t.setDaemon(true);
            t.start();
            return w;
        }

        boolean awaitLine(String contains, long seconds) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < deadline) {
                if (output.indexOf(contains) >= 0) {
                    return true;
                }
                if (!process.isAlive() && output.indexOf(contains) < 0) {
                    Thread.sleep(200); // the reader may still be draining
                    return output.indexOf(contains) >= 0;
                }
                Thread.sleep(20);
            }
            return false;
        }

        void kill() throws InterruptedException {
            process.destroyForcibly(); // SIGKILL on Linux
            process.waitFor(10, TimeUnit.SECONDS);
        }

        /** {@link #kill} for the relay's thread. */
        void killQuietly() {
            try {
                kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        String output() {
            return output.toString();
        }
    }
}
