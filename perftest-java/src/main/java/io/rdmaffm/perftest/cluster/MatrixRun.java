package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;

/**
 * Runs a {@link MatrixPlan}: round after round, every rail test of a round at once (within
 * {@code --max-connections}), each attempt handed to the sink as it finishes; then the flagged pairs (and those
 * that stalled or whose run failed) once more, in conflict-free retest rounds; then the verdicts.
 *
 * <p>A shutdown hook stops every remote end still running when the JVM is asked to end (Ctrl-C, SIGTERM): see
 * {@link RemoteProcesses}.
 */
public final class MatrixRun {
    private final MatrixPlan plan;
    private final MatrixSink sink;
    private final Progress progress;
    private final OutlierRules rules;
    private final RemoteProcesses live;
    private final PairRunner pairs;
    /** The hosts' workers; null when every end is its own launch. */
    private final WorkerPool workers;
    private final Semaphore connections;
    private boolean installHook = true;
    private OutlierRules.Best bestSoFar = new OutlierRules.Best(Double.NaN, Double.NaN);
    private long testsSoFar;
    private long flaggedSoFar;
    private long failedSoFar;

    /**
     * @param plan     what to run
     * @param launcher ssh or srun
     * @param runner   starts the launcher processes
     * @param sink     receives each attempt as it finishes, and the outcome
     * @param progress progress lines
     */
    public MatrixRun(MatrixPlan plan, Launcher launcher, ProcessRunner runner, MatrixSink sink, Progress progress) {
        this.plan = plan;
        this.sink = sink;
        this.progress = progress;
        this.rules = OutlierRules.of(plan);
        Duration kill = Duration.ofSeconds(plan.request().connectTimeoutSeconds() + 5L);
        this.live = new RemoteProcesses(launcher, runner, kill);
        MatrixRequest o = plan.request();
        this.workers = o.workers() ? new WorkerPool(launcher, runner, RemoteScript.worker(o.toolPath()),
                o.maxConnections(), kill) : null;
        this.pairs = new PairRunner(o, launcher, runner, live, workers);
        this.connections = new Semaphore(plan.request().maxConnections(), true);
    }

    /** The launcher the options ask for. */
    public static Launcher launcher(MatrixRequest o) {
        return o.launcher() == MatrixRequest.LauncherKind.SRUN ? new SrunLauncher() : new SshLauncher(
                o.connectTimeoutSeconds());
    }

    /** Tests run without a JVM shutdown hook. */
    MatrixRun withoutShutdownHook() {
        installHook = false;
        return this;
    }

    /** The hosts' workers, null without (tests). */
    WorkerPool workers() {
        return workers;
    }

    /** Ctrl-C: every end in flight, then every worker, stopped now. */
    private void stopNow() {
        live.stopAll();
        if (workers != null) {
            workers.closeAll(true, Duration.ZERO);
        }
    }

    /** The remote ends still known (tests: none after a run). */
    RemoteProcesses live() {
        return live;
    }

