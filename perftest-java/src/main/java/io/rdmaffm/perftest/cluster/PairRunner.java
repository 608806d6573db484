package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one rail test: for each tool, the server end first; the client end once the server says it listens
 * (retried while it reports a refused connection, within the listen bound); every wait bounded; both ends
 * stopped whatever happens. Turns what the ends printed into figures or a {@link Failure} that names the host
 * to blame where the output allows.
 */
final class PairRunner {
    /** How long an end that should be ending anyway (a server after its client finished) gets at most. */
    static final Duration GRACE = Duration.ofSeconds(5);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(500);
    /** How long a server whose output ended may take to exit. */
    private static final Duration ENDING = Duration.ofSeconds(1);

    private final MatrixRequest o;
    private final Launcher launcher;
    private final ProcessRunner runner;
    private final RemoteProcesses live;
    /** The hosts' workers, or null when each end is its own launch (C perftest, {@code --launch per-test}). */
    private final WorkerPool workers;

    private final Duration grace;

    PairRunner(MatrixRequest o, Launcher launcher, ProcessRunner runner, RemoteProcesses live) {
        this(o, launcher, runner, live, null);
    }

    PairRunner(MatrixRequest o, Launcher launcher, ProcessRunner runner, RemoteProcesses live, WorkerPool workers) {
        this.o = o;
        this.workers = workers;
        this.grace = o.listenTimeout().compareTo(GRACE) < 0 ? o.listenTimeout() : GRACE;
        this.launcher = launcher;
        this.runner = runner;
        this.live = live;
    }

    /** Every tool of the options on {@code t}; stops at the first failure. */
    Attempt run(RailTest t, int number) throws InterruptedException {
        double bw = Double.NaN;
        double lat = Double.NaN;
        List<Attempt.ToolRun> runs = new ArrayList<>();
        for (String tool : o.tools()) {
            Outcome r = runTool(t, tool);
            if (r.run != null) {
                runs.add(r.run);
            }
            if (r.failure != null) {
                return new Attempt(t, number, r.failure, Double.NaN, Double.NaN, runs);
            }
            bw = Double.isNaN(r.figures.bwGbps()) ? bw : r.figures.bwGbps();
            lat = Double.isNaN(r.figures.latUsec()) ? lat : r.figures.latUsec();
        }
        return new Attempt(t, number, null, bw, lat, runs);
    }

    private record Outcome(Failure failure, ToolOutput.Figures figures, Attempt.ToolRun run) {
    }

    private Outcome runTool(RailTest t, String tool) throws InterruptedException {
        long accept = o.listenTimeout().plus(o.testTimeout()).toSeconds() + 1;
        String serverScript = RemoteScript.of(o.peer(), o.toolPath(), tool, t.serverDevice(), t.port(), o.toolArgs(),
                null, accept);
        ProcessRunner.Running server;
        try {
            server = workers == null ? start(t.server(), serverScript) : order(t.server(), t.rail(),
                    RemoteScript.workerArgv(tool, t.serverDevice(), t.port(), o.toolArgs(), null, accept), false);
        } catch (IOException e) {
            return cannotStart(e);
        }
        try {
            String listening = server.awaitLine(l -> l.contains(RemoteScript.LISTENING), o.listenTimeout());
            if (listening == null) {
                return serverNotListening(t, server);
            }
            return runClient(t, tool, server);
        } finally {
            if (!server.waitFor(server.alive() ? grace : Duration.ZERO)) {
                live.stop(server);
            } else {
                live.remove(server);
            }
        }
    }

    private Outcome serverNotListening(RailTest t, ProcessRunner.Running server) throws InterruptedException {
        // awaitLine gave up because the server's output ended (collect its last words) or because time ran out
        // (stop it). The output can end a moment before the exit status is there (an ssh that could not connect,
        // seen as "did not listen"): a short wait, not alive(), tells the two apart.
        if (server.waitFor(ENDING)) {
            Failure f = endFailure(server, t.server(), "server");
            return failed(f != null ? f : new Failure(Failure.Kind.RUN_FAILED, null,
                    "server on " + t.server() + " ended before listening"), null);
        }
        live.stop(server);
        return failed(new Failure(Failure.Kind.STALLED, null, "server on " + t.server() + " did not listen within "
                + MatrixPlan.human(o.listenTimeout())), null);
    }

