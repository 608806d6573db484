package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** One rail test's failure paths, each end scripted. */
class PairRunnerTest {
    private static final RailTest T = new RailTest(0, "a", "b", 0, "mlx5_0", "mlx5_0", 18515);
    private static final String LISTEN = "@rdma-matrix pid 100\n* Waiting for client to connect... *\n";
    private static final String GOOD = "@rdma-matrix pid 200\n" + RemoteScript.JSON_MARK
            + "\n{\"results\": {\"BW_average\": 97.0, \"BW_unit\": \"Gb/sec\"}}\n";

    private static boolean client(List<String> cmd) {
        return cmd.getLast().contains("--out_json_file") || cmd.getLast().contains(" -p 18515 a 2>&1 &");
    }

    private static boolean kill(List<String> cmd) {
        return cmd.getLast().startsWith("sh -c 'kill -TERM");
    }

    private record Run(Attempt attempt, FakeRunner runner, RemoteProcesses live) {
    }

    private static Run run(Launcher launcher, Function<List<String>, FakeRunner.Reply> script) throws Exception {
        MatrixRequest.Builder o = MatrixRequest.builder();
        o.tools = List.of("ib_write_bw");
        o.listenTimeout = Duration.ofMillis(1200);
        o.testTimeout = Duration.ofMillis(300);
        FakeRunner runner = new FakeRunner(script);
        RemoteProcesses live = new RemoteProcesses(launcher, runner, Duration.ofSeconds(1));
        Attempt a = new PairRunner(o.build(), launcher, runner, live).run(T, 1);
        return new Run(a, runner, live);
    }

    @Test
    void aServerThatNeverListensIsStalledAndKilled() throws Exception {
        Run r = run(new SshLauncher(1), cmd -> kill(cmd) ? FakeRunner.Reply.ok("")
                : FakeRunner.Reply.hang("@rdma-matrix pid 31337\nstarting...\n"));
        assertEquals(new Failure(Failure.Kind.STALLED, null, "server on a did not listen within 1.2 s"),
                r.attempt().failure());
        assertEquals(2, r.runner().commands().size(), "the server, then its kill");
        assertEquals("sh -c 'kill -TERM 31337 2>/dev/null; exit 0'", r.runner().commands().get(1).getLast());
        assertEquals("a", r.runner().commands().get(1).get(r.runner().commands().get(1).indexOf("--") + 1));
        assertEquals(0, r.live().size());
    }

    @Test
    void aMissingDeviceIsBlamedOnItsHost() throws Exception {
        Run r = run(new SshLauncher(1), cmd -> new FakeRunner.Reply("@rdma-matrix pid 5\nrdma-perftest ib_write_bw:"
                + " no RDMA device named 'mlx5_0'; devices: mlx5_1\n", "", 2, false));
        assertEquals(new Failure(Failure.Kind.DEVICE_MISSING, "a", "a: rdma-perftest ib_write_bw: no RDMA device"
                + " named 'mlx5_0'; devices: mlx5_1"), r.attempt().failure());
        assertTrue(Double.isNaN(r.attempt().bwGbps()));
    }

    @Test
    void theClientIsRetriedWhileTheServerRefuses() throws Exception {
        AtomicInteger clients = new AtomicInteger();
        Run r = run(new SshLauncher(1), cmd -> {
            if (!client(cmd)) {
                return FakeRunner.Reply.hang(LISTEN);
            }
            return clients.incrementAndGet() < 3
                    ? new FakeRunner.Reply("@rdma-matrix pid 7\nconnection refused by a:18515\n", "", 2, false)
                    : FakeRunner.Reply.ok(GOOD);
        });
        assertNull(r.attempt().failure(), r.attempt().toString());
        assertEquals(97.0, r.attempt().bwGbps(), 1e-9);
        assertEquals(3, clients.get());
        assertEquals(0, r.live().size(), "the lingering server was stopped");
    }

    @Test
    void srunThatCannotStartTheStepMeansUnreachable() throws Exception {
        Run r = run(new SrunLauncher(), cmd -> new FakeRunner.Reply("", "srun: error: Unable to create step for job"
                + " 42: Requested node configuration is not available\n", 1, false));
        assertEquals(new Failure(Failure.Kind.UNREACHABLE, "a", "srun to a failed (exit 1): srun: error: Unable to"
                + " create step for job 42: Requested node configuration is not available"), r.attempt().failure());
    }

    @Test
    void aConnectionLostMidRunBlamesThatHost() throws Exception {
        Run r = run(new SshLauncher(1), cmd -> client(cmd)
                ? new FakeRunner.Reply("@rdma-matrix pid 8\n", "Timeout, server b not responding.\n", 255, false)
                : FakeRunner.Reply.ok(LISTEN));
        assertEquals(new Failure(Failure.Kind.UNREACHABLE, "b", "lost b during the run: Timeout, server b not"
                + " responding."), r.attempt().failure());
    }

    @Test
    void aRunThatDiesIsThePairsFailureWithBothSidesWords() throws Exception {
        Run r = run(new SshLauncher(1), cmd -> client(cmd)
                ? new FakeRunner.Reply("@rdma-matrix pid 9\nrdma-perftest: peer closed the connection\n", "", 1, false)
                : new FakeRunner.Reply(LISTEN + "rdma-perftest: completion error\n", "", 1, false));
        assertEquals(new Failure(Failure.Kind.RUN_FAILED, null, "client on b exited 1: rdma-perftest: peer closed the"
                + " connection; server on a exited 1: rdma-perftest: completion error"), r.attempt().failure());
        assertEquals(1, r.attempt().runs().size());
        assertEquals(1, r.attempt().runs().getFirst().exitCode());
    }

    @Test
    void exitZeroWithoutFiguresIsNoResult() throws Exception {
        Run r = run(new SshLauncher(1), cmd -> client(cmd) ? FakeRunner.Reply.ok("@rdma-matrix pid 9\n")
                : FakeRunner.Reply.ok(LISTEN));
        assertEquals(new Failure(Failure.Kind.NO_RESULT, null, "client on b exited 0 without figures"),
                r.attempt().failure());
    }

    @Test
    void afterStopAllNoEndIsStarted() throws Exception {
        MatrixRequest o = MatrixRequest.builder().build();
        FakeRunner runner = new FakeRunner(cmd -> FakeRunner.Reply.hang(LISTEN));
        Launcher ssh = new SshLauncher(1);
        RemoteProcesses live = new RemoteProcesses(ssh, runner, Duration.ofSeconds(1));
        live.stopAll();
        org.junit.jupiter.api.Assertions.assertThrows(InterruptedException.class,
                () -> new PairRunner(o, ssh, runner, live).run(T, 1));
        assertEquals(List.of(), runner.commands());
        FakeRunner.FakeProcess late = (FakeRunner.FakeProcess) runner.start(List.of("ssh"));
        live.add(late, "a");
        assertTrue(late.destroyed(), "an end registered after stopAll is ended at once");
        assertEquals(0, live.size());
    }
}
