package io.rdmaffm.examples;

import io.rdmaffm.examples.bench.OverheadBench;
import io.rdmaffm.examples.kv.RdmaKv;
import io.rdmaffm.examples.pingpong.SendRecvPingPong;
import io.rdmaffm.verbs.RdmaTestDevice;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The key-value store with its latency histogram, DiSNI's ping-pong and the overhead comparison, each run as its
 * command would run (server and client in this JVM, on the device's address), small: they check that the examples
 * work, not how fast (in the test VM the JVM has one CPU, which a polling server and client share).
 */
@Tag("rdma")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ExamplesRdmaTest {

    static String address() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return RdmaTestDevice.ipv4Address().getHostAddress() + ":" + s.getLocalPort();
        }
    }

    /** Runs body with System.out captured; returns its exit status and appends the output to {@code into}. */
    static synchronized int capture(StringBuilder into, IntSupplier body) {
        PrintStream old = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            return body.getAsInt();
        } finally {
            System.setOut(old);
            String text = bytes.toString(StandardCharsets.UTF_8);
            old.print(text);
            into.append(text);
        }
    }

    /** Runs the client until the server listens (it may not yet). */
    static int retrying(IntSupplier client) throws InterruptedException {
        int status = -1;
        for (int i = 0; i < 50 && status != 0; i++) {
            Thread.sleep(100);
            status = client.getAsInt();
        }
        return status;
    }

    @Test
    void keyValueStoreAnswersEveryRequestAndRecordsLatencies(@TempDir Path tmp) throws Exception {
        String address = address();
        Path hgrm = tmp.resolve("kv.hgrm");
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(
                () -> RdmaKv.run("serve", address, "--clients", "2", "--timeout", "60"));
        StringBuilder out = new StringBuilder();
        assertEquals(0, retrying(() -> capture(out, () -> RdmaKv.run("bench", address, "--ops", "500", "--keys",
                "50", "--value", "100", "--hgrm", hgrm.toString()))));
        assertEquals(0, capture(out, () -> RdmaKv.run("bench", address, "--ops", "200", "--echo", "true",
                "--value", "4000")));
        assertEquals(0, server.get(60, TimeUnit.SECONDS));
        assertTrue(out.toString().contains("500 GET/PUT requests") && out.toString().contains("p99"), out.toString());
        assertTrue(out.toString().contains("200 ECHO requests"), out.toString());
        String distribution = Files.readString(hgrm);
        assertTrue(distribution.contains("Value") && distribution.contains("Percentile")
                && distribution.contains("#[Mean"), distribution);
    }

    @Test
    void pingPongReportsOneWayLatency() throws Exception {
        String address = address();
        CompletableFuture<Integer> server = CompletableFuture.supplyAsync(
                () -> SendRecvPingPong.run("server", address, "--size", "2"));
        StringBuilder out = new StringBuilder();
        assertEquals(0, retrying(() -> capture(out, () -> SendRecvPingPong.run("client", address, "--size", "2",
                "--loop", "100", "--warmup", "100"))));
        assertEquals(0, server.get(60, TimeUnit.SECONDS));
        assertTrue(out.toString().contains("100 round trips of 2 bytes")
                && out.toString().contains("typical (p50)"), out.toString());
    }

    @Test
    void overheadComparisonRunsBothImplementations() throws Exception {
        StringBuilder out = new StringBuilder();
        String ip = RdmaTestDevice.ipv4Address().getHostAddress();
        assertEquals(0, capture(out, () -> OverheadBench.run(ip, "--rounds", "1", "--mib", "4", "--reads", "200",
                "--warmup", "200")));
        assertTrue(out.toString().contains("raw verbs") && out.toString().contains("connection API")
                && out.toString().contains("4 MiB transfer time"), out.toString());
    }
}
