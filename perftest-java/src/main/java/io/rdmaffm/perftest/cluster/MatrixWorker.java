package io.rdmaffm.perftest.cluster;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The host's end of {@link WorkerProtocol}: one JVM that runs the matrix's tools on this host one after another,
 * in-process, for the whole run, so the JVM's start and warm-up (class loading, picocli's model, FFM linking, the
 * JIT) are paid once per host and rail instead of once per tool run.
 *
 * <p>It runs only the perftest tools ({@code ib_*}): an order for anything else is refused (status 2), so a
 * worker is no remote shell. Each tool's output (its writer, and {@code System.out}/{@code System.err}, which
 * some messages use) becomes {@code line} events of the running order; the real stdout carries only events.
 * The end of the input (the driver or its ssh gone) ends the worker at once, a running tool with it: an order can
 * no longer be answered, and the tool's own timeouts are not to be waited for.
 */
public final class MatrixWorker {

    /** Runs one tool command line in this JVM, its output to {@code out}; returns its exit status. */
    @FunctionalInterface
    public interface Tools {
        int run(List<String> argv, PrintWriter out);
    }

    private static final Object EOF = new Object();

    private final Tools tools;
    private final PrintStream events;
    private final Runnable orphaned;
    private volatile long current = -1;

    /**
     * @param tools    runs a tool
     * @param events   where events go (the process's real stdout)
     * @param orphaned what the end of the input does while an order runs (the command: halt the JVM)
     */
    public MatrixWorker(Tools tools, PrintStream events, Runnable orphaned) {
        this.tools = tools;
        this.events = events;
        this.orphaned = orphaned;
    }

    /**
     * Serves orders from {@code in} until {@code quit} or its end.
     *
     * @return 0 after {@code quit} or the end of the input between orders
     */
    public int serve(InputStream in) throws InterruptedException {
        LinkedBlockingQueue<Object> orders = new LinkedBlockingQueue<>();
        Thread reader = Thread.ofVirtual().name("matrix-worker-orders").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
                String line;
                while ((line = r.readLine()) != null) {
                    orders.add(line);
                    if (line.equals(WorkerProtocol.quit())) {
                        // Ended by its driver: what follows (even the end of the input) cannot orphan the running order.
                        return;
                    }
                }
            } catch (IOException e) {
                // the same as the end of the input
            }
            orders.add(EOF);
            if (current >= 0) {
                orphaned.run();
            }
        });
        emit(WorkerProtocol.ready(ProcessHandle.current().pid()));
        PrintStream stdout = System.out;
        PrintStream stderr = System.err;
        try {
            while (true) {
                Object o = orders.take();
                if (o == EOF) {
                    return 0;
                }
                WorkerProtocol.Order order;
                try {
                    order = WorkerProtocol.order((String) o);
                } catch (IllegalArgumentException e) {
                    emit(WorkerProtocol.line(0, "matrix-worker: error: " + e.getMessage()));
                    continue;
                }
                if (order == null) {
                    return 0;
                }
                run(order);
            }
        } finally {
            System.setOut(stdout);
            System.setErr(stderr);
            reader.interrupt();
        }
    }

    private void run(WorkerProtocol.Order order) {
        long id = order.id();
        List<String> argv = order.argv();
        if (argv.isEmpty() || !argv.getFirst().startsWith("ib_")) {
            emit(WorkerProtocol.line(id, "matrix-worker: error: only the perftest tools run here, not '"
                    + Names.printable(argv.isEmpty() ? "" : argv.getFirst()) + "'"));
            emit(WorkerProtocol.done(id, 2, null));
            return;
        }
        Path json = null;
        int rc;
        Lines lines = new Lines(id);
        PrintStream captured = new PrintStream(lines, true, StandardCharsets.UTF_8);
        try {
            List<String> args = new ArrayList<>(argv);
            if (order.json()) {
                json = Files.createTempFile("rdma-matrix", ".json");
                // Right after the tool's name: whatever the arguments hold after it (a "--"), this is an option.
                args.addAll(1, List.of("--out_json_file", json.toString()));
            }
            current = id;
            System.setOut(captured);
            System.setErr(captured);
            PrintWriter out = new PrintWriter(new OutputStreamWriter(captured, StandardCharsets.UTF_8), true);
            try {
                rc = tools.run(args, out);
            } catch (RuntimeException e) {
                out.println("matrix-worker: error: " + e);
                rc = 1;
            }
            out.flush();
            captured.flush();
            lines.flushPartial();
        } catch (IOException e) {
            emit(WorkerProtocol.line(id, "matrix-worker: error: cannot make a file for the tool's JSON: "
                    + e.getMessage()));
            rc = 2;
        } finally {
            current = -1;
        }
        String doc = null;
        if (json != null) {
            try {
                if (Files.size(json) > 0) {
                    doc = Files.readString(json, StandardCharsets.UTF_8);
                }
            } catch (IOException e) {
                // no document: the driver reports the run without figures
            } finally {
                try {
                    Files.deleteIfExists(json);
                } catch (IOException e) {
                    // a temp file left behind is not worth failing the order for
                }
            }
        }
        emit(WorkerProtocol.done(id, rc, doc));
    }

    private void emit(String event) {
        synchronized (events) {
            events.println(event);
            events.flush();
        }
    }

    /** Turns the bytes a tool prints into {@code line} events, one per line. */
    private final class Lines extends OutputStream {
        private final long id;
        private final ByteArrayOutputStream line = new ByteArrayOutputStream();

        Lines(long id) {
            this.id = id;
        }

        @Override
        public synchronized void write(int b) {
            if (b == '\n') {
                emitLine();
            } else if (line.size() < LocalProcessRunner.CAP_CHARS) {
                line.write(b);
            }
        }

        /** A last line without its line break. */
        synchronized void flushPartial() {
            if (line.size() > 0) {
                emitLine();
            }
        }

        private void emitLine() {
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            emit(WorkerProtocol.line(id, text.endsWith("\r") ? text.substring(0, text.length() - 1) : text));
        }
    }
}