    /**
     * Runs the plan.
     *
     * @throws IOException when the sink cannot write
     */
    public MatrixOutcome run() throws IOException, InterruptedException {
        Thread hook = new Thread(this::stopNow, "rdma-matrix-stop");
        if (installHook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            sink.started(plan);
            List<Attempt> firsts = new ArrayList<>();
            int total = plan.rounds().size();
            for (int r = 0; r < total; r++) {
                List<Attempt> done = runRound(plan.railTests(r, plan.rounds().get(r)), 1);
                firsts.addAll(done);
                report("round " + (r + 1) + "/" + total, done);
            }
            Map<RailTest, Attempt> retests = plan.request().retest() ? retest(firsts, total) : Map.of();
            MatrixOutcome outcome = verdicts(firsts, retests);
            sink.finished(outcome);
            return outcome;
        } finally {
            if (installHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or has run: it stops the ends
                }
            }
            live.stopAll();
            if (workers != null) {
                // Each worker is idle by now: it ends at the end of its input; one that does not is stopped.
                workers.closeAll(false, PairRunner.GRACE);
            }
        }
    }

    private Map<RailTest, Attempt> retest(List<Attempt> firsts, int nextRound)
            throws IOException, InterruptedException {
        OutlierRules.Best best = OutlierRules.best(firsts);
        Map<Schedule.HostPair, List<RailTest>> byPair = new LinkedHashMap<>();
        for (Attempt a : firsts) {
            boolean again = a.ok() ? !rules.flags(a, best).isEmpty() : a.failure().kind().worthRetesting();
            if (again) {
                RailTest t = a.test();
                byPair.computeIfAbsent(new Schedule.HostPair(t.server(), t.client()), k -> new ArrayList<>()).add(t);
            }
        }
        Map<RailTest, Attempt> out = new LinkedHashMap<>();
        List<List<Schedule.HostPair>> rounds = Schedule.greedy(new ArrayList<>(byPair.keySet()));
        int round = nextRound;
        for (List<Schedule.HostPair> pairsOfRound : rounds) {
            List<RailTest> tests = new ArrayList<>();
            for (RailTest t : plan.railTests(round, pairsOfRound)) {
                if (byPair.get(new Schedule.HostPair(t.server(), t.client())).stream()
                        .anyMatch(f -> f.rail() == t.rail())) {
                    tests.add(t);
                }
            }
            List<Attempt> done = runRound(tests, 2);
            for (Attempt a : done) {
                for (RailTest f : byPair.get(new Schedule.HostPair(a.test().server(), a.test().client()))) {
                    if (f.rail() == a.test().rail()) {
                        out.put(f, a);
                    }
                }
            }
            round++;
            report("retest round " + (round - nextRound) + "/" + rounds.size(), done);
        }
        return out;
    }

    private MatrixOutcome verdicts(List<Attempt> firsts, Map<RailTest, Attempt> retests) {
        Verdicts v = Verdicts.judge(plan.hosts().names(), rules, firsts, retests);
        return new MatrixOutcome(plan, v.results(), v.best(), v.rollup());
    }

    /** Runs the tests at once (bounded by the launcher limit); returns their attempts without raw output. */
    private List<Attempt> runRound(List<RailTest> tests, int number) throws IOException, InterruptedException {
        List<Future<Attempt>> futures = new ArrayList<>();
        ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor();
        try {
            for (RailTest t : tests) {
                futures.add(ex.submit(() -> one(t, number)));
            }
            List<Attempt> out = new ArrayList<>();
            for (Future<Attempt> f : futures) {
                out.add(f.get());
            }
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException u) {
                throw u.getCause();
            }
            if (e.getCause() instanceof InterruptedException i) {
                throw i;
            }
            throw new IllegalStateException("rail test failed unexpectedly", e.getCause());
        } finally {
            ex.shutdownNow();
        }
    }

    private Attempt one(RailTest t, int number) throws InterruptedException {
        connections.acquire(2);
        Attempt a;
        try {
            a = pairs.run(t, number);
        } finally {
            connections.release(2);
        }
        synchronized (sink) {
            try {
                sink.attempt(a);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return a.withoutRaw();
    }

    /**
     * One progress line. Counts accumulate: each attempt is judged once, against the best figures seen up to its
     * round, so the driver's work per round stays proportional to that round's tests.
     */
    private void report(String what, List<Attempt> round) {
        List<Attempt> judged = new ArrayList<>(round);
        if (!Double.isNaN(bestSoFar.bwGbps()) || !Double.isNaN(bestSoFar.latUsec())) {
            judged.add(new Attempt(null, 0, null, bestSoFar.bwGbps(), bestSoFar.latUsec(), List.of()));
        }
        bestSoFar = OutlierRules.best(judged);
        for (Attempt a : round) {
            if (!a.ok()) {
                failedSoFar++;
            } else if (!rules.flags(a, bestSoFar).isEmpty()) {
                flaggedSoFar++;
            }
        }
        testsSoFar += round.size();
        progress.line("matrix: " + what + " done; " + testsSoFar + " tests, " + flaggedSoFar + " flagged, "
                + failedSoFar + " failed so far");
    }
}
