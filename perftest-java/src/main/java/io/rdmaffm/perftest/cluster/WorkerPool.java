package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The run's workers, one per host and rail, started on first use over the launcher's session and kept for the
 * whole run. A worker that ended (its host lost, or killed because its test stalled) is replaced by a fresh one
 * at the next order for that host and rail, so each test meets a dead host as a per-test launch did.
 *
 * <p>At most {@code maxSessions} sessions (launcher processes) are open at once, as {@code --max-connections}
 * bounds per-test launches: when a new one is needed and none is free, the idle one used least recently is asked
 * to quit. Below that bound (the default for up to 64 hosts on one rail) every host keeps its one JVM all run.
 */
final class WorkerPool {
    private record Key(String host, int rail) {
    }

    private final Launcher launcher;
    private final ProcessRunner runner;
    private final String script;
    private final int maxSessions;
    private final Duration killTimeout;
    private final Map<Key, WorkerSession> sessions = new HashMap<>();
    private boolean closed;

    /**
     * @param script      the worker's start script ({@link RemoteScript#worker})
     * @param maxSessions sessions open at once
     * @param killTimeout bound on each remote kill command
     */
    WorkerPool(Launcher launcher, ProcessRunner runner, String script, int maxSessions, Duration killTimeout) {
        this.launcher = launcher;
        this.runner = runner;
        this.script = script;
        this.maxSessions = maxSessions;
        this.killTimeout = killTimeout;
    }

    /**
     * Gives the worker of {@code host} and {@code rail} an order, starting the worker first when there is none.
     *
     * @throws IOException when the launcher cannot be started here
     * @throws InterruptedException when the pool was closed (the matrix is stopping)
     */
    WorkerEnd submit(String host, int rail, List<String> argv, boolean json) throws IOException, InterruptedException {
        WorkerSession evicted = null;
        WorkerSession s;
        synchronized (this) {
            if (closed) {
                throw new InterruptedException("the matrix is stopping");
            }
            Key k = new Key(host, rail);
            s = sessions.get(k);
            if (s == null || s.ended()) {
                sessions.remove(k);
                sessions.values().removeIf(WorkerSession::ended);
                if (sessions.size() >= maxSessions) {
                    evicted = leastRecentlyUsedIdle();
                    if (evicted != null) {
                        sessions.values().remove(evicted);
                    }
                }
                s = new WorkerSession(host, runner.converse(launcher.sessionCommand(host, script)));
                sessions.put(k, s);
            }
        }
        if (evicted != null) {
            evicted.quit();
        }
        return s.submit(argv, json);
    }

    private WorkerSession leastRecentlyUsedIdle() {
        WorkerSession best = null;
        for (WorkerSession s : sessions.values()) {
            if (s.idle() && (best == null || s.lastUsed() < best.lastUsed())) {
                best = s;
            }
        }
        return best;
    }

    /** How many sessions are open (tests). */
    synchronized int size() {
        sessions.values().removeIf(WorkerSession::ended);
        return sessions.size();
    }

    /**
     * Ends every worker, in parallel and bounded: the end of the run ({@code now} false: each is asked to quit and
     * given {@code grace}) or Ctrl-C ({@code now} true). A worker still there after that is stopped by pid through
     * the launcher's kill command (ssh), then its local launcher process is ended (all srun needs). Refuses new
     * orders from then on.
     */
    void closeAll(boolean now, Duration grace) {
        List<WorkerSession> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(sessions.values());
            sessions.clear();
        }
        if (all.isEmpty()) {
            return;
        }
        // Not try-with-resources: close() would wait for every task, and Ctrl-C must not hang on one host.
        ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor();
        for (WorkerSession s : all) {
            ex.submit(() -> {
                end(s, now, grace);
                return null;
            });
        }
        ex.shutdown();
        try {
            if (!ex.awaitTermination(grace.toMillis() + killTimeout.toMillis() * 2 + 1000, TimeUnit.MILLISECONDS)) {
                ex.shutdownNow();
            }
        } catch (InterruptedException e) {
            ex.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

    private void end(WorkerSession s, boolean now, Duration grace) throws InterruptedException {
        if (!now) {
            s.quit();
            if (s.waitFor(grace)) {
                return;
            }
        }
        long pid = s.pid();
        List<String> kill = pid > 0 && !s.ended() ? launcher.killCommand(s.host(), pid) : null;
        if (kill != null) {
            try {
                runner.run(kill, killTimeout);
            } catch (IOException e) {
                // the launcher cannot be started at all: the worker ends at the end of its input
            }
        }
        s.kill();
    }
}
