package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Failure;
import io.rdmaffm.perftest.cluster.Launcher;
import io.rdmaffm.perftest.cluster.MatrixPlan;
import io.rdmaffm.perftest.cluster.Names;
import io.rdmaffm.perftest.cluster.ProcessRunner;
import io.rdmaffm.perftest.cluster.Progress;
import io.rdmaffm.perftest.cluster.RemoteProcesses;
import io.rdmaffm.perftest.cluster.RemoteScript;
import io.rdmaffm.perftest.cluster.SrunLauncher;
import io.rdmaffm.perftest.cluster.SshLauncher;
import io.rdmaffm.perftest.cluster.MatrixRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Runs a {@link FabricPlan}: every rank started at once through the launcher (the collective needs all of them
 * up together, so unlike the matrix there are no rounds), each rank's end awaited until the plan's overall
 * deadline, the workers still running then stopped by their pid ({@link RemoteProcesses}), and each rank's end
 * turned into a {@link RankResult}. A shutdown hook stops every worker when the JVM is asked to end (Ctrl-C), as
 * the matrix's does. The driver never speaks the workers' coordinator protocol.
 */
public final class FabricRun {
    /** How long a rank may outlive every other rank's failure before it is stopped ({@link #abandoned}). */
    static final Duration ABANDONED_GRACE = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(200);
    private final FabricPlan plan;
    private final Launcher launcher;
    private final ProcessRunner runner;
    private final Progress progress;
    private final RemoteProcesses live;
    private boolean installHook = true;

    /**
     * @param plan     what to run
     * @param launcher ssh or srun
     * @param runner   starts the launcher processes
     * @param progress progress lines
     */
    public FabricRun(FabricPlan plan, Launcher launcher, ProcessRunner runner, Progress progress) {
        this.plan = plan;
        this.launcher = launcher;
        this.runner = runner;
        this.progress = progress;
        this.live = new RemoteProcesses(launcher, runner,
                Duration.ofSeconds(plan.request().hosts().connectTimeoutSeconds() + 5L));
    }

    /** The launcher the options ask for (the matrix's). */
    public static Launcher launcher(MatrixRequest o) {
        return o.launcher() == MatrixRequest.LauncherKind.SRUN ? new SrunLauncher()
                : new SshLauncher(o.connectTimeoutSeconds());
    }

    /** Tests run without a JVM shutdown hook. */
    public FabricRun withoutShutdownHook() {
        installHook = false;
        return this;
    }

