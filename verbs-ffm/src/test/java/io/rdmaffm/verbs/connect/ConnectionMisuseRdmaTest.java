package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.RdmaTestDevice;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.connect.ConnectedPair.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bad input to the connection API on the test device: each gives one clear exception, within its deadline, and
 * the JVM lives on.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectionMisuseRdmaTest {

    @Test
    void connectingToNobodyEndsByTheDeadline() throws Exception {
        InetAddress own = ConnectedPair.ipv4();
        assumeTrue(own instanceof Inet4Address, "needs an IPv4 test address");
        byte[] b = own.getAddress();
        b[3] = (byte) ((Byte.toUnsignedInt(b[3]) + 98) % 254 + 1); // another host of the /24 that nobody is
        InetSocketAddress nobody = new InetSocketAddress(InetAddress.getByAddress(b), 7471);
        long start = System.nanoTime();
        ConnectionException e = assertThrows(ConnectionException.class,
                () -> Connection.connect(nobody, Duration.ofSeconds(2)));
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertTrue(ms < 3_000, "gave up after " + ms + " ms with a 2 s deadline: " + e.getMessage());
        assertTrue(e.isTimeout() || e.reason() == ConnectionException.Reason.CONNECT_FAILED, e.getMessage());
        assertTrue(e.getMessage().contains(nobody.getAddress().getHostAddress()), e.getMessage());
    }

    @Test
    void connectingToAPortWithoutListenerIsRefused() throws Exception {
        InetSocketAddress unused;
        try (RdmaServer s = RdmaServer.listen(new InetSocketAddress(ConnectedPair.ipv4(), 0))) {
            unused = s.localAddress();
        }
        long start = System.nanoTime();
        ConnectionException e = assertThrows(ConnectionException.class, () -> Connection.connect(unused, T));
        assertEquals(ConnectionException.Reason.CONNECT_FAILED, e.reason(), e.getMessage());
        assertTrue(e.getMessage().contains("nothing listens") || e.getMessage().contains("UNREACHABLE"),
                e.getMessage());
        assertTrue(e.getMessage().contains(String.valueOf(unused.getPort())), e.getMessage());
        assertTrue(System.nanoTime() - start < T.toNanos(), "refused, not timed out");
    }

    @Test
    void aDeadlineOfZeroIsRefusedOrExpiresAtOnce() throws Exception {
        InetSocketAddress somewhere = new InetSocketAddress(ConnectedPair.ipv4(), 7471);
        IllegalArgumentException c = assertThrows(IllegalArgumentException.class,
                () -> Connection.connect(somewhere, Duration.ZERO));
        assertTrue(c.getMessage().contains("positive timeout"), c.getMessage());
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            assertThrows(IllegalArgumentException.class, () -> p.server.accept(Duration.ZERO));
            long start = System.nanoTime();
            ConnectionException e = assertThrows(ConnectionException.class, () -> p.client.receive(Duration.ZERO));
            assertTrue(e.isTimeout(), e.getMessage());
            assertTrue(System.nanoTime() - start < 1_000_000_000L, "a zero deadline looks once and gives up");
            assertTrue(p.client.isOpen(), "a timeout leaves the connection usable");
        }
    }

    @Test
    void readingPastARemoteBuffersEndIsCheckedBeforePosting() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion exposed = p.served.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_READ);
            RemoteBuffer remote = RemoteBuffer.of(exposed, 0, 1024);
            MemoryRegion dst = p.client.allocateRegion(4096, Access.LOCAL_WRITE);
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class,
                    () -> p.client.read(dst, 0, remote, 1000, 100, T));
            assertTrue(e.getMessage().contains("[1000, 1100)") && e.getMessage().contains("1024-byte remote buffer"),
                    e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> p.client.tryRead(dst, 0, remote, -1, 8));
            assertThrows(IndexOutOfBoundsException.class, () -> p.client.read(dst, 4090, remote, 0, 8, T));
            p.client.read(dst, 0, remote, 1016, 8, T); // still usable
        }
    }

    @Test
    void sendingMoreThanThePeersBufferSizeIsRefused() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions().bufferSize(1024), new ConnectionOptions())) {
            MemoryRegion big = p.client.allocateRegion(4096, Access.LOCAL_WRITE);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.client.send(big, 0, 1025, T));
            assertTrue(e.getMessage().contains("1025-byte message") && e.getMessage().contains("1024 bytes"),
                    e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> p.client.trySend(big, 0, 4096));
            p.client.send(big, 0, 1024, T); // exactly the peer's size is fine
            p.served.receive(T).release();
        }
    }

    @Test
    void usingAConnectionAfterCloseIsAnIllegalState() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion buf = p.client.allocateRegion(64, Access.LOCAL_WRITE);
            RemoteBuffer remote = new RemoteBuffer(0x1000, 1, 64);
            p.client.close();
            assertTrue(buf.isClosed(), "the connection's regions close with it");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.client.send(buf, 0, 8, T));
            assertTrue(e.getMessage().contains("closed"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> p.client.tryReceive());
            assertThrows(IllegalStateException.class, () -> p.client.progress());
            IllegalStateException alloc = assertThrows(IllegalStateException.class,
                    () -> p.client.allocateRegion(64, Access.LOCAL_WRITE));
            assertTrue(alloc.getMessage().contains("the connection to"), "names the connection: " + alloc.getMessage());
            assertThrows(IllegalStateException.class, () -> p.client.flush(T));
            assertTrue(!p.client.isOpen());
            assertEquals(ConnectionException.Reason.PEER_DISCONNECTED, assertThrows(ConnectionException.class,
                    () -> p.served.receive(T)).reason());
            assertThrows(IllegalStateException.class, () -> p.client.tryWrite(buf, 0, remote, 0, 8));
        }
    }

    @Test
    void closingTheServerWithItsConnectionsClosesWhatItAccepted() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            assertEquals(java.util.List.of(p.served), p.server.openConnections());
            p.server.closeWithConnections();
            assertTrue(!p.served.isOpen(), "the accepted connection is closed");
            assertTrue(p.server.openConnections().isEmpty(), "and no longer listed");
            assertEquals(ConnectionException.Reason.PEER_DISCONNECTED, assertThrows(ConnectionException.class,
                    () -> p.client.receive(T)).reason());
        }
    }

    @Test
    void aRegionOfAnotherProtectionDomainIsRefused() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions());
             Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion foreign = pd.allocateRegion(64, Access.LOCAL_WRITE)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.client.send(foreign, 0, 8, T));
            assertTrue(e.getMessage().contains("Connection.allocateRegion"), e.getMessage());
        }
    }
}
