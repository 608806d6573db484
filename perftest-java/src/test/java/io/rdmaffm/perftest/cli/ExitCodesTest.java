package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.engine.RunFailure;
import io.rdmaffm.perftest.exchange.ExchangeException;
import io.rdmaffm.perftest.exchange.ExchangeListener;
import io.rdmaffm.perftest.exchange.ExchangeTimeoutException;
import io.rdmaffm.perftest.exchange.ExchangeTimeouts;
import io.rdmaffm.perftest.exchange.PerftestExchange;
import io.rdmaffm.perftest.exchange.TcpExchangeChannel;
import io.rdmaffm.perftest.exchange.VersionMessage;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.report.model.ReportFixtures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The exit statuses the README documents: 0 success; 1 a failed run or verification (a peer that died,
 * stalled or misbehaved once the run had started is a failed run); 2 bad input or a set-up failure (no device,
 * a port taken, nobody to connect to). The rdma tests check them end to end with real peers
 * (DeadPeerRdmaTest, RdmaCmFaultsRdmaTest); here the mapping and the exchange's classification of its failures.
 */
@Timeout(60)
class ExitCodesTest {
    private static final String HOST = "127.0.0.1";
    private static final ExchangeTimeouts SHORT = new ExchangeTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300),
            Duration.ofMillis(500), Duration.ofSeconds(2));

    @Test
    void failuresOfARunAreOneAndSetUpFailuresTwo() {
        assertEquals(1, ErrorHandler.exitCode(new RunFailure("completion with error: retry exceeded")));
        assertEquals(1, ErrorHandler.exitCode(new ExchangeException("peer closed the connection during the key exchange")));
        assertEquals(1, ErrorHandler.exitCode(new ExchangeTimeoutException("peer did not answer", null)));
        assertEquals(2, ErrorHandler.exitCode(ExchangeException.beforeConnection("connection refused by h:1", null)));
        assertEquals(2, ErrorHandler.exitCode(new ExchangeTimeoutException("no client connected", null, true)));
        assertEquals(2, ErrorHandler.exitCode(new InvalidParameterException("no RDMA device found")));
        assertEquals(2, ErrorHandler.exitCode(new IllegalStateException("anything else")));
    }

    @Test
    void theExchangeSaysWhetherThePeerWasEverThere() throws Exception {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            closedPort = s.getLocalPort();
        }
        int port = closedPort;
        ExchangeException refused = assertThrows(ExchangeException.class,
                () -> TcpExchangeChannel.connect(HOST, port, Duration.ofSeconds(2), false));
        assertTrue(refused.beforeConnection(), refused.getMessage());
        ExchangeException unknown = assertThrows(ExchangeException.class,
                () -> TcpExchangeChannel.connect("no-such-host.invalid", 1, Duration.ofSeconds(2), false));
        assertTrue(unknown.beforeConnection(), unknown.getMessage());
        ExchangeListener nobody = ExchangeListener.listen(HOST, 0, false);
        ExchangeException noClient = assertThrows(ExchangeTimeoutException.class,
                () -> nobody.accept(Duration.ofMillis(200)));
        assertTrue(noClient.beforeConnection(), noClient.getMessage());

        // A peer that connects and then dies, stalls or speaks an old version: the run failed.
        assertEquals(1, ErrorHandler.exitCode(serverFacing(s -> s.getOutputStream().write(new byte[5]))));
        assertEquals(1, ErrorHandler.exitCode(serverFacing(s -> Thread.sleep(1500))));
        assertEquals(1, ErrorHandler.exitCode(serverFacing(s -> {
            s.getOutputStream().write(VersionMessage.encode("5.50"));
            s.getInputStream().readNBytes(16);
        })));
    }

    /** The exception a Java server's version exchange ends with when its client does {@code peer}. */
    private static ExchangeException serverFacing(PeerAction peer) throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        CompletableFuture<Void> client = CompletableFuture.runAsync(() -> {
            try (Socket s = new Socket(HOST, listener.port())) {
                peer.act(s);
            } catch (Exception e) {
                // the server may have closed first
            }
        });
        try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), SHORT, true)) {
            ExchangeException e = assertThrows(ExchangeException.class, ex::exchangeVersions);
            assertFalse(e.beforeConnection(), e.getMessage());
            return e;
        } finally {
            client.get(10, TimeUnit.SECONDS);
        }
    }

    private interface PeerAction {
        void act(Socket s) throws Exception;
    }

    @Test
    void badInputIsTwoWithOneLine() {
        Result unknown = run("ib_write_bw", "--no-such-flag");
        assertEquals(2, unknown.exit, unknown.err);
        assertEquals(1, unknown.err.strip().lines().count(), unknown.err);
        Result size = run("ib_send_lat", "-s", "12Q");
        assertEquals(2, size.exit, size.err);
        Result notSupported = run("ib_write_bw", "--run_infinitely", "-e");
        assertEquals(2, notSupported.exit, notSupported.err);
        assertTrue(notSupported.err.contains("run_infinitely does not support events"), notSupported.err);
    }

    @Test
    void hostileFileContentsReachTheTerminalQuoted(@TempDir Path dir) throws Exception {
        // A run document whose bad value carries terminal control sequences: the one error line escapes them.
        String fixture = Files.readString(ReportFixtures.file("bw_sweep_ib.json"));
        Path doc = Files.writeString(dir.resolve("hostile.json"), fixture.replace("\"port_rate_gbps\": 200",
                "\"port_rate_gbps\": \"\\u001b]0;pwned\\u0007\\u001b[2J\\n\\u202e\""));
        Result r = run("report", doc.toString(), "-o", dir.resolve("r.html").toString());
        assertEquals(2, r.exit, r.err);
        assertEquals(1, r.err.strip().lines().count(), r.err);
        for (char c : r.err.strip().toCharArray()) {
            assertTrue(c >= 0x20 && c != 0x7f && c != '\u202e', () -> "unsafe char " + (int) c + " in " + r.err);
        }
        assertTrue(r.err.contains("\\x1b]0;pwned\\x07"), "the value is shown, escaped: " + r.err);
        assertFalse(r.err.contains("\tat "), "no stack trace without --debug: " + r.err);
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