    /** Runs every rank and returns their ends, in plan order. */
    public List<RankResult> run() throws InterruptedException {
        Thread hook = new Thread(live::stopAll, "rdma-fabric-stop");
        if (installHook) {
            Runtime.getRuntime().addShutdownHook(hook);
        }
        try {
            return runAll();
        } finally {
            if (installHook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running or has run: it stops the workers
                }
            }
            live.stopAll();
        }
    }

    private List<RankResult> runAll() throws InterruptedException {
        long deadline = System.nanoTime() + plan.deadline().toNanos();
        List<FabricPlan.Rank> ranks = plan.ranks();
        List<ProcessRunner.Running> started = new ArrayList<>();
        List<RankResult> cannot = new ArrayList<>();
        for (FabricPlan.Rank r : ranks) {
            String script = FabricScript.of(plan.request().hosts().toolPath(), plan.workerArgv(r));
            try {
                ProcessRunner.Running p = runner.start(launcher.command(r.host(), script));
                live.add(p, r.host());
                started.add(p);
                cannot.add(null);
            } catch (IOException e) {
                started.add(null);
                cannot.add(new RankResult(r, -1, null, new Failure(Failure.Kind.UNREACHABLE, null, "cannot start "
                        + launcher.name() + ": " + e.getMessage()), ""));
            }
        }
        progress.line("fabric: " + ranks.size() + " ranks started");
        RankResult[] out = new RankResult[ranks.size()];
        int done = 0;
        for (int i = 0; i < ranks.size(); i++) {
            if (started.get(i) == null) {
                out[i] = cannot.get(i);
                done++;
            }
        }
        // Every rank is watched at once, in whatever order they end: a rank that outlives all the others, each of
        // which ended in failure, waits for a collective that can no longer happen (its host never joined, or
        // hangs): it is stopped after ABANDONED_GRACE instead of at the deadline, its failure naming its host.
        long abandonedSince = 0;
        while (done < ranks.size()) {
            long left = deadline - System.nanoTime();
            boolean progressed = false;
            for (int i = 0; i < ranks.size(); i++) {
                ProcessRunner.Running p = started.get(i);
                if (out[i] != null || p.alive()) {
                    continue;
                }
                p.waitFor(Duration.ofSeconds(5));
                live.remove(p);
                out[i] = end(ranks.get(i), p, true);
                done++;
                progressed = true;
                progress.line("fabric: " + done + "/" + ranks.size() + " ranks ended");
            }
            if (done == ranks.size()) {
                break;
            }
            boolean abandoned = done > 0 && java.util.Arrays.stream(out).allMatch(x -> x == null || !x.ok());
            abandonedSince = !abandoned ? 0 : abandonedSince != 0 ? abandonedSince : System.nanoTime();
            boolean giveUp = left <= 0 || (abandoned && System.nanoTime() - abandonedSince >= ABANDONED_GRACE.toNanos());
            if (giveUp) {
                for (int i = 0; i < ranks.size(); i++) {
                    if (out[i] == null) {
                        ProcessRunner.Running p = started.get(i);
                        boolean ended = !p.alive() && p.waitFor(Duration.ofSeconds(1));
                        if (ended) {
                            live.remove(p);
                        } else {
                            live.stop(p);
                        }
                        out[i] = ended ? end(ranks.get(i), p, true) : left <= 0 ? end(ranks.get(i), p, false)
                                : abandoned(ranks.get(i), p, out);
                        done++;
                        progress.line("fabric: " + done + "/" + ranks.size() + " ranks ended");
                    }
                }
                break;
            }
            if (!progressed) {
                Thread.sleep(Math.max(1, Math.min(POLL.toMillis(), left / 1_000_000)));
            }
        }
        return List.of(out);
    }

    /**
     * The end of a rank stopped because every other rank had ended in failure. When a peer's error names its rank
     * ("rank 2 never joined"), it is the cause and its host is named; otherwise it is a consequence of the ranks
     * that failed first (no host of its own).
     */
    private RankResult abandoned(FabricPlan.Rank r, ProcessRunner.Running p, RankResult[] others) {
        String k = Integer.toString(r.rank());
        java.util.regex.Pattern named = java.util.regex.Pattern.compile("\\branks? (\\d+, )*" + k + "\\b(, \\d+)*(.*)");
        boolean cause = false;
        boolean neverJoined = false;
        for (RankResult x : others) {
            if (x != null && x.result() != null && x.result().get("error") instanceof String e) {
                java.util.regex.Matcher m = named.matcher(e);
                if (m.find()) {
                    cause = true;
                    neverJoined |= m.group(3).startsWith(" never joined");
                }
            }
        }
        String how = " (stopped" + (RemoteScript.pid(p.stdout()) > 0 ? " by pid " : " ")
                + MatrixPlan.human(ABANDONED_GRACE) + " after the last of them)";
        Failure f = cause ? new Failure(Failure.Kind.STALLED, r.host(), "rank " + k + " on " + r.host()
                + (neverJoined ? " never joined" : " gave no result") + "; it still ran when every other rank had ended"
                + " in failure, their errors naming it" + how)
                : new Failure(Failure.Kind.STALLED, null, "rank " + k + " on " + r.host() + " still ran when every"
                + " other rank had ended in failure" + how);
        return new RankResult(r, -1, null, f, tail(p.stderr()));
    }

    /** A rank's end from what its launcher process printed. */
    RankResult end(FabricPlan.Rank r, ProcessRunner.Running p, boolean ended) {
        String out = p.stdout();
        String err = p.stderr();
        int rc = ended ? p.exitCode() : -1;
        String host = r.host();
        Map<String, Object> result;
        try {
            result = ResultLine.find(out);
        } catch (IllegalArgumentException e) {
            return new RankResult(r, rc, null, new Failure(Failure.Kind.NO_RESULT, host, "rank " + r.rank() + " on "
                    + host + ": its result line is not a JSON object (" + e.getMessage() + ")"), tail(err));
        }
        if (result != null) {
            Object error = result.get("error");
            if (error != null) {
                return new RankResult(r, rc, result, new Failure(Failure.Kind.RUN_FAILED, null, "rank " + r.rank()
                        + " on " + host + ": " + Names.printable(String.valueOf(error), 300)), tail(err));
            }
            if (!ended) {
                return new RankResult(r, rc, result, new Failure(Failure.Kind.STALLED, host, "rank " + r.rank()
                        + " on " + host + " printed its result but did not exit within "
                        + MatrixPlan.human(plan.deadline()) + " (stopped)"), tail(err));
            }
            // The contract's exit 1 is wrong data, judged from "wrong"; any other non-zero exit without an error
            // in the result is still no success.
            Double wrong = Fields.number(result.get("wrong"));
            if (rc != 0 && !(rc == 1 && wrong != null && wrong > 0)) {
                String why = lastLine(err);
                return new RankResult(r, rc, result, new Failure(Failure.Kind.RUN_FAILED, null, "rank " + r.rank()
                        + " on " + host + " exited " + rc + " though its result names no error"
                        + (why.isEmpty() ? "" : ": " + why)), tail(err));
            }
            return new RankResult(r, rc, result, null, tail(err));
        }
        Failure f;
        if (!ended) {
            f = new Failure(Failure.Kind.STALLED, host, "rank " + r.rank() + " on " + host + ": no result within "
                    + MatrixPlan.human(plan.deadline()) + " (stopped" + (RemoteScript.pid(out) > 0 ? " by pid" : "")
                    + ")");
        } else if (RemoteScript.pid(out) < 0 && rc == 127 && err.contains(RemoteScript.MISSING_MARK)) {
            String path = plan.request().hosts().toolPath();
            f = new Failure(Failure.Kind.TOOL_MISSING, host, "rdma-perftest not found on " + host
                    + (path == null ? " (not on PATH)" : " (" + path + ")"));
        } else if (launcher.launcherFailed(rc) || RemoteScript.pid(out) < 0) {
            String why = lastLine(err);
            f = new Failure(Failure.Kind.UNREACHABLE, host, (RemoteScript.pid(out) < 0 ? launcher.name() + " to "
                    + host + " failed (exit " + rc + ")" : "lost " + host + " during the run")
                    + (why.isEmpty() ? "" : ": " + why));
        } else {
            String why = lastLine(err);
            f = new Failure(Failure.Kind.NO_RESULT, host, "rank " + r.rank() + " on " + host + " exited " + rc
                    + " without a result line" + (why.isEmpty() ? "" : ": " + why));
        }
        return new RankResult(r, rc, null, f, tail(err));
    }

    private static String lastLine(String s) {
        String[] lines = s.strip().split("\n");
        return lines.length == 0 ? "" : Names.printable(lines[lines.length - 1].strip(), 200);
    }

    private static String tail(String s) {
        return s.length() <= 4000 ? s : s.substring(s.length() - 4000);
    }
}
