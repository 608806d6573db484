package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

/**
 * The driver's side of one worker (one host and rail) for as long as it lives: the launcher's session (ssh or
 * srun, left open), the order in flight (at most one: a host is in one test per round and rail), and a virtual
 * thread that reads the worker's events and hands them to that order. An order given before the worker is ready
 * waits here and is sent once it is, so the first order's bounds cover the worker's start, as a per-test end's
 * bounds cover its JVM's.
 */
final class WorkerSession {
    /** How long a session whose output ended may take to give its exit status. */
    private static final Duration ENDING = Duration.ofSeconds(5);

    private final String host;
    private final ProcessRunner.Conversation conversation;
    private long nextId = 1;
    private long pid = -1;
    private boolean ready;
    private boolean ended;
    private int exit = -1;
    private WorkerEnd current;
    private String pending;
    private long lastUsed = System.nanoTime();

    WorkerSession(String host, ProcessRunner.Conversation conversation) {
        this.host = host;
        this.conversation = conversation;
        Thread.ofVirtual().name("matrix-worker-" + host).start(this::read);
    }

    String host() {
        return host;
    }

    /** Gives the worker an order; the returned end follows it. */
    synchronized WorkerEnd submit(List<String> argv, boolean json) {
        if (current != null && !current.finished()) {
            throw new IllegalStateException("the worker on " + host + " has an order running");
        }
        WorkerEnd e = new WorkerEnd(this, nextId++);
        current = e;
        lastUsed = System.nanoTime();
        String order = WorkerProtocol.run(e.id(), json, argv);
        if (ended) {
            e.lost(exit);
        } else if (ready) {
            e.started(pid);
            send(order);
        } else {
            pending = order;
        }
        return e;
    }

    /** Whether it can take no more orders (its process ended, or it was killed). */
    synchronized boolean ended() {
        return ended;
    }

    /** Whether no order is running. */
    synchronized boolean idle() {
        return current == null || current.finished();
    }

    synchronized long lastUsed() {
        return lastUsed;
    }

    /** The worker's pid once it said it is ready, else -1. */
    synchronized long pid() {
        return pid;
    }

    String stderr() {
        return conversation.stderr();
    }

    /** Asks the worker to end (the end of its input): it does once its running order, if any, is done. */
    void quit() {
        conversation.closeInput();
    }

    /** Ends the local launcher process now; the order in flight, if any, is lost. */
    void kill() {
        synchronized (this) {
            ended = true;
        }
        conversation.destroy();
    }

    /** Waits for the launcher process to end, at most {@code timeout}. */
    boolean waitFor(Duration timeout) throws InterruptedException {
        return conversation.waitFor(timeout);
    }

    private void send(String order) {
        try {
            conversation.send(order);
        } catch (IOException e) {
            // The worker's input is gone: the reader sees its output end too and the order is lost then.
        }
    }

    private void read() {
        try {
            String line;
            while ((line = conversation.readLine()) != null) {
                WorkerProtocol.Event ev = WorkerProtocol.event(line);
                if (ev != null) {
                    handle(ev);
                }
            }
        } catch (IOException e) {
            // the end of its output
        }
        int status = -1;
        try {
            if (conversation.waitFor(ENDING)) {
                status = conversation.exitCode();
            } else {
                conversation.destroy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        WorkerEnd e;
        synchronized (this) {
            ended = true;
            exit = status;
            e = current;
        }
        if (e != null) {
            e.lost(status);
        }
    }

    private void handle(WorkerProtocol.Event ev) {
        WorkerEnd e;
        synchronized (this) {
            if (ev.kind().equals("ready")) {
                ready = true;
                pid = ev.pid();
                if (pending != null && current != null) {
                    current.started(pid);
                    send(pending);
                    pending = null;
                }
                return;
            }
            e = current != null && current.id() == ev.id() ? current : null;
        }
        if (e == null) {
            return;
        }
        switch (ev.kind()) {
            case "line" -> e.line(ev.text() == null ? "" : ev.text());
            case "done" -> e.done(ev.rc(), ev.json());
            default -> {
                // an event a newer worker sends: nothing to do with it here
            }
        }
    }
}
