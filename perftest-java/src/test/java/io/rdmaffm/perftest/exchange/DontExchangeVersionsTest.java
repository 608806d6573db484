package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code --dont_xchg_versions} as perftest 4.5 does it (captured on rxe): nothing is sent, the peer's version stays
 * empty, and the check for peers older than 5.70 then ends the run, after the control connection came up (exit 1).
 */
@Timeout(30)
class DontExchangeVersionsTest {
    private static final String HOST = "127.0.0.1";

    @Test
    void nothingIsSentAndTheRunEndsOnTheVersionCheck() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            // The peer reads what arrives until the side under test closes: it must be nothing.
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = peer.accept(); InputStream in = s.getInputStream()) {
                    return in.readAllBytes();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), Duration.ofSeconds(5));
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), t, true)) {
                ex.skipVersions();
                long t0 = System.nanoTime();
                ExchangeException e = assertThrows(ExchangeException.class, ex::exchangeVersions);
                assertTrue(System.nanoTime() - t0 < 2_000_000_000L, "no wait for the peer");
                assertTrue(e.getMessage().startsWith("--dont_xchg_versions: the peer's version was not exchanged"),
                        e.getMessage());
                // C's own line, as the captured C client printed it with the flag, is quoted in ours.
                String cLine = Capture.resource("write_bw_dont_xchg_client_only.client.out").strip();
                assertEquals("Current implementation is not compatible with versions older than 5.70", cLine);
                assertTrue(e.getMessage().contains("\"" + cLine + "\""), e.getMessage());
                assertFalse(e.beforeConnection(), "the connection was up: a failed run (exit 1), as C's exit(1)");
                assertEquals("", ex.peerVersion());
            }
            assertEquals(0, received.get(10, TimeUnit.SECONDS).length, "no version message on the wire");
        }
    }

    @Test
    void withoutTheFlagTheVersionsAreExchanged() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            CompletableFuture<byte[]> received = CompletableFuture.supplyAsync(() -> {
                try (Socket s = peer.accept(); InputStream in = s.getInputStream()) {
                    byte[] v = in.readNBytes(VersionMessage.SIZE);
                    s.getOutputStream().write(VersionMessage.encode("6.06"));
                    return v;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofSeconds(5), Duration.ofSeconds(5));
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), t, true)) {
                assertEquals("6.06", ex.exchangeVersions());
            }
            assertEquals(VersionMessage.LOCAL_VERSION, VersionMessage.decode(received.get(10, TimeUnit.SECONDS)));
        }
    }
}
