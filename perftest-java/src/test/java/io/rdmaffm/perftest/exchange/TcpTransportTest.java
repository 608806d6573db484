package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The TCP transport on loopback: a full Java↔Java run, and every fault ending in time with a clear message. */
@Timeout(30)
class TcpTransportTest {
    private static final String HOST = "127.0.0.1";
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final ExchangeTimeouts FAST = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
            SHORT, Duration.ofSeconds(5));
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private static PingPongDest dest(int qpn, int lastGidByte) {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        gid[12] = 127;
        gid[15] = (byte) lastGidByte;
        return new PingPongDest(0, 1, qpn, 0x100 + qpn, 0x2000 + qpn, 0x7f0000001000L + qpn, gid, 0);
    }

    @Test
    @Timeout(60)
    void exerciseLoopbackRunsEveryMessageThroughTheChannel() throws Exception {
        assertEquals(300, TcpExchangeChannel.exerciseLoopback(300, 108), "every exchange was answered");
        assertThrows(IllegalArgumentException.class, () -> TcpExchangeChannel.exerciseLoopback(1, -1));
    }

    @Test
    void javaClientAndJavaServerRunTheWholeWriteBwScript() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        int port = listener.port();
        PingPongDest[] serverDests = {dest(0x11, 1), dest(0x12, 1)};
        PingPongDest[] clientDests = {dest(0x21, 2), dest(0x22, 2)};
        BwReport clientReport = new BwReport(65536, 4000, 35.25, 33.49, 0.000536);
        HandshakeScriptCaptureTest.Recorder server = new HandshakeScriptCaptureTest.Recorder(serverDests,
                new BwReport(0, 0, 0, 0, 0)) {
            @Override public SysData localSysData() { return new SysData(4096, 128); }
            @Override public int localMtu() { return 5; }
        };
        HandshakeScriptCaptureTest.Recorder client = new HandshakeScriptCaptureTest.Recorder(clientDests,
                clientReport) {
            @Override public SysData localSysData() { return new SysData(65536, 64); }
            @Override public int localMtu() { return 3; }
        };
        Future<?> s = pool.submit(() -> {
            try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), FAST, true)) {
                ScriptRunner.run(HandshakeScript.of(Tool.WRITE_BW, Role.SERVER, false, false), ex, 1, server);
            }
            return null;
        });
        try (PerftestExchange ex = new PerftestExchange(
                TcpExchangeChannel.connect(HOST, port, Duration.ofSeconds(5), false), FAST, true)) {
            ScriptRunner.run(HandshakeScript.of(Tool.WRITE_BW, Role.CLIENT, false, false), ex, 1, client);
        }
        s.get(10, TimeUnit.SECONDS);
        assertEquals(new SysData(65536, 128), client.sysData);
        assertEquals(new SysData(65536, 128), server.sysData);
        assertEquals(3, client.mtu);
        assertEquals(3, server.mtu);
        assertArrayEquals(serverDests, client.remote.get(0));
        assertArrayEquals(clientDests, server.remote.get(1));
        assertEquals(clientReport, server.peerReports.get(0));
    }

    @Test
    void peerEndIsTheCloseOfItsDirection() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        Future<ExchangeChannel> accepted = pool.submit(() -> listener.accept(Duration.ofSeconds(5)));
        try (ExchangeChannel client = TcpExchangeChannel.connect(HOST, listener.port(), Duration.ofSeconds(5), false);
             ExchangeChannel server = accepted.get(5, TimeUnit.SECONDS)) {
            client.watchPeerEnd();
            server.watchPeerEnd();
            Thread.sleep(100);
            assertTrue(!client.peerEnded() && !server.peerEnded(), "both still run");
            client.endOurSide();
            assertTrue(waitFor(server::peerEnded), "the server learns the client stopped");
            assertTrue(!client.peerEnded(), "the client's own half-close is not the server's end");
            server.endOurSide();
            assertTrue(waitFor(client::peerEnded), "and the client the server's");
        }
        listener.close();
    }

    @Test
    void peerEndIsAlsoThePeersDeath() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        Future<ExchangeChannel> accepted = pool.submit(() -> listener.accept(Duration.ofSeconds(5)));
        try (ExchangeChannel client = TcpExchangeChannel.connect(HOST, listener.port(), Duration.ofSeconds(5), false)) {
            client.watchPeerEnd();
            accepted.get(5, TimeUnit.SECONDS).close(); // C perftest killed by Ctrl-C: its socket closes
            assertTrue(waitFor(client::peerEnded));
        }
        listener.close();
    }

    private static boolean waitFor(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        return condition.getAsBoolean();
    }

    @Test
    void peerThatNeverAnswersEndsWithinTheLimit() throws Exception {
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            Future<Socket> held = pool.submit(silent::accept);
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, silent.getLocalPort(), Duration.ofSeconds(5), false), FAST,
                    true)) {
                long t0 = System.nanoTime();
                ExchangeException e = assertThrows(ExchangeTimeoutException.class, ex::exchangeVersions);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertEquals("peer did not answer the version exchange within 300 ms", e.getMessage());
                assertTrue(ms >= 250 && ms < 2000, "took " + ms + " ms");
            } finally {
                held.get().close();
            }
        }
    }

    @Test
    void silentPeerDuringTheKeyExchangeIsNamedAsSuch() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            // Answers everything up to the MTU, then goes quiet.
            Future<Socket> held = pool.submit(() -> {
                Socket s = peer.accept();
                answer(s, 16, VersionMessage.encode("6.06"));
                answer(s, 4, SysData.encodeInt(4096));
                answer(s, 4, SysData.encodeInt(64));
                answer(s, 2, MtuMessage.encode(3, 2));
                return s;
            });
            ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
                    Duration.ofSeconds(1), Duration.ofSeconds(5));
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), t, true)) {
                ex.exchangeVersions();
                ex.exchangeSysData(new SysData(4096, 64));
                ex.exchangeMtu(3);
                ExchangeException e = assertThrows(ExchangeTimeoutException.class,
                        () -> ex.exchangeKeys(new PingPongDest[] {dest(1, 1)}));
                assertEquals("peer did not answer the key exchange within 1 s", e.getMessage());
            } finally {
                held.get().close();
            }
        }
    }

    @Test
    void peerClosingMidExchangeIsReported() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            pool.submit(() -> {
                try (Socket s = peer.accept()) {
                    answer(s, 16, VersionMessage.encode("6.06"));
                    s.getInputStream().readNBytes(4);
                    // half of the page size, then gone
                    s.getOutputStream().write(new byte[] {0, 0});
                }
                return null;
            });
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), FAST,
                    true)) {
                ex.exchangeVersions();
                ExchangeException e = assertThrows(ExchangeException.class,
                        () -> ex.exchangeSysData(new SysData(4096, 64)));
                assertEquals("peer closed the connection during the page size exchange (after 2 of 4 bytes)",
                        e.getMessage());
            }
        }
    }

    @Test
    void malformedKeyFromPeerIsReported() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            pool.submit(() -> {
                try (Socket s = peer.accept()) {
                    byte[] junk = new byte[KeyMessage.SIZE_GID];
                    java.util.Arrays.fill(junk, (byte) 'z');
                    answer(s, KeyMessage.SIZE_GID, junk);
                    s.getInputStream().read();
                }
                return null;
            });
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), FAST,
                    true)) {
                ExchangeException e = assertThrows(ExchangeException.class,
                        () -> ex.exchangeKeys(new PingPongDest[] {dest(1, 1)}));
                assertTrue(e.getMessage().startsWith("malformed key message: LID has non-hex character 'z'"),
                        e.getMessage());
            }
        }
    }

    @Test
    void oldVersionIsRefused() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            pool.submit(() -> {
                try (Socket s = peer.accept()) {
                    answer(s, 16, VersionMessage.encode("5.60"));
                    s.getInputStream().read();
                }
                return null;
            });
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), FAST,
                    true)) {
                ExchangeException e = assertThrows(ExchangeException.class, ex::exchangeVersions);
                assertEquals("peer speaks perftest version 5.60, need >= 5.70", e.getMessage());
            }
        }
    }

    @Test
    void javaServerRefusesAnOldClient() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        CompletableFuture<byte[]> clientSaw = new CompletableFuture<>();
        pool.submit(() -> {
            try (Socket s = new Socket(HOST, listener.port())) {
                s.getOutputStream().write(VersionMessage.encode("5.50"));
                clientSaw.complete(s.getInputStream().readNBytes(16));
            }
            return null;
        });
        try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), FAST, true)) {
            ExchangeException e = assertThrows(ExchangeException.class, ex::exchangeVersions);
            assertEquals("peer speaks perftest version 5.50, need >= 5.70", e.getMessage());
        }
        // Like C, the server answers with its own version before refusing.
        assertEquals("6.06", VersionMessage.decode(clientSaw.get(5, TimeUnit.SECONDS)));
    }

    @Test
    void connectionRefused() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            port = s.getLocalPort();
        }
        ExchangeException e = assertThrows(ExchangeException.class,
                () -> TcpExchangeChannel.connect(HOST, port, Duration.ofSeconds(5), false));
        assertEquals("connection refused by 127.0.0.1:" + port, e.getMessage());
    }

    @Test
    void noClientWithinTheAcceptLimit() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        int port = listener.port();
        long t0 = System.nanoTime();
        ExchangeException e = assertThrows(ExchangeTimeoutException.class, () -> listener.accept(SHORT));
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 2000);
        assertEquals("no client connected to port " + port + " within 300 ms", e.getMessage());
    }

    @Test
    void messagesSplitAcrossSegmentsAreReadFully() throws Exception {
        try (ServerSocket peer = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            pool.submit(() -> {
                try (Socket s = peer.accept()) {
                    s.setTcpNoDelay(true);
                    s.getInputStream().readNBytes(16);
                    byte[] v = VersionMessage.encode("6.06");
                    OutputStream out = s.getOutputStream();
                    out.write(v, 0, 3);
                    out.flush();
                    Thread.sleep(100);
                    out.write(v, 3, 13);
                    out.flush();
                    s.getInputStream().read();
                }
                return null;
            });
            try (PerftestExchange ex = new PerftestExchange(
                    TcpExchangeChannel.connect(HOST, peer.getLocalPort(), Duration.ofSeconds(5), false), FAST,
                    true)) {
                assertEquals("6.06", ex.exchangeVersions());
            }
        }
    }

    @Test
    void closeToleratesAPeerThatIsAlreadyGone() throws Exception {
        ExchangeListener listener = ExchangeListener.listen(HOST, 0, false);
        pool.submit(() -> {
            try (Socket s = new Socket(HOST, listener.port())) {
                // A C client's close: key handshake, "done\0", gone without reading ours.
                s.getOutputStream().write(KeyMessage.encode(dest(9, 9), true));
                s.getInputStream().readNBytes(KeyMessage.SIZE_GID);
                s.getOutputStream().write("done\0".getBytes());
            }
            return null;
        });
        try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), FAST, true)) {
            ex.closeHandshake(dest(1, 1), false);
            Thread.sleep(100);
            ex.closeHandshake(dest(1, 1), false);
        } catch (ExchangeException expected) {
            // the second handshake must fail cleanly (peer gone), never hang
            assertInstanceOf(ExchangeException.class, expected);
        }
    }

    private static void answer(Socket s, int readLength, byte[] reply) throws Exception {
        InputStream in = s.getInputStream();
        byte[] got = in.readNBytes(readLength);
        if (got.length != readLength) {
            throw new IllegalStateException("client closed");
        }
        s.getOutputStream().write(reply);
        s.getOutputStream().flush();
    }
}
