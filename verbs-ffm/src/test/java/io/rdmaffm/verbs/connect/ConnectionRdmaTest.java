package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.RdmaTestDevice;
import io.rdmaffm.verbs.WorkCompletionStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.connect.ConnectedPair.T;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The connection API on the test device, client and server in one process: messages both ways with credits,
 * private data, one-sided writes and reads in the three completion styles, IPv6, a failed completion, and what
 * a close or a vanished peer does to threads waiting in a connection.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConnectionRdmaTest {

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** RNR NAKs the device counted (sent and received), or -1 where it has no such counters. */
    static long rnrNaks() throws Exception {
        Path dir = Path.of("/sys/class/infiniband", RdmaTestDevice.name(), "ports/1/hw_counters");
        long sum = -1;
        for (String name : new String[] {"rcvd_rnr_err", "send_rnr_err"}) {
            Path p = dir.resolve(name);
            if (Files.isReadable(p)) {
                sum = Math.max(sum, 0) + Long.parseLong(Files.readString(p).trim());
            }
        }
        return sum;
    }

    @Test
    void messagesBothWaysWithCreditsAndExactPrivateData() throws Exception {
        ConnectionOptions serverOptions = new ConnectionOptions().receiveBuffers(4).bufferSize(256)
                .privateData(ascii("hello client"));
        ConnectionOptions clientOptions = new ConnectionOptions().receiveBuffers(8).bufferSize(512)
                .privateData(ascii("hi"));
        long rnrBefore = rnrNaks();
        try (ConnectedPair p = new ConnectedPair(serverOptions, clientOptions)) {
            assertArrayEquals(ascii("hi"), p.served.peerPrivateData(), "exactly the bytes sent, no padding");
            assertArrayEquals(ascii("hello client"), p.client.peerPrivateData());
            assertEquals(256, p.client.maxMessageSize());
            assertEquals(512, p.served.maxMessageSize());
            assertEquals(4, p.client.sendCredits());

            // 200 messages into 4 buffers, the receiver slow at first: the sender must wait for credits.
            int n = 200;
            CompletableFuture<Void> receiver = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < n; i++) {
                    Message m = p.served.receive(T);
                    assertEquals(8, m.length());
                    assertEquals(i, m.buffer().get(JAVA_LONG, 0), "message order");
                    if (i < 4) {
                        sleep(100);
                    }
                    m.release();
                }
            });
            MemoryRegion out = p.client.allocateRegion(256, Access.LOCAL_WRITE);
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                out.segment().set(JAVA_LONG, 0, i);
                p.client.send(out, 0, 8, T);
            }
            receiver.get(60, TimeUnit.SECONDS);
            assertTrue(System.nanoTime() - start >= 300_000_000L, "the sender waited for the slow receiver's credits");

            // The other way, up to the client's buffer size.
            MemoryRegion back = p.served.allocateRegion(512, Access.LOCAL_WRITE);
            for (int i = 0; i < 20; i++) {
                back.segment().fill((byte) i);
                p.served.send(back, 0, 512, T);
                Message m = p.client.receive(T);
                assertEquals(512, m.length());
                assertEquals(-1, m.segment().mismatch(back.segment()), "message " + i);
                m.release();
                assertThrows(IllegalStateException.class, m::length, "a released message cannot be read");
            }
        }
        long rnrAfter = rnrNaks();
        if (rnrBefore >= 0) {
            assertEquals(rnrBefore, rnrAfter, "credits kept every send from finding no receive posted (RNR NAKs)");
        }
    }

    @Test
    void writesAndReadsTheServersBufferInEveryStyle() throws Exception {
        ConnectionOptions clientOptions = new ConnectionOptions().signalInterval(8).sendQueueDepth(32);
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), clientOptions)) {
            int size = 1 << 20;
            MemoryRegion exposed = p.served.allocateRegion(size, Access.LOCAL_WRITE | Access.REMOTE_WRITE
                    | Access.REMOTE_READ);
            MemoryRegion control = p.served.allocateRegion(64, Access.LOCAL_WRITE);
            RemoteBuffer.of(exposed).encodeTo(control.segment(), 0);
            p.served.send(control, 0, RemoteBuffer.ENCODED_LENGTH, T);
            Message m = p.client.receive(T);
            RemoteBuffer remote = RemoteBuffer.decode(m.buffer(), 0);
            m.release();
            assertEquals(RemoteBuffer.of(exposed), remote);

            MemoryRegion src = p.client.allocateRegion(size, Access.LOCAL_WRITE);
            for (int i = 0; i < size; i += 8) {
                src.segment().set(JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
            }
            // Poll style: pipelined 16 KiB writes, every 8th signaled, then a flush.
            int chunk = 16384;
            long last = -1;
            for (int off = 0; off < size; off += chunk) {
                long seq;
                while ((seq = p.client.tryWrite(src, off, remote, off, chunk)) < 0) {
                    p.client.progress();
                }
                last = seq;
            }
            p.client.flush(T);
            assertTrue(p.client.isComplete(last));
            assertEquals(-1, exposed.segment().mismatch(src.segment()), "every written byte arrived");

            // Blocking: read it all back.
            MemoryRegion dst = p.client.allocateRegion(size, Access.LOCAL_WRITE);
            p.client.read(dst, 0, remote, 0, size, T);
            assertEquals(-1, dst.segment().mismatch(src.segment()), "every read byte is right");

            // Futures.
            src.segment().set(JAVA_LONG, 0, 0x0123456789abcdefL);
            p.client.writeAsync(src, 0, remote, 64, 8).get(20, TimeUnit.SECONDS);
            p.client.readAsync(dst, 128, remote, 64, 8).get(20, TimeUnit.SECONDS);
            assertEquals(0x0123456789abcdefL, dst.segment().get(JAVA_LONG, 128));
            CompletableFuture<Message> arriving = p.served.receiveAsync();
            p.client.sendAsync(src, 0, 16).get(20, TimeUnit.SECONDS);
            Message got = arriving.get(20, TimeUnit.SECONDS);
            assertEquals(16, got.length());
            assertEquals(0x0123456789abcdefL, got.buffer().get(JAVA_LONG, 0));
            got.release();

            // Poll style, one READ waited for: with signalInterval 8 the library fences it.
            for (int i = 0; i < 20; i++) {
                long seq = p.client.tryRead(dst, 256, remote, 64, 8);
                long deadline = System.nanoTime() + T.toNanos();
                while (!p.client.isComplete(seq)) {
                    p.client.progress();
                    assertTrue(System.nanoTime() < deadline, "READ #" + seq + " did not complete");
                }
                assertEquals(0x0123456789abcdefL, dst.segment().get(JAVA_LONG, 256));
            }
        }
    }

    @Test
    void connectsOverIpv6LinkLocal() throws Exception {
        String netdev = RdmaTestDevice.netdev();
        Inet6Address linkLocal = null;
        NetworkInterface nif = netdev == null ? null : NetworkInterface.getByName(netdev);
        if (nif != null) {
            for (InetAddress a : Collections.list(nif.getInetAddresses())) {
                if (a instanceof Inet6Address a6 && a6.isLinkLocalAddress()) {
                    linkLocal = a6;
                }
            }
        }
        assumeTrue(linkLocal != null, "netdev " + netdev + " has no IPv6 link-local address (RDMA_NETDEV unset?)");
        try (ConnectedPair p = new ConnectedPair(linkLocal, new ConnectionOptions(), new ConnectionOptions())) {
            assertEquals(linkLocal, p.client.peerAddress().getAddress());
            MemoryRegion out = p.client.allocateRegion(64, Access.LOCAL_WRITE);
            out.segment().setString(0, "over IPv6");
            p.client.send(out, 0, 10, T);
            Message m = p.served.receive(T);
            assertEquals("over IPv6", m.buffer().getString(0));
            m.release();
        }
    }

    @Test
    void failedCompletionNamesTheOperationAndStatusAndEndsTheConnection() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion exposed = p.served.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_READ);
            RemoteBuffer wrongKey = new RemoteBuffer(exposed.address(), exposed.rkey() + 0x100, 4096);
            MemoryRegion dst = p.client.allocateRegion(4096, Access.LOCAL_WRITE);
            ConnectionException e = assertThrows(ConnectionException.class,
                    () -> p.client.read(dst, 0, wrongKey, 0, 8, T));
            assertEquals(ConnectionException.Reason.FAILED_COMPLETION, e.reason(), e.getMessage());
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, e.status(), e.getMessage());
            assertTrue(e.getMessage().contains("RDMA READ") && e.getMessage().contains("REM_ACCESS_ERR")
                    && e.getMessage().contains("8 bytes"), e.getMessage());
            ConnectionException later = assertThrows(ConnectionException.class, () -> p.client.send(dst, 0, 8, T));
            assertEquals(ConnectionException.Reason.FAILED_COMPLETION, later.reason());
            assertTrue(!p.client.isOpen());
        }
    }

    @Test
    void closeWakesBlockedThreadsWithAnException() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            CompletableFuture<Throwable> blocked = CompletableFuture.supplyAsync(() -> caught(
                    () -> p.client.receive(Duration.ofSeconds(60))));
            CompletableFuture<Message> pending = p.client.receiveAsync();
            sleep(300);
            long start = System.nanoTime();
            p.client.close();
            Throwable t = blocked.get(10, TimeUnit.SECONDS);
            assertInstanceOf(ConnectionException.class, t, String.valueOf(t));
            assertEquals(ConnectionException.Reason.CLOSED, ((ConnectionException) t).reason(), t.getMessage());
            assertTrue(System.nanoTime() - start < 5_000_000_000L, "woken at once, not at the receive's deadline");
            ExecutionException f = assertThrows(ExecutionException.class, () -> pending.get(10, TimeUnit.SECONDS));
            assertInstanceOf(ConnectionException.class, f.getCause());
            IllegalStateException after = assertThrows(IllegalStateException.class, () -> p.client.receive(T));
            assertTrue(after.getMessage().contains("closed"), after.getMessage());
            p.client.close();

            // The other side learns of it.
            ConnectionException gone = assertThrows(ConnectionException.class, () -> p.served.receive(T));
            assertEquals(ConnectionException.Reason.PEER_DISCONNECTED, gone.reason(), gone.getMessage());
        }
    }

    @Test
    void aVanishedPeerFailsPendingAndLaterOperations() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion exposed = p.served.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_READ);
            RemoteBuffer remote = RemoteBuffer.of(exposed);
            CompletableFuture<Throwable> blocked = CompletableFuture.supplyAsync(() -> caught(
                    () -> p.client.receive(Duration.ofSeconds(60))));
            sleep(300);
            long start = System.nanoTime();
            p.served.close();
            Throwable t = blocked.get(20, TimeUnit.SECONDS);
            assertInstanceOf(ConnectionException.class, t, String.valueOf(t));
            assertEquals(ConnectionException.Reason.PEER_DISCONNECTED, ((ConnectionException) t).reason());
            assertTrue(System.nanoTime() - start < 10_000_000_000L, "the disconnect was seen within 10 s");
            MemoryRegion dst = p.client.allocateRegion(4096, Access.LOCAL_WRITE);
            ConnectionException read = assertThrows(ConnectionException.class,
                    () -> p.client.read(dst, 0, remote, 0, 8, T));
            assertEquals(ConnectionException.Reason.PEER_DISCONNECTED, read.reason(), read.getMessage());
            assertTrue(read.getMessage().contains("disconnected"), read.getMessage());
            assertThrows(ConnectionException.class, p.client::progress);
        }
    }

    static Throwable caught(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
