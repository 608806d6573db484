package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.doctor.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's short form of {@code fabric} across the three VMs of scripts/rxe-vms.sh --vms 3 (scripts/test.sh, matrix
 * stage): a ring all-reduce of 12 KiB (a multiple of 4n = 12) with three timed iterations, the driver in this JVM
 * on rxe-host1, every worker perftest-java started over real ssh. The sums must be right on every rank, each
 * rank must have done the 2(n − 1) steps, its counters must show its packets, and busbw must be what the
 * definition gives from the ranks' own byte counts and times. Function, not speed. The full form, every pattern,
 * is scripts/fabric-vms.sh.
 */
@Tag("multihost")
class CrossHostFabricRdmaTest {

    /** Verdict rules the emulated segment and the loaded guests can trip with nothing wrong in the code. */
    private static final java.util.Set<String> EMULATION_FLAGS = java.util.Set.of("loss", "loss-outlier", "slow-link");

    /** Three JVM starts at once in the guests (tens of seconds each) and a few emulated round trips. */
    private static final long BOUND_S = 240;

    @TempDir
    Path dir;

    @Test
    void allreduceAcrossThreeHostsSumsRightWithBusbwAsDefined() throws Exception {
        MatrixOnVms vms = new MatrixOnVms(dir);
        Path json = dir.resolve("allreduce.json");
        List<String> args = new ArrayList<>(List.of("fabric", "allreduce", "--hosts", String.join(",", vms.hosts),
                "--device", vms.device, "--tool-path", vms.tool.toString(), "-s", "12K", "--iters", "3",
                "--json", json.toString(), "--listen-timeout", "120", "--test-timeout", "90"));
        CommandLine run = run(args);
        Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(json));
        // Exit 0; or 1 when the only flags are the emulated segment's: it drops packets and RC retransmits them
        // (docs/fabric-design.md §10), which --expect none flags (loss, and loss-outlier where one guest lost more),
        // and a retransmitting or starved guest's writes can take 3x the others' (slow-link). Any other flag fails.
        List<?> flagged = ((List<?>) doc.get("verdicts")).stream().map(v -> (Map<?, ?>) v)
                .filter(v -> !"OK".equals(v.get("level")) && !"NOT_JUDGED".equals(v.get("level"))).toList();
        boolean lossOnly = flagged.stream().allMatch(v -> "FLAGGED".equals(((Map<?, ?>) v).get("level"))
                && EMULATION_FLAGS.contains(((Map<?, ?>) v).get("rule")));
        assertTrue(run.code() == 0 || (run.code() == 1 && lossOnly), run.out() + run.err());
        assertTrue(run.seconds() < BOUND_S, run.seconds() + " s");
        Map<?, ?> fig = (Map<?, ?>) ((List<?>) doc.get("figures")).getFirst();
        assertEquals(0.0, fig.get("wrong"), fig.toString());
        double t = ((Number) fig.get("time_us")).doubleValue();
        double busbw = ((Number) fig.get("busbw_GBps")).doubleValue();
        double algbw = ((Number) fig.get("algbw_GBps")).doubleValue();
        assertEquals(12288 / (t * 1e3), algbw, 1e-12 * algbw + 1e-15);
        assertEquals(algbw * 4 / 3, busbw, 1e-9 * busbw);
        double slowest = 0;
        for (Object o : (List<?>) doc.get("ranks")) {
            Map<?, ?> rank = (Map<?, ?>) o;
            assertNull(rank.get("failure"), rank.toString());
            Map<?, ?> r = (Map<?, ?>) rank.get("result");
            assertEquals(4.0, r.get("steps"), r.toString());
            assertEquals(0.0, r.get("wrong"), r.toString());
            double mean = ((Number) ((Map<?, ?>) r.get("time_us")).get("mean")).doubleValue();
            slowest = Math.max(slowest, mean);
            // Per the definition: a rank sends 2(n-1) chunks of S/n per iteration, so bytes_sent / iters is
            // 2(n-1)/n x S; and busbw x t is that very figure.
            double perIter = ((Number) r.get("bytes_sent")).doubleValue() / 3;
            assertEquals(2.0 * 2 / 3 * 12288, perIter, 0.0, r.toString());
            assertEquals(perIter, busbw * t * 1e3, 1e-6 * perIter);
            Map<?, ?> delta = (Map<?, ?>) ((Map<?, ?>) r.get("counters")).get("delta");
            for (String k : List.of("hw_counters/rcvd_pkts", "hw_counters/sent_pkts")) {
                assertTrue(delta.get(k) instanceof Number n && n.doubleValue() > 0, k + " of " + rank.get("host")
                        + ": " + delta);
            }
        }
        assertEquals(slowest, t, 0.0);
        assertTrue(run.out().contains("ok: #wrong: 0 elements wrong on 3 ranks"), run.out());
    }

    /**
     * A host that never joins (issue 28 §4): the tool on rxe-host3 only sleeps, as a worker blocked before it
     * reaches the coordinator would. The other two ranks give up at their join timeout, the driver stops the
     * sleeper once every other rank has ended in failure, and every failed line names rxe-host3; nothing is left
     * running on any host and no QP is left behind. The other fault cases (kill mid-collective, an unreachable
     * host, netem loss on one host) run in scripts/fabric-vms.sh.
     */
    @Test
    void aHostThatNeverJoinsIsNamedByEveryRankWithinTheJoinTimeout() throws Exception {
        MatrixOnVms vms = new MatrixOnVms(dir);
        List<RemoteHost> hosts = vms.hosts.stream().map(RemoteHost::new).toList();
        List<Integer> qpsBefore = new ArrayList<>();
        for (RemoteHost h : hosts) {
            assertEquals(0, workers(h), h.name + " runs a fabric worker before the test");
            qpsBefore.add(queuePairs(h, vms.device));
        }
        String blocked = vms.hosts.get(2);
        Path tool = vms.tool.resolveSibling("rdma-perftest-nojoin");
        Files.writeString(tool, "#!/bin/sh\n[ \"$(hostname)\" = " + blocked + " ] && exec sleep 600\nexec " + vms.tool
                + " \"$@\"\n");
        Files.setPosixFilePermissions(tool, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        Path json = dir.resolve("nojoin.json");
        int join = 20;
        CommandLine run = run(List.of("fabric", "allreduce", "--hosts", String.join(",", vms.hosts), "--device",
                vms.device, "--tool-path", tool.toString(), "-s", "12K", "--iters", "3", "--json", json.toString(),
                "--listen-timeout", Integer.toString(join), "--test-timeout", "90"));
        assertEquals(2, run.code(), run.out() + run.err());
        // Two JVM starts in the guests (tens of seconds), the join timeout, the driver's 10 s grace; the driver's
        // own deadline (connect + join + test + grace, 135 s) must not be what ended it.
        assertTrue(run.seconds() < 125, run.seconds() + " s");
        List<String> failed = run.out().lines().filter(l -> l.startsWith("failed: ")).toList();
        assertEquals(3, failed.size(), run.out());
        assertTrue(failed.stream().allMatch(l -> l.contains(blocked)), run.out());
        assertTrue(run.out().contains("failed: STALLED: " + blocked + "/" + vms.device + ": stalled: rank 2 on " + blocked
                + " never joined"), run.out());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(json));
        assertEquals(2.0, doc.get("exit_code"));
        for (int i = 0; i < hosts.size(); i++) {
            RemoteHost h = hosts.get(i);
            long deadline = System.nanoTime() + 20_000_000_000L;
            while ((workers(h) > 0 || queuePairs(h, vms.device) != qpsBefore.get(i)) && System.nanoTime() < deadline) {
                Thread.sleep(1000);
            }
            assertEquals(0, workers(h), "a fabric worker still runs on " + h.name);
            assertEquals(qpsBefore.get(i), queuePairs(h, vms.device), "QPs left on " + h.name);
        }
        assertEquals("0", hosts.get(2).run(30, List.of("sh", "-c", "pgrep -c -f '^sleep 600$'; true")).strip(),
                "the sleeper still runs on " + blocked);
    }

    /** The fabric workers' JVMs on {@code h} (the launchers' entry point; brackets keep pgrep off its shell). */
    private static int workers(RemoteHost h) throws Exception {
        return Integer.parseInt(h.run(30, List.of("sh", "-c", "pgrep -c -f '[c]li.(EarlyListen|Main) fabric-worker';"
                + " true")).strip());
    }

    /** The QPs of {@code device} on {@code h} ({@code rdma resource show qp}: one line per QP). */
    private static int queuePairs(RemoteHost h, String device) throws Exception {
        String out = h.run(30, List.of("rdma", "resource", "show", "qp"));
        return (int) out.lines().filter(l -> l.contains("link " + device + "/") && l.contains("lqpn")).count();
    }

    private record CommandLine(int code, String out, String err, double seconds) {
    }

    private static CommandLine run(List<String> args) {
        picocli.CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        long start = System.nanoTime();
        int code = cl.execute(args.toArray(String[]::new));
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf(Locale.ROOT, "%s (%.0f s, exit %d):%n%s%s%n", args, seconds, code, out, err);
        return new CommandLine(code, out.toString(), err.toString(), seconds);
    }
}
