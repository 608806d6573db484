package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.json.JsonReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code fabric PATTERN} end to end through the command line against a FAKE worker: a fake {@code ssh} on PATH runs
 * each step here as the host it names (real processes, the real remote script), and a fake
 * {@code rdma-perftest fabric-worker} prints the contract's result line (docs/fabric-contract.md). Marker files
 * make a host unreachable (ssh's 255), a worker end without a result line, or hang (stopped by pid at the
 * driver's deadline).
 */
class FabricCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err, List<List<String>> launched) {
    }

    static Run run(Consumer<FabricCommand> setup, String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        FabricCommand cmd = cl.getSubcommands().get("fabric").getCommand();
        List<List<String>> launched = Collections.synchronizedList(new ArrayList<>());
        cmd.runner = command -> {
            launched.add(command);
            throw new IOException("this test launches nothing");
        };
        cmd.env = Map.of();
        setup.accept(cmd);
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString(), launched);
    }

    private FakeCluster cluster() throws IOException {
        FakeCluster c = new FakeCluster(dir);
        c.bin("ssh", """
                #!/bin/sh
                line=ssh
                while [ $# -gt 0 ] && [ "$1" != -- ]; do line="$line $1"; shift; done
                host=$2; shift 2
                echo "$line -- $host $(printf %s "$*" | head -c 17)" >> "@DIR@/calls.log"
                if [ -e "@DIR@/unreachable-$host" ]; then
                  echo "ssh: connect to host $host port 22: Connection timed out" >&2
                  exit 255
                fi
                FAKE_NODE=$host; export FAKE_NODE
                exec sh -c "$*"
                """);
        c.script(worker(), """
                #!/bin/sh
                echo "$FAKE_NODE: $*" >> "@DIR@/calls.log"
                [ "$1" = fabric-worker ] || exit 2
                shift
                rank=; ranks=; pattern=; bytes=1048576; sizes=; rotate=; receiver=
                while [ $# -gt 0 ]; do
                  case "$1" in
                    --rank) rank=$2; shift 2 ;;
                    --ranks) ranks=$2; shift 2 ;;
                    --pattern) pattern=$2; shift 2 ;;
                    -s) bytes=$2; shift 2 ;;
                    --sizes) sizes=$2; shift 2 ;;
                    --rotate) rotate=1; shift ;;
                    --receiver) receiver=$2; shift 2 ;;
                    *) shift ;;
                  esac
                done
                # A sweep or a rotating incast: one "cases" entry per size and target, the time growing with the
                # size (1 us per KiB) and, rotating, 500 us more on the target's own turn.
                cases=
                if [ -n "$sizes$rotate" ]; then
                  [ -n "$sizes" ] || sizes=$bytes
                  targets=-1; [ -n "$receiver" ] && targets=$receiver
                  [ -n "$rotate" ] && targets=$(seq 0 $((ranks - 1)))
                  for s in $(echo "$sizes" | tr , ' '); do
                    bytes=$s
                    for t in $targets; do
                      m=$((1000 + 100 * rank + s / 1024)); [ "$t" = "$rank" ] && m=$((m + 500))
                      tj=$t; [ "$t" = -1 ] && tj=null
                      cases="$cases${cases:+,}{\\"bytes\\":$s,\\"target\\":$tj,\\"role\\":\\"member\\",\\"time_us\\":{\\"mean\\":$m,\\"min\\":900,\\"max\\":2000},\\"bytes_sent\\":$s,\\"bytes_received\\":$s,\\"wrong\\":0,\\"link_send\\":null}"
                    done
                  done
                  cases=",\\"cases\\":[$cases]"
                fi
                echo "fake fabric-worker: rank $rank of $ranks joining" >&2
                if [ -e "@DIR@/stall-$FAKE_NODE" ]; then echo $$ >> "@DIR@/stalled.pids"; exec sleep 60; fi
                if [ -e "@DIR@/noresult-$FAKE_NODE" ]; then
                  echo "fabric-worker: lost the coordinator" >&2
                  exit 2
                fi
                mean=$((1000 + 100 * rank))
                seq=0; [ -e "@DIR@/loss-$FAKE_NODE" ] && seq=9
                err=null; [ -e "@DIR@/peerfail" ] && err='"aborted: rank 2 never joined"'
                echo "fake progress"
                echo "@rdma-fabric result {\\"rank\\":$rank,\\"ranks\\":$ranks,\\"host\\":\\"$FAKE_NODE\\",\\"device\\":\\"rxe0\\",\\"port\\":1,\\"netdev\\":\\"eth0\\",\\"pattern\\":\\"$pattern\\",\\"bytes\\":$bytes,\\"iters\\":3,\\"warmup\\":2,\\"reduce\\":true,\\"time_us\\":{\\"mean\\":$mean,\\"min\\":900,\\"max\\":2000},\\"steps\\":4,\\"bytes_sent\\":16384,\\"bytes_received\\":16384,\\"wrong\\":0,\\"role\\":\\"member\\",\\"error\\":$err,\\"counters\\":{\\"before\\":{},\\"after\\":{},\\"delta\\":{\\"hw_counters/rcvd_pkts\\":50,\\"hw_counters/sent_pkts\\":52,\\"hw_counters/rcvd_seq_err\\":$seq},\\"absent\\":{\\"counters/port_xmit_wait\\":\\"no counters directory\\"}}$cases}"
                [ -e "@DIR@/exit3-$FAKE_NODE" ] && exit 3
                [ "$err" = null ] && exit 0
                exit 2
                """);
        return c;
    }

    private Path worker() {
        return dir.resolve("fabric-perftest");
    }

    @Test
    void allreduceOverThreeHostsPrintsTheTableAndWritesJsonAndCsv() throws Exception {
        FakeCluster c = cluster();
        Path json = dir.resolve("f.json");
        Path csv = dir.resolve("f.csv");
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "allreduce", "--hosts", "node01,node02,node03",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "12K", "--iters", "3", "--json",
                json.toString(), "--csv", csv.toString());
        String out = r.out();
        System.out.print(out);
        assertEquals(0, r.code(), out + r.err() + c.calls());
        assertEquals("", r.err());
        // t = the slowest rank's mean, 1200 us; algbw = 12288 B / 1200 us = 0.01024 GB/s; busbw x 4/3 = 0.013653.
        assertTrue(out.contains("        12288         3072    float     1200.00       0.0102       0.0137       0            -\n"),
                out);
        assertTrue(out.contains("# rail 0: t = slowest rank's mean (node03/rxe0)"), out);
        assertTrue(out.contains("  node02/rxe0 rank 1 member: 1100.00 us mean (min 900.00, max 2000.00), sent 16384 B,"
                + " received 16384 B, 0 wrong\n"), out);
        assertTrue(out.contains("  node01/rxe0: hw_counters/rcvd_pkts +50, hw_counters/sent_pkts +52; 1 absent"), out);
        assertTrue(out.contains("ok: #wrong: 0 elements wrong on 3 ranks"), out);
        assertTrue(out.contains("fabric allreduce: 3 ranks, 3 ok, 0 failed; verdicts:"), out);
        // Every rank got the contract's command line.
        List<String> calls = c.calls();
        assertTrue(calls.contains("node03: fabric-worker --pattern allreduce --rank 2 --ranks 3 --coordinator"
                + " node01:18515 -d rxe0 -s 12288 --iters 3 --warmup 2 --join-timeout 30 --step-timeout 120"
                + " --threads 1"), calls.toString());
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        Map<String, Object> fig = ((List<Map<String, Object>>) doc.get("figures")).getFirst();
        assertEquals(1200.0, fig.get("time_us"));
        assertEquals(12288 / 1200e3 * 4 / 3, (Double) fig.get("busbw_GBps"), 1e-12);
        assertEquals("algbw x 2(n-1)/n (nccl-tests' factor for allreduce)",
                ((Map<?, ?>) fig.get("provenance")).get("busbw_GBps"));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> ranks = (List<Map<String, Object>>) doc.get("ranks");
        assertEquals("node02", ((Map<?, ?>) ranks.get(1).get("result")).get("host"));
        assertEquals(0.0, doc.get("exit_code"));
        List<String> rows = Files.readAllLines(csv);
        assertEquals(4, rows.size(), rows.toString());
        assertEquals("allreduce,0,2,node03,rxe0,12288,,member,0,,1200,900,2000,16384,16384,0,", rows.get(3));
    }

    @Test
    void aSweepIsOneLaunchWithARowPerSizeInTheTableJsonAndCsv() throws Exception {
        FakeCluster c = cluster();
        Path json = dir.resolve("s.json");
        Path csv = dir.resolve("s.csv");
        // -b 4000 -e 20000 -f 2: 4000, 8000, 16000, each rounded down to a multiple of 4 x 3 = 12.
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "allreduce", "--hosts", "node01,node02,node03",
                "--device", "rxe0", "--tool-path", worker().toString(), "--minbytes", "4000", "-e", "20000",
                "--stepfactor", "2", "--iters", "3", "--json", json.toString(), "--csv", csv.toString());
        String out = r.out();
        System.out.print(out);
        assertEquals(0, r.code(), out + r.err() + c.calls());
        List<String> calls = c.calls();
        assertEquals(3, calls.stream().filter(l -> l.contains(": fabric-worker ")).count(), "one launch per host");
        assertTrue(calls.contains("node03: fabric-worker --pattern allreduce --rank 2 --ranks 3 --coordinator"
                + " node01:18515 -d rxe0 --sizes 3996,7992,15996 --iters 3 --warmup 2 --join-timeout 30"
                + " --step-timeout 120 --threads 1"), calls.toString());
        // t per size = the slowest rank's (rank 2: 1200 us + 1 us per KiB).
        assertTrue(out.contains("         3996          999    float     1203.00"), out);
        assertTrue(out.contains("         7992         1998    float     1207.00"), out);
        assertTrue(out.contains("        15996         3999    float     1215.00"), out);
        assertTrue(out.contains("S = 3996..15996 B (3 sizes, -b 4000 -e 20000 -f 2) of float32 (chunk S/3), 4 steps per rank"), out);
        @SuppressWarnings("unchecked")
        Map<String, Object> doc = (Map<String, Object>) JsonReader.parse(Files.readString(json));
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> figs = (List<Map<String, Object>>) doc.get("figures");
        assertEquals(List.of(3996.0, 7992.0, 15996.0), figs.stream().map(f -> f.get("bytes")).toList());
        assertEquals(7992 / 1207e3 * 4 / 3, (Double) figs.get(1).get("busbw_GBps"), 1e-12);
        assertEquals(List.of(3996.0, 7992.0, 15996.0), ((Map<?, ?>) doc.get("plan")).get("sizes"));
        List<String> rows = Files.readAllLines(csv);
        assertEquals(1 + 3 * 3, rows.size(), rows.toString());
        assertEquals("allreduce,0,2,node03,rxe0,15996,,member,0,,1215,900,2000,15996,15996,0,", rows.get(9));
        // The report draws the document's sizes as one line of points.
        var d = io.rdmaffm.perftest.report.model.FabricDocument.of("s.json", JsonReader.parse(Files.readString(json)));
        assertEquals(List.of(3996L, 7992L, 15996L), d.figures().stream().map(f -> f.bytes()).toList());
    }

    @Test
    void incastRotatesTheTargetByDefaultAndTargetFixesOne() throws Exception {
        FakeCluster c = cluster();
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "incast", "--hosts", "node01,node02,node03",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "4096");
        String out = r.out();
        System.out.print(out);
        assertEquals(0, r.code(), out + r.err());
        assertTrue(c.calls().stream().anyMatch(l -> l.startsWith("node02: fabric-worker --pattern incast --rank 1")
                && l.contains(" --rotate ")), c.calls().toString());
        assertTrue(out.contains("2 senders to each host in turn"), out);
        // A row per target, in host order; the fake's target is 500 us slower on its own turn, so t is the target's.
        List<String> rows = out.lines().filter(l -> l.startsWith("         4096")).toList();
        assertEquals(3, rows.size(), out);
        for (int t = 0; t < 3; t++) {
            assertTrue(rows.get(t).matches(" +4096 +4096 +uint8 node0" + (t + 1) + " +" + (1504 + 100 * t)
                    + "\\.00 .*"), rows.get(t));
        }
        // --receiver, --target's older name, fixes the one target.
        FakeCluster c2 = cluster();
        Run one = run(x -> x.runner = c2.firstOnPath(), "fabric", "incast", "--hosts", "node01,node02,node03",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "4096", "--receiver", "node02");
        assertEquals(0, one.code(), one.out() + one.err());
        assertTrue(c2.calls().stream().anyMatch(l -> l.startsWith("node01: fabric-worker --pattern incast --rank 0")
                && l.contains(" --receiver 1 ")), c2.calls().toString());
        assertTrue(one.out().contains("2 senders to node02"), one.out());
        assertEquals(1, one.out().lines().filter(l -> l.startsWith("         4096")).count(), one.out());
    }

    @Test
    void unreachableSilentAndHungHostsAreNamedAndNothingIsLeftRunning() throws Exception {
        FakeCluster c = cluster();
        c.mark("noresult-node02", "");
        c.mark("unreachable-node03", "");
        c.mark("stall-node04", "");
        c.mark("peerfail", "");
        long start = System.nanoTime();
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "alltoall", "--hosts", "node01,node02,node03,node04",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "4096", "--connect-timeout", "1",
                "--listen-timeout", "1", "--test-timeout", "1");
        double seconds = (System.nanoTime() - start) / 1e9;
        String out = r.out();
        System.out.print(out);
        assertEquals(2, r.code(), out + r.err());
        // Not the deadline (connect 1 + join 1 + test 1 + grace 15 s): the hung worker is stopped by its pid 10 s
        // after every other rank ended in failure.
        assertTrue(seconds < 30, seconds + " s");
        assertTrue(out.contains("  node01/rxe0 rank 0 member: 1000.00 us mean"), out);
        assertTrue(out.contains("failed: RUN_FAILED: node01/rxe0: run failed: rank 0 on node01: aborted: rank 2 never"
                + " joined (a consequence; the cause: node02, node03)"), out);
        assertTrue(out.contains("failed: NO_RESULT: node02/rxe0: no result: rank 1 on node02 exited 2 without a result"
                + " line: fabric-worker: lost the coordinator"), out);
        assertTrue(out.contains("failed: UNREACHABLE: node03/rxe0: unreachable: ssh to node03 failed (exit 255): ssh:"
                + " connect to host node03 port 22: Connection timed out"), out);
        // Every other rank had ended in failure, none naming rank 3: node04 is stopped 10 s after the last of them,
        // not at the deadline, as a consequence.
        assertTrue(out.contains("failed: STALLED: node04/rxe0: stalled: rank 3 on node04 still ran when every other"
                + " rank had ended in failure (stopped by pid 10 s after the last of them) (a consequence; the cause:"
                + " node02, node03)"), out);
        assertTrue(out.contains("to localize: rdma-perftest matrix --hosts node01,node02,node03,node04 --device rxe0"),
                out);
        // The table has no figure made from part of the collective.
        assertTrue(out.contains("         4096         4096    uint8           -            -            -     n/a"),
                out);
        assertTrue(c.calls().stream().anyMatch(l -> l.matches("ssh .* -- node04 sh -c 'kill -TERM")),
                c.calls().toString());
        for (String pid : Files.readAllLines(dir.resolve("stalled.pids"))) {
            var handle = ProcessHandle.of(Long.parseLong(pid.strip()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (handle.isPresent() && handle.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(handle.isPresent() && handle.get().isAlive(), "hung worker " + pid + " still runs");
        }
    }

    @Test
    void aHostThatNeverJoinsIsNamedAndStoppedOnceTheOthersGaveUp() throws Exception {
        FakeCluster c = cluster();
        c.mark("stall-node03", "");
        c.mark("peerfail", "");
        long start = System.nanoTime();
        // A join timeout of 60 s and a test timeout of 60 s: the driver's deadline (136 s) is not what ends it.
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "allreduce", "--hosts", "node01,node02,node03",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "12K", "--connect-timeout", "1",
                "--listen-timeout", "60", "--test-timeout", "60");
        double seconds = (System.nanoTime() - start) / 1e9;
        String out = r.out();
        System.out.print(out);
        assertEquals(2, r.code(), out + r.err());
        assertTrue(seconds < 10 + 15, seconds + " s");
        assertTrue(out.contains("failed: STALLED: node03/rxe0: stalled: rank 2 on node03 never joined; it still ran"
                + " when every other rank had ended in failure, their errors naming it (stopped by pid 10 s after the"
                + " last of them)"), out);
        for (String h : List.of("node01", "node02")) {
            assertTrue(out.contains("on " + h + ": aborted: rank 2 never joined (a consequence; the cause: node03)"),
                    out);
        }
        assertTrue(c.calls().stream().anyMatch(l -> l.matches("ssh .* -- node03 sh -c 'kill -TERM")),
                c.calls().toString());
    }

    @Test
    void lossOnOneHostIsFlaggedAndNamed() throws Exception {
        FakeCluster c = cluster();
        c.mark("loss-node02", "");
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "bisection", "--hosts", "node01,node02",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "4096");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("flagged: loss: node02/rxe0: hw_counters/rcvd_seq_err +9 (loss and"
                + " retransmission: RoCE on a fabric not set up lossless, --expect none)"), r.out());
    }

    @Test
    void aNonZeroExitWithACleanResultIsNoSuccess() throws Exception {
        FakeCluster c = cluster();
        c.mark("exit3-node01", "");
        Run r = run(x -> x.runner = c.firstOnPath(), "fabric", "bisection", "--hosts", "node01,node02",
                "--device", "rxe0", "--tool-path", worker().toString(), "-s", "4096");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("failed: RUN_FAILED: node01/rxe0: run failed: rank 0 on node01 exited 3 though its"
                + " result names no error: fake fabric-worker: rank 0 of 2 joining"), r.out());
    }

    @Test
    void badInputIsOneLineAndLaunchesNothing() {
        refused("fabric: error: -s 1000 is not a multiple of 4n = 12 (allreduce splits the float32 array into 3 equal"
                + " chunks)", "allreduce", "--hosts", "a,b,c", "--device", "rxe0", "-s", "1000");
        refused("fabric: error: --target 'zz' is not among the hosts", "incast", "--hosts", "a,b,c", "--device",
                "rxe0", "--receiver", "zz");
        refused("fabric: error: -b 8192 is above -e 4096 (minbytes above maxbytes)", "alltoall", "--hosts", "a,b",
                "--device", "rxe0", "-b", "8K", "-e", "4K");
        refused("fabric: error: -f must be a whole factor of at least 2 (nccl-tests' stepfactor), got 1", "alltoall",
                "--hosts", "a,b", "--device", "rxe0", "-b", "8", "-e", "4K", "-f", "1");
        refused("fabric: error: -s is one size, -b/-e/-f a sweep: give one or the other", "alltoall", "--hosts",
                "a,b", "--device", "rxe0", "-s", "4K", "-b", "8");
        refused("fabric: error: -b/-e: size 8 rounds to 0 for allreduce on 3 hosts (at least 4n = 12 bytes: one"
                + " float32 element per chunk)", "allreduce", "--hosts", "a,b,c", "--device", "rxe0", "-b", "8",
                "-e", "1K");
        refused("fabric: error: size 2: --threads 4: each thread takes a share of the 2 bytes (-s) every link"
                + " carries", "alltoall", "--hosts", "a,b", "--device", "rxe0", "-b", "2", "-e", "64",
                "--threads", "4");
        refused("fabric: error: --target 'zz' is not among the hosts", "incast", "--hosts", "a,b,c", "--device",
                "rxe0", "--target", "zz");
        refused("fabric: error: --expect must be none, pfc or dcqcn, got 'lossy'", "incast", "--hosts", "a,b",
                "--expect", "lossy");
        refused("fabric: error: --loss-outlier: the factor must be a number above 1, got 1.0", "allreduce", "--hosts",
                "a,b,c", "--device", "rxe0", "-s", "12K", "--loss-outlier", "1");
        refused("fabric: error: --loss-outlier: expected FACTOR or FACTOR,MIN (e.g. 4,20), got '4;20'", "allreduce",
                "--hosts", "a,b,c", "--device", "rxe0", "-s", "12K", "--loss-outlier", "4;20");
        refused("fabric: error: unknown pattern 'ring' (one of allreduce|allgather|reducescatter|incast|alltoall"
                + "|bisection)", "ring", "--hosts", "a,b");
        refused("fabric: error: --hosts: at least two hosts are needed (matrix, fabric), got 1 (a)", "alltoall",
                "--hosts", "a");
        refused("fabric: error: -s: invalid size '12Q' (bytes, or with a K, M or G suffix)", "alltoall", "--hosts", "a,b",
                "-s", "12Q");
        refused("fabric: error: --rate '25': give the unit (e.g. 25G for 25 Gb/s, 25M for 25 Mb/s)", "incast",
                "--hosts", "a,b", "--rate", "25");
        refused("fabric: error: --rate '3GB/s': --rate is in bits per second (Gb/s, as port rates), not bytes (e.g."
                + " 25G, 25Gb/s, 800Mbps, 2.5Gbit/s: bits per second, decimal K/M/G/T)", "incast", "--hosts", "a,b",
                "--rate", "3GB/s");
        refused("fabric: error: --rate '0M' must be above 0 b/s", "incast", "--hosts", "a,b", "--rate", "0M");
        refused("fabric: error: --rate paces incast, alltoall and bisection senders, not allreduce (a ring runs in"
                + " lock-step: docs/fabric-design.md §12)", "allreduce", "--hosts", "a,b,c", "-s", "12K", "--rate",
                "1G");
        refused("fabric: error: --rate 1 Mb/s: 20 iterations of 2097152 B per sender take at least 335.5 s at that"
                + " rate, not within --test-timeout 120 s", "alltoall", "--hosts", "a,b,c", "--rate", "1M");
    }

    private static void refused(String line, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "fabric";
        System.arraycopy(args, 0, all, 1, args.length);
        Run r = run(x -> { }, all);
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals(line + "\n", r.err());
        assertEquals("", r.out());
        assertTrue(r.launched().isEmpty(), r.launched().toString());
    }
}
