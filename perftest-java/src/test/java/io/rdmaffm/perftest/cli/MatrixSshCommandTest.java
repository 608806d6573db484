package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code matrix --hosts} over ssh end to end through the command line, with a fake {@code ssh} on PATH that runs
 * each step here as the host it names (real processes, the real remote scripts): node03 cannot be reached (ssh's
 * exit 255 after its connect timeout), node04's tools hang. The matrix must mark those cells for what they are,
 * stop the hung tools over ssh, measure the good pair, and finish within its timeouts; the same with one worker
 * per host (the default) as with a launch per end ({@code --launch per-test}).
 */
class MatrixSshCommandTest {
    @TempDir
    Path dir;

    /** ssh [OPTIONS] -- HOST COMMAND, run here as HOST; a host marked unreachable fails as ssh does. */
    private static void fakeSsh(FakeCluster cluster) throws java.io.IOException {
        cluster.bin("ssh", """
                #!/bin/sh
                # ssh [OPTIONS] -- HOST COMMAND: records the options and host, then runs COMMAND here as HOST
                # (through sh, as a remote login shell would), or fails the way ssh does for a dead host.
                line=ssh
                while [ $# -gt 0 ] && [ "$1" != -- ]; do line="$line $1"; shift; done
                host=$2; shift 2
                echo "$line -- $host $(printf %s "$*" | head -c 17)" >> "@DIR@/calls.log"
                if [ -e "@DIR@/unreachable-$host" ]; then
                  sleep 0.5
                  echo "ssh: connect to host $host port 22: Connection timed out" >&2
                  exit 255
                fi
                FAKE_NODE=$host; export FAKE_NODE
                exec sh -c "$*"
                """);
    }

    /**
     * A worker whose session ends in the middle of a test (ssh's 255: the host went away) fails that test as a
     * lost host, as a per-test end did; the host's next test starts a fresh worker and is measured.
     */
    @org.junit.jupiter.api.Test
    void aWorkerLostMidRunFailsItsTestAndTheNextTestGetsAFreshOne() throws Exception {
        FakeCluster cluster = new FakeCluster(dir);
        fakeSsh(cluster);
        cluster.mark("die-node02", "");
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> c.runner = cluster.firstOnPath(), "matrix", "--hosts",
                "node01,node02,node03", "--device", "mlx5_0", "--tools", "ib_write_bw", "--tool-path",
                cluster.tool().toString(), "--connect-timeout", "3", "--listen-timeout", "5", "--test-timeout", "5",
                "--no-retest", "--", "-n", "5");
        String out = r.out();
        assertEquals(2, r.code(), out + r.err() + cluster.calls());
        assertEquals("", r.err());
        assertTrue(out.contains(": unreachable: lost node02 during the run: Connection to node02 closed by remote"
                + " host. [cause: host node02 (unreachable)]"), out);
        assertTrue(out.contains("3 rail tests: 2 ok, 0 ok on retest, 0 flagged, 1 failed"), out);
        // node02 measured with its other peer, on a second worker.
        long node02Ok = out.lines().filter(l -> l.startsWith("node02 ")).findFirst().orElseThrow().split("50\\.0",
                -1).length - 1;
        assertEquals(1, node02Ok, out);
        assertTrue(cluster.workerStarts() >= 4, cluster.workerStarts() + " workers");
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker", "per-test"})
    void unreachableAndHungHostsAreMarkedCellsWithinTheTimeouts(String launch) throws Exception {
        boolean workers = launch.equals("worker");
        FakeCluster cluster = new FakeCluster(dir);
        fakeSsh(cluster);
        cluster.mark("unreachable-node03", "");
        cluster.mark("stall-node04", "");
        long start = System.nanoTime();
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> c.runner = cluster.firstOnPath(), "matrix", "--hosts",
                "node01,node02,node03,node04", "--device", "mlx5_0", "--tools", "ib_write_bw", "--tool-path",
                cluster.tool().toString(), "--connect-timeout", "3", "--listen-timeout", "5", "--test-timeout", "2",
                "--no-retest", "--launch", launch, "--", "-n", "5");
        double seconds = (System.nanoTime() - start) / 1e9;
        String out = r.out();
        List<String> calls = cluster.calls();
        assertEquals(2, r.code(), "failed pairs: exit 2\n" + out + r.err() + calls);
        assertEquals("", r.err());
        // 3 rounds of 2 pairs, each bounded by the 2 s test timeout plus the kills: far less than a hang.
        assertTrue(seconds < 40, seconds + " s\n" + out);

        // Every ssh is non-interactive and bounded, exactly so; a worker's session keeps its stdin (its orders).
        for (String call : calls.stream().filter(l -> l.startsWith("ssh")).toList()) {
            boolean session = workers && !call.endsWith("sh -c 'kill -TERM");
            assertTrue(call.matches((session ? "ssh -T" : "ssh -n -T") + " -o BatchMode=yes -o ConnectTimeout=3 -o StrictHostKeyChecking=accept-new"
                    + " -o ServerAliveInterval=5 -o ServerAliveCountMax=3 -o LogLevel=ERROR -- node0[1-4] sh -c .*"),
                    call);
        }
        // The good pair was measured; each cell with node03 says unreachable, each with node04 stalled.
        String row1 = out.lines().filter(l -> l.startsWith("node01 ")).findFirst().orElseThrow();
        assertEquals(List.of("node01", "-", "50.0", "!UNREACHABLE", "!STALLED"), List.of(row1.trim().split("\\s+")),
                out);
        String row3 = out.lines().filter(l -> l.startsWith("node03 ")).findFirst().orElseThrow();
        assertEquals(List.of("node03", "!UNREACHABLE", "!UNREACHABLE", "-", "!UNREACHABLE"),
                List.of(row3.trim().split("\\s+")), out);
        assertTrue(out.contains("node03/mlx5_0: HOST_FAILED - unreachable: ssh to node03 failed (exit 255): ssh:"
                + " connect to host node03 port 22: Connection timed out"), out);
        assertTrue(out.contains("6 rail tests: 1 ok, 0 ok on retest, 0 flagged, 5 failed; best 50.00 Gb/s, - us;"
                + " exit 2"), out);

        if (workers) {
            // One worker per host, replaced only where a stall stopped one: fewer JVMs than ends (12).
            int starts = cluster.workerStarts();
            assertTrue(starts >= 3 && starts < 12, starts + " workers started\n" + calls);
        }
        // The hung tools were stopped over ssh (kill -TERM of the pid the remote script printed), not left behind.
        assertTrue(calls.stream().anyMatch(l -> l.matches("ssh .* -- node04 sh -c 'kill -TERM")), calls.toString());
        List<String> pids = Files.readAllLines(dir.resolve("stalled.pids"));
        assertFalse(pids.isEmpty());
        for (String pid : pids) {
            var handle = ProcessHandle.of(Long.parseLong(pid.strip()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (handle.isPresent() && handle.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(handle.isPresent() && handle.get().isAlive(), "hung tool " + pid + " still runs");
        }
        // Every worker ended with the run: asked to quit when idle, stopped by pid when hung.
        Path started = dir.resolve("workers.pids");
        for (String pid : Files.exists(started) ? Files.readAllLines(started) : List.<String>of()) {
            var handle = ProcessHandle.of(Long.parseLong(pid.strip()));
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (handle.isPresent() && handle.get().isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertFalse(handle.isPresent() && handle.get().isAlive(), "worker " + pid + " still runs");
        }
    }
}
