package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Every remote end the run has started and not yet seen end, so that a stall, the end of a pair, or Ctrl-C
 * (the run's shutdown hook) can stop them: the remote tool by pid through the launcher's kill command (ssh), then
 * the local launcher process (which is all srun needs). Each stop is bounded.
 */
public final class RemoteProcesses {
    private final Launcher launcher;
    private final ProcessRunner runner;
    private final Duration killTimeout;
    private final Map<ProcessRunner.Running, String> live = new LinkedHashMap<>();
    private boolean closed;

    /**
     * @param killTimeout bound on each remote kill command
     */
    public RemoteProcesses(Launcher launcher, ProcessRunner runner, Duration killTimeout) {
        this.launcher = launcher;
        this.runner = runner;
        this.killTimeout = killTimeout;
    }

    /**
     * Remembers an end started on {@code host}. After {@link #stopAll} (Ctrl-C while a pair was starting) the end
     * is ended at once instead: the run's threads may still be starting ends while the shutdown hook runs.
     */
    public void add(ProcessRunner.Running p, String host) {
        synchronized (this) {
            if (!closed) {
                live.put(p, host);
                return;
            }
        }
        p.destroy();
    }

    /** Whether {@link #stopAll} has run: no new end should be started. */
    public synchronized boolean closed() {
        return closed;
    }

    /** Forgets an end that has ended by itself. */
    public synchronized void remove(ProcessRunner.Running p) {
        live.remove(p);
    }

    /** How many ends are alive or not yet forgotten. */
    public synchronized int size() {
        return live.size();
    }

    /** Stops one end: its remote tool (when the launcher needs that), then the local launcher process. */
    public void stop(ProcessRunner.Running p) throws InterruptedException {
        String host;
        synchronized (this) {
            host = live.remove(p);
        }
        if (host == null) {
            return;
        }
        long pid = RemoteScript.pid(p.stdout());
        List<String> kill = pid > 0 && p.alive() ? launcher.killCommand(host, pid) : null;
        if (kill != null) {
            try {
                runner.run(kill, killTimeout);
            } catch (IOException e) {
                // the launcher cannot be started at all: the tool's own timeouts end it
            }
        }
        p.destroy();
    }

    /**
     * Stops every end still known, in parallel, within about {@code 2 × killTimeout} in all (Ctrl-C must not
     * hang on an unreachable host), and refuses new ones from then on.
     */
    public void stopAll() {
        List<ProcessRunner.Running> all;
        synchronized (this) {
            closed = true;
            all = new ArrayList<>(live.keySet());
        }
        if (all.isEmpty()) {
            return;
        }
        // Not try-with-resources: close() would wait for every task, and Ctrl-C must not hang on one host.
        ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor();
        for (ProcessRunner.Running p : all) {
            ex.submit(() -> {
                stop(p);
                return null;
            });
        }
        ex.shutdown();
        try {
            if (!ex.awaitTermination(killTimeout.toMillis() * 2 + 1000, TimeUnit.MILLISECONDS)) {
                ex.shutdownNow();
            }
        } catch (InterruptedException e) {
            ex.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
