package io.rdmaffm.perftest.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A rank's connection to the {@link Coordinator}. A reader thread keeps the coordinator's lines; an ABORT (or the
 * connection closing) is kept as {@link #abortReason()}, which every wait of the worker checks. Every wait has a
 * deadline.
 */
final class CoordinatorClient implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final BooleanSupplier interrupted;
    private volatile String abort;
    private volatile boolean closing;

    private CoordinatorClient(Socket socket, BooleanSupplier interrupted) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.interrupted = interrupted;
        InputStream in = socket.getInputStream();
        Thread.ofVirtual().name("fabric-client-read").start(() -> read(in));
    }

    /**
     * Connects (retrying until the deadline: rank 0 may not listen yet) and says HELLO.
     *
     * @throws FabricFailure when no connection came up before the deadline
     */
    static CoordinatorClient connect(String host, int port, int rank, String hostName, long deadlineNanos,
            BooleanSupplier interrupted) {
        String last = "no attempt";
        while (System.nanoTime() < deadlineNanos && !interrupted.getAsBoolean()) {
            Socket s = new Socket();
            try {
                long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime()));
                s.connect(new InetSocketAddress(host, port), (int) Math.min(leftMs, 5000));
                s.setTcpNoDelay(true);
                CoordinatorClient c = new CoordinatorClient(s, interrupted);
                c.send("HELLO " + rank + " " + Lines.token(hostName));
                return c;
            } catch (IOException e) {
                last = e.getMessage();
                try {
                    s.close();
                } catch (IOException x) {
                    // not connected
                }
                try {
                    Thread.sleep(200);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        throw new FabricFailure(interrupted.getAsBoolean() ? "interrupted"
                : "could not reach the coordinator (rank 0) at " + host + ":" + port + ": " + last);
    }

    private void read(InputStream in) {
        try (in) {
            for (String l; (l = Lines.read(in)) != null; ) {
                if (l.startsWith("ABORT ")) {
                    abort = "aborted: " + l.substring(6);
                } else {
                    lines.add(l);
                }
            }
        } catch (IOException e) {
            // ends like a close
        }
        if (abort == null && !closing) {
            abort = "the coordinator (rank 0) closed the connection";
        }
        lines.add(""); // wakes a waiter
    }

    /** The ABORT's text (or the lost connection), null while the run goes on. */
    String abortReason() {
        return abort;
    }

    /** Throws when the run has been aborted or the worker interrupted. */
    void check() {
        if (interrupted.getAsBoolean()) {
            throw new FabricFailure("interrupted");
        }
        String a = abort;
        if (a != null) {
            throw new FabricFailure(a);
        }
    }

    synchronized void send(String line) {
        try {
            Lines.write(out, line);
        } catch (IOException e) {
            throw new FabricFailure(abort != null ? abort : "lost the coordinator (rank 0): " + e.getMessage());
        }
    }

    /** Sends an error for the coordinator to broadcast; never throws. */
    void sendError(String text) {
        try {
            send("ERROR " + text);
        } catch (FabricFailure e) {
            // the coordinator is gone: the others learn it from their own connections
        }
    }

    /**
     * The next line starting with {@code prefix}, waiting until the deadline; lines of other kinds that come first
     * are a protocol error.
     */
    String await(String prefix, long deadlineNanos, String what) {
        for (;;) {
            check();
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0) {
                throw new FabricFailure("no " + what + " from the coordinator within the timeout");
            }
            String l;
            try {
                l = lines.poll(Math.min(left, TimeUnit.MILLISECONDS.toNanos(100)), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new FabricFailure("interrupted");
            }
            if (l == null || l.isEmpty()) {
                continue;
            }
            if (!l.startsWith(prefix)) {
                throw new FabricFailure("coordinator sent '" + l + "' while " + what + " was awaited");
            }
            return l;
        }
    }

    /** The rank table: host of each rank. */
    List<String> table(int ranks, long deadlineNanos) {
        String[] f = await("TABLE ", deadlineNanos, "rank table").split(" ");
        if (f.length != ranks + 2 || !f[1].equals(String.valueOf(ranks))) {
            throw new FabricFailure("coordinator's rank table is not for " + ranks + " ranks");
        }
        List<String> hosts = new ArrayList<>();
        for (int i = 2; i < f.length; i++) {
            hosts.add(f[i]);
        }
        return hosts;
    }

    /** Says BARRIER name and waits for PASS name. */
    void barrier(String name, long deadlineNanos) {
        send("BARRIER " + name);
        String l = await("PASS ", deadlineNanos, "pass of barrier " + name);
        if (!l.equals("PASS " + name)) {
            throw new FabricFailure("coordinator passed '" + l + "' while at barrier " + name);
        }
    }

    @Override
    public void close() {
        closing = true;
        try {
            socket.close();
        } catch (IOException e) {
            // closing
        }
    }
}
