package io.rdmaffm.perftest.cluster;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * One order to a host's worker, seen as the end of a rail test ({@link ProcessRunner.Running}), so that
 * {@link PairRunner} treats it as it treats a tool started by its own ssh or srun: the same waits, bounds,
 * retries and failure reading. Its standard output is what a per-test end's script prints: the pid line (the
 * worker's pid, which is what the launcher's kill command must stop), the tool's lines, and for a JSON order the
 * JSON mark and the document. When the session ends before the order is done, the order ends with the session's
 * exit status (ssh's 255 for a lost host) and error output, which the failure reading already knows.
 */
final class WorkerEnd implements ProcessRunner.Running {
    private final WorkerSession session;
    private final long id;
    private final StringBuilder out = new StringBuilder();
    private long pid = -1;
    private String json;
    private int rc;
    private boolean done;
    private boolean lost;
    private int lostExit = -1;

    WorkerEnd(WorkerSession session, long id) {
        this.session = session;
        this.id = id;
    }

    long id() {
        return id;
    }

    synchronized void started(long workerPid) {
        pid = workerPid;
    }

    synchronized void line(String text) {
        if (out.length() < LocalProcessRunner.CAP_CHARS) {
            out.append(text).append('\n');
        }
        notifyAll();
    }

    synchronized void done(int status, String document) {
        rc = status;
        json = document;
        done = true;
        notifyAll();
    }

    /** The session ended before the order was done; {@code exit} is its status (-1 when not known). */
    synchronized void lost(int exit) {
        if (!done) {
            lost = true;
            lostExit = exit;
            notifyAll();
        }
    }

    synchronized boolean finished() {
        return done || lost;
    }

    @Override
    public String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (this) {
            return OutputLines.await(this, out, match, deadline, () -> done || lost, Long.MAX_VALUE);
        }
    }

    @Override
    public synchronized boolean waitFor(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!done && !lost) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    @Override
    public synchronized int exitCode() {
        return done ? rc : lostExit;
    }

    @Override
    public synchronized String stdout() {
        StringBuilder s = new StringBuilder();
        if (pid > 0) {
            s.append(RemoteScript.PID_MARK).append(' ').append(pid).append('\n');
        }
        s.append(out);
        if (json != null) {
            s.append(RemoteScript.JSON_MARK).append('\n').append(json).append('\n');
        }
        return s.toString();
    }

    /**
     * The session's error output, only when the session ended under this order (ssh's reason is there); a tool's
     * own messages are among its lines, and the session's (a JVM's "Picked up JDK_JAVA_OPTIONS" note) would
     * otherwise stand as the last line of a failed run's message.
     */
    @Override
    public synchronized String stderr() {
        return lost ? session.stderr() : "";
    }

    @Override
    public synchronized boolean alive() {
        return !done && !lost;
    }

    /**
     * Stops an order that is still running: a tool inside the worker cannot be stopped on its own, so the session
     * goes (the next order to this host starts a fresh worker). A finished order leaves the worker as it is.
     */
    @Override
    public void destroy() {
        if (alive()) {
            session.kill();
        }
    }
}