    private Outcome runClient(RailTest t, String tool, ProcessRunner.Running server) throws InterruptedException {
        String script = RemoteScript.of(o.peer(), o.toolPath(), tool, t.clientDevice(), t.port(), o.toolArgs(),
                t.server(), 0);
        long start = System.nanoTime();
        long deadline = start + o.testTimeout().toNanos();
        while (true) {
            ProcessRunner.Running client;
            try {
                client = workers == null ? start(t.client(), script) : order(t.client(), t.rail(),
                        RemoteScript.workerArgv(tool, t.clientDevice(), t.port(), o.toolArgs(), t.server(), 0), true);
            } catch (IOException e) {
                return cannotStart(e);
            }
            if (!client.waitFor(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))) {
                Attempt.ToolRun run = new Attempt.ToolRun(tool, -1, null, ToolOutput.text(client.stdout()));
                live.stop(client);
                return failed(new Failure(Failure.Kind.STALLED, null, "no result within "
                        + MatrixPlan.human(o.testTimeout()) + " (client on " + t.client() + " stopped)"), run);
            }
            live.remove(client);
            int rc = client.exitCode();
            String out = client.stdout();
            boolean retry = rc != 0 && RemoteScript.pid(out) > 0 && ToolOutput.refused(out) && server.alive()
                    && System.nanoTime() - start + RETRY_PAUSE.toNanos() < o.listenTimeout().toNanos();
            if (retry) {
                Thread.sleep(RETRY_PAUSE);
                continue;
            }
            Attempt.ToolRun run = new Attempt.ToolRun(tool, rc, ToolOutput.json(out), ToolOutput.text(out));
            Failure f = endFailure(client, t.client(), "client");
            if (f != null) {
                return failed(preferServer(f, t, server), run);
            }
            ToolOutput.Figures fig = ToolOutput.figures(o.peer(), tool.endsWith("_bw"), out);
            if (fig == null) {
                return failed(new Failure(Failure.Kind.NO_RESULT, null, "client on " + t.client()
                        + " exited 0 without figures"), run);
            }
            return new Outcome(null, fig, run);
        }
    }

    /**
     * A client that failed because its server did is reported with the server's cause when that names a host
     * (lost, device gone), else with both ends' last words.
     */
    private Failure preferServer(Failure clientFailure, RailTest t, ProcessRunner.Running server)
            throws InterruptedException {
        if (clientFailure.host() != null || !server.waitFor(Duration.ofMillis(200))) {
            return clientFailure;
        }
        Failure s = endFailure(server, t.server(), "server");
        if (s == null) {
            return clientFailure;
        }
        return s.host() != null ? s : new Failure(clientFailure.kind(), null, clientFailure.message() + "; "
                + s.message());
    }

    private ProcessRunner.Running start(String host, String script) throws IOException, InterruptedException {
        if (live.closed()) {
            throw new InterruptedException("the matrix is stopping");
        }
        ProcessRunner.Running p = runner.start(launcher.command(host, script));
        live.add(p, host);
        return p;
    }

    /** An end as an order to the host's worker for this rail. */
    private ProcessRunner.Running order(String host, int rail, List<String> argv, boolean json)
            throws IOException, InterruptedException {
        if (live.closed()) {
            throw new InterruptedException("the matrix is stopping");
        }
        ProcessRunner.Running p = workers.submit(host, rail, argv, json);
        live.add(p, host);
        return p;
    }

    /** Why an ended end failed, or null when it exited 0. */
    Failure endFailure(ProcessRunner.Running p, String host, String role) {
        int rc = p.exitCode();
        if (rc == 0) {
            return null;
        }
        String out = p.stdout();
        String err = p.stderr();
        if (RemoteScript.pid(out) < 0) {
            if (rc == 127 && err.contains(RemoteScript.MISSING_MARK)) {
                String tool = o.peer() == MatrixRequest.Peer.JAVA ? "rdma-perftest" : "C perftest";
                return new Failure(Failure.Kind.TOOL_MISSING, host, tool + " not found on " + host
                        + (o.toolPath() == null ? " (not on PATH)" : " (" + o.toolPath() + ")"));
            }
            String why = ToolOutput.lastLine(err);
            return new Failure(Failure.Kind.UNREACHABLE, host, launcher.name() + " to " + host + " failed (exit " + rc
                    + ")" + (why.isEmpty() ? "" : ": " + why));
        }
        if (launcher.launcherFailed(rc)) {
            String why = ToolOutput.lastLine(err);
            return new Failure(Failure.Kind.UNREACHABLE, host, "lost " + host + " during the run"
                    + (why.isEmpty() ? "" : ": " + why));
        }
        String text = ToolOutput.text(out) + "\n" + err;
        String missing = ToolOutput.deviceMissing(text);
        if (missing != null) {
            return new Failure(Failure.Kind.DEVICE_MISSING, host, host + ": " + missing);
        }
        return new Failure(Failure.Kind.RUN_FAILED, null, role + " on " + host + " exited " + rc + ": "
                + ToolOutput.lastLine(text));
    }

    /** The launcher itself could not be started here (not installed): no host is to blame. */
    private Outcome cannotStart(IOException e) {
        return failed(new Failure(Failure.Kind.UNREACHABLE, null, "cannot start " + launcher.name() + ": "
                + e.getMessage()), null);
    }

    private static Outcome failed(Failure f, Attempt.ToolRun run) {
        return new Outcome(f, null, run);
    }
}
