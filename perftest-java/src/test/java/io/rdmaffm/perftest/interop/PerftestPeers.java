package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.cli.Main;
import org.junit.jupiter.api.Assumptions;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs perftest peers for the interop tests: the Java tool in this JVM (so the JIT stays warm between runs)
 * and Debian's C binaries as processes. Every wait is bounded.
 */
final class PerftestPeers {
    private static final AtomicInteger NEXT_PORT = new AtomicInteger(19000 + (int) (ProcessHandle.current().pid() % 1000));

    private PerftestPeers() {
    }

    /** The device and GID index from the test scripts; skips when there is no RDMA device. */
    static String device() {
        String d = System.getenv("RDMA_DEVICE");
        Assumptions.assumeTrue(d != null, "no RDMA device (RDMA_DEVICE unset): run the rdma tests with scripts/test.sh");
        return d;
    }

    static String gidIndex() {
        String g = System.getenv("RDMA_GID_INDEX");
        return g == null ? "1" : g;
    }

    static String serverIp() {
        String ip = System.getenv("RDMA_IP");
        return ip == null ? "127.0.0.1" : ip;
    }

    static void requireCPerftest() {
        if (!Files.isExecutable(Path.of("/usr/bin/ib_write_bw"))) {
            throw new AssertionError("Debian's perftest is not installed (apt-get install perftest); scripts/test.sh installs it");
        }
    }

    static int freshPort() {
        return NEXT_PORT.getAndIncrement();
    }

    /** One side's result. */
    record Outcome(int exitCode, String output) {
    }

    /** A running peer. */
    interface Peer {
        Outcome await(long seconds) throws Exception;
    }

    static Peer startJava(List<String> args) {
        CompletableFuture<Outcome> f = CompletableFuture.supplyAsync(() -> {
            StringWriter sw = new StringWriter();
            PrintWriter pw = new PrintWriter(sw, true);
            CommandLine cl = Main.commandLine();
            cl.setOut(pw);
            cl.setErr(pw);
            int rc = cl.execute(args.toArray(String[]::new));
            pw.flush();
            return new Outcome(rc, sw.toString());
        }, runnable -> {
            Thread t = new Thread(runnable, "java-peer");
            t.setDaemon(true);
            t.start();
        });
        return seconds -> f.get(seconds, TimeUnit.SECONDS);
    }

    static Peer startC(List<String> command) throws IOException {
        String cpu = System.getenv("RDMAFFM_PEER_CPU");
        List<String> cmd = new ArrayList<>();
        if (cpu != null && Files.isExecutable(Path.of("/usr/bin/taskset"))) {
            // The Soft-RoCE VM keeps JVMs on CPU 0; the C peer gets the other one.
            cmd.addAll(List.of("/usr/bin/taskset", "-c", cpu));
        }
        cmd.addAll(command);
        return startProcess(cmd);
    }

    /** Any program as a peer (e.g. bin/rdma-perftest in its own JVM), on the CPUs this JVM has. */
    static Peer startProcess(List<String> cmd) throws IOException {
        Path log = Files.createTempFile("perftest-peer", ".out");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return seconds -> {
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(5, TimeUnit.SECONDS);
                return new Outcome(-1, cmd.get(0) + " did not finish within " + seconds + " s\n" + Files.readString(log));
            }
            String out = Files.readString(log);
            Files.deleteIfExists(log);
            return new Outcome(p.exitValue(), out);
        };
    }

    /** Waits until something listens on the TCP port (IPv4 or IPv6), at most {@code seconds}. */
    static void awaitListening(int port, long seconds) throws Exception {
        String hex = String.format(":%04X", port);
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            for (String file : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path f = Path.of(file);
                if (!Files.exists(f)) {
                    continue;
                }
                for (String line : Files.readAllLines(f)) {
                    String[] cols = line.trim().split("\\s+");
                    if (cols.length > 3 && cols[1].endsWith(hex) && cols[3].equals("0A")) {
                        return;
                    }
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("nothing listened on port " + port + " within " + seconds + " s");
    }

    /**
     * Waits until an rdma_cm id listens on {@code port} (perftest {@code -R} has no TCP socket), as iproute2's
     * {@code rdma res show cm_id} lists it: "... state LISTEN ps TCP ... src-addr 0.0.0.0:PORT".
     */
    static void awaitRdmaCmListening(int port, long seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        String suffix = ":" + port;
        while (System.nanoTime() < deadline) {
            Process p = new ProcessBuilder("rdma", "res", "show", "cm_id").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes());
            p.waitFor(5, TimeUnit.SECONDS);
            for (String line : out.split("\n")) {
                String[] cols = line.trim().split("\\s+");
                for (int i = 0; i + 1 < cols.length; i++) {
                    if (line.contains("state LISTEN") && cols[i].equals("src-addr") && cols[i + 1].endsWith(suffix)) {
                        return;
                    }
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("no rdma_cm id listened on port " + port + " within " + seconds + " s");
    }

    /** A tool's "TOOL: error: ..." line in {@code output}, or "" when it printed none. */
    static String errorLine(String output) {
        for (String l : output.split("\n")) {
            if (l.contains(": error: ")) {
                return l.strip();
            }
        }
        return "";
    }

    static List<String> args(String... a) {
        return new ArrayList<>(List.of(a));
    }
}
