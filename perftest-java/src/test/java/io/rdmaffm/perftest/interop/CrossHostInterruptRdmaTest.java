package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C on {@code rdma-perftest matrix} while a pair runs, on two VMs with the ssh launcher, as a user at a
 * terminal does it: SIGINT to the driver, a process of its own (bin/rdma-perftest). The driver must end within
 * seconds and leave no tool running and no QP behind on either host: the remote ends are stopped by pid over ssh
 * by its shutdown hook, they do not wait out their own timeouts.
 */
@Tag("multihost")
class CrossHostInterruptRdmaTest {
    /**
     * A perftest-java end as the matrix starts it: the host's worker (the default), or the tool itself with
     * {@code --launch per-test}, by the launchers' entry point (cli.EarlyListen since the start-up work; cli.Main
     * where a JVM is started by hand); the brackets keep pgrep from matching the shell that runs it.
     */
    private static final String TOOL_PATTERN = "[c]li.(EarlyListen|Main) (ib_write_bw|matrix-worker)";
    /** Ctrl-C to every end gone: the driver's kills are bounded by its --connect-timeout (5 s) twice over. */
    private static final long STOP_BOUND_S = 30;

    @TempDir
    Path dir;

    @Test
    void ctrlCStopsEveryEndTheMatrixStarted() throws Exception {
        List<String> hosts = RemoteHost.clusterHosts().subList(0, 2);
        String device = PerftestPeers.device();
        List<RemoteHost> ends = List.of(new RemoteHost(hosts.get(0)), new RemoteHost(hosts.get(1)));
        List<Integer> qpsBefore = new ArrayList<>();
        for (RemoteHost h : ends) {
            assertEquals(0, running(h), h.name + " runs a tool before the test");
            qpsBefore.add(queuePairs(h, device));
        }
        Path tool = remoteTool();
        // So long on the emulated link that it is still running when interrupted, whatever the machine's load.
        List<String> cmd = List.of(RemoteHost.ROOT.resolve("bin/rdma-perftest").toString(), "matrix", "--hosts",
                String.join(",", hosts), "--device", device, "--tools", "ib_write_bw", "--tool-path",
                tool.toString(), "--no-retest", "--connect-timeout", "5", "--listen-timeout", "300", "--test-timeout",
                "900", "--json", dir.resolve("m.json").toString(), "--", "-s", "4096", "-n", "1000000", "--warmup",
                "0");
        Path log = dir.resolve("driver.out");
        Process driver = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            awaitBothEnds(ends, qpsBefore, device, driver, log);
            long start = System.nanoTime();
            new ProcessBuilder("kill", "-INT", Long.toString(driver.pid())).start().waitFor(10, TimeUnit.SECONDS);
            assertTrue(driver.waitFor(STOP_BOUND_S, TimeUnit.SECONDS),
                    "the driver still runs " + STOP_BOUND_S + " s after Ctrl-C:\n" + Files.readString(log));
            double driverSeconds = (System.nanoTime() - start) / 1e9;
            assertTrue(driver.exitValue() != 0, "exit " + driver.exitValue() + " after Ctrl-C");
            for (RemoteHost h : ends) {
                awaitNoTool(h, start, log);
            }
            double allSeconds = (System.nanoTime() - start) / 1e9;
            for (int i = 0; i < ends.size(); i++) {
                assertEquals(qpsBefore.get(i), queuePairs(ends.get(i), device),
                        "QPs left on " + ends.get(i).name + " after Ctrl-C");
            }
            String out = Files.readString(log);
            assertTrue(!out.contains("hs_err") && !out.contains("\tat "), "a crash or a stack trace:\n" + out);
            System.out.printf(Locale.ROOT, "Ctrl-C: driver gone in %.1f s (exit %d), every end in %.1f s%n",
                    driverSeconds, driver.exitValue(), allSeconds);
        } finally {
            driver.destroyForcibly();
        }
    }

    /**
     * Until a perftest-java end runs on each host and has its QP (the pair's measurement started: a worker is up
     * before its tool runs), at most 300 s.
     */
    private static void awaitBothEnds(List<RemoteHost> ends, List<Integer> qpsBefore, String device, Process driver,
            Path log) throws Exception {
        long deadline = System.nanoTime() + 300_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!driver.isAlive()) {
                throw new AssertionError("the matrix ended (exit " + driver.exitValue() + ") before both ends ran:\n"
                        + Files.readString(log));
            }
            if (running(ends.get(0)) > 0 && running(ends.get(1)) > 0
                    && queuePairs(ends.get(0), device) > qpsBefore.get(0)
                    && queuePairs(ends.get(1), device) > qpsBefore.get(1)) {
                return;
            }
            Thread.sleep(2000);
        }
        throw new AssertionError("both ends did not run within 300 s:\n" + Files.readString(log));
    }

    private static void awaitNoTool(RemoteHost h, long since, Path log) throws Exception {
        long deadline = since + STOP_BOUND_S * 1_000_000_000L;
        while (running(h) > 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("a tool still runs on " + h.name + " " + STOP_BOUND_S + " s after Ctrl-C\n"
                        + h.run(30, List.of("sh", "-c", "ps -eo pid,etimes,args | grep -E '" + TOOL_PATTERN + "'; true"))
                        + "\n--- driver ---\n" + Files.readString(log));
            }
            Thread.sleep(1000);
        }
    }

    /** How many perftest-java tool processes run on {@code h}. */
    private static int running(RemoteHost h) throws Exception {
        return Integer.parseInt(h.run(30, List.of("sh", "-c", "pgrep -c -f '" + TOOL_PATTERN + "'; true")).trim());
    }

    /** The QPs of {@code device} on {@code h} ({@code rdma resource show qp}: one line per QP). */
    private static int queuePairs(RemoteHost h, String device) throws Exception {
        String out = h.run(30, List.of("rdma", "resource", "show", "qp"));
        return (int) out.lines().filter(l -> l.contains("link " + device + "/") && l.contains("lqpn")).count();
    }

    /** The tool as the matrix starts it on each host: C1 only, as the other cross-host tests' remote JVMs. */
    private Path remoteTool() throws Exception {
        Path tool = RemoteHost.ROOT.resolve("perftest-java/target/interrupt-vm/rdma-perftest");
        Files.createDirectories(tool.getParent());
        Files.writeString(tool, "#!/bin/sh\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec "
                + RemoteHost.ROOT.resolve("bin/rdma-perftest") + " \"$@\"\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        return tool;
    }
}
