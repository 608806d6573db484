package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The host's worker with stand-in tools: orders run one after another in one JVM, each tool's output and JSON
 * document come back as events, anything but a perftest tool is refused, and the end of the input while a tool
 * runs ends the worker (the driver is gone).
 */
class MatrixWorkerTest {

    private static List<WorkerProtocol.Event> events(ByteArrayOutputStream out) {
        List<WorkerProtocol.Event> l = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            WorkerProtocol.Event e = WorkerProtocol.event(line);
            assertNotNull(e, "every line is an event: " + line);
            l.add(e);
        }
        return l;
    }

    @Test
    void ordersRunOneAfterAnotherInThisJvmWithTheirOutputAndDocument() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        List<Path> files = new ArrayList<>();
        MatrixWorker.Tools tools = (argv, out) -> {
            int n = runs.incrementAndGet();
            out.println("run " + n + " of " + argv.getFirst() + " in the same JVM");
            System.err.println("a note on stderr \u001b[0m");
            if (argv.get(1).equals("--out_json_file")) {
                Path f = Path.of(argv.get(2));
                files.add(f);
                try {
                    Files.writeString(f, "{\"results\": {\"BW_average\": 9.5}}");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
            out.print("no line break at the end");
            return n == 1 ? 0 : 1;
        };
        String in = WorkerProtocol.run(1, false, List.of("ib_write_bw", "-p", "18515")) + "\n"
                + WorkerProtocol.run(2, true, List.of("ib_write_bw", "-p", "18515", "server")) + "\n"
                + WorkerProtocol.run(3, false, List.of("doctor")) + "\n"
                + "garbage\n"
                + WorkerProtocol.quit() + "\n"
                + WorkerProtocol.run(4, false, List.of("ib_write_lat")) + "\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stderr = System.err;
        int rc = new MatrixWorker(tools, new PrintStream(out, true, StandardCharsets.UTF_8), () -> {
            throw new AssertionError("not orphaned");
        }).serve(new ByteArrayInputStream(in.getBytes(StandardCharsets.US_ASCII)));
        assertEquals(0, rc);
        assertEquals(stderr, System.err, "stderr given back");
        assertEquals(2, runs.get(), "two tools ran, the order after quit did not");
        List<WorkerProtocol.Event> ev = events(out);
        assertEquals("ready", ev.getFirst().kind());
        assertEquals(ProcessHandle.current().pid(), ev.getFirst().pid());
        List<String> shown = ev.stream().skip(1).map(e -> e.kind() + " " + e.id() + " " + (e.kind().equals("done")
                ? e.rc() + " " + e.json() : e.text())).toList();
        assertEquals(List.of(
                "line 1 run 1 of ib_write_bw in the same JVM",
                "line 1 a note on stderr \u001b[0m",
                "line 1 no line break at the end",
                "done 1 0 null",
                "line 2 run 2 of ib_write_bw in the same JVM",
                "line 2 a note on stderr \u001b[0m",
                "line 2 no line break at the end",
                "done 2 1 {\"results\": {\"BW_average\": 9.5}}",
                "line 3 matrix-worker: error: only the perftest tools run here, not 'doctor'",
                "done 3 2 null",
                "line 0 matrix-worker: error: not an order: garbage"), shown);
        assertEquals(1, files.size());
        assertFalse(Files.exists(files.getFirst()), "the document's file is removed");
        // Raw control bytes never reach the stream: they are escaped inside the JSON strings.
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("\u001b"));
    }

    @Test
    void theEndOfTheInputWhileAToolRunsEndsTheWorker() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch orphaned = new CountDownLatch(1);
        PipedOutputStream driver = new PipedOutputStream();
        PipedInputStream in = new PipedInputStream(driver);
        MatrixWorker w = new MatrixWorker((argv, out) -> {
            running.countDown();
            try {
                // A stalled tool: only the end of the worker ends it.
                return orphaned.await(30, TimeUnit.SECONDS) ? 143 : 0;
            } catch (InterruptedException e) {
                return 143;
            }
        }, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), orphaned::countDown);
        Thread t = Thread.ofVirtual().start(() -> {
            try {
                w.serve(in);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        driver.write((WorkerProtocol.run(1, false, List.of("ib_write_bw")) + "\n").getBytes(StandardCharsets.US_ASCII));
        driver.flush();
        assertTrue(running.await(10, TimeUnit.SECONDS));
        driver.close();
        assertTrue(orphaned.await(10, TimeUnit.SECONDS), "the worker was told its driver is gone");
        t.join(10_000);
        assertFalse(t.isAlive());
    }
}
