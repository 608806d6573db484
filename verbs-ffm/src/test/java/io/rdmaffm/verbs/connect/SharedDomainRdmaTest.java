package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.connect.ConnectedPair.T;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One region registered once on a {@link SharedDomain} and served to several connections, on the test device: each
 * client writes its own slice of the server's region and reads all of it back (so every client sees the others'
 * writes through its own connection), the server sends from the shared region on every connection, and the clients'
 * local buffers come from one client-side domain; then the ownership rules (a domain in use refuses to close, closed
 * domains refuse new connections, close is idempotent).
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SharedDomainRdmaTest {
    private static final int CLIENTS = 3;
    private static final int SLICE = 4096;
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE;

    @Test
    void oneRegionRegisteredOnceServesSeveralConnections() throws Exception {
        InetAddress ip = ConnectedPair.ipv4();
        try (SharedDomain serverSide = SharedDomain.open(ip); SharedDomain clientSide = SharedDomain.open(ip)) {
            MemoryRegion shared = serverSide.allocateRegion((long) CLIENTS * SLICE, ACCESS);
            MemoryRegion local = clientSide.allocateRegion((long) CLIENTS * SLICE * 2, ACCESS);
            List<Connection> clients = new ArrayList<>();
            RdmaServer server = RdmaServer.listen(new InetSocketAddress(ip, 0), new ConnectionOptions()
                    .sharedDomain(serverSide).privateData(RemoteBuffer.of(shared).encode()));
            try {
                for (int i = 0; i < CLIENTS; i++) {
                    CompletableFuture<Connection> accepted = CompletableFuture.supplyAsync(() -> server.accept(T));
                    clients.add(Connection.connect(server.localAddress(),
                            new ConnectionOptions().sharedDomain(clientSide), T));
                    accepted.get(T.toSeconds(), TimeUnit.SECONDS);
                }
                assertEquals(CLIENTS, serverSide.connections());
                assertEquals(CLIENTS, clientSide.connections());

                // Each client WRITEs its slice of the one server region, from its slice of the one client region.
                for (int i = 0; i < CLIENTS; i++) {
                    Connection c = clients.get(i);
                    RemoteBuffer there = RemoteBuffer.decode(c.peerPrivateData());
                    assertEquals(shared.rkey(), there.rkey(), "every connection names the same registration");
                    local.segment().asSlice((long) i * SLICE, SLICE).fill((byte) (0x41 + i));
                    c.write(local, (long) i * SLICE, there, (long) i * SLICE, SLICE, T);
                }
                // Every client READs the whole region back and sees all slices, its neighbours' too.
                for (int i = 0; i < CLIENTS; i++) {
                    Connection c = clients.get(i);
                    RemoteBuffer there = RemoteBuffer.decode(c.peerPrivateData());
                    long into = (long) CLIENTS * SLICE;
                    local.segment().asSlice(into, (long) CLIENTS * SLICE).fill((byte) 0);
                    c.read(local, into, there, 0, CLIENTS * SLICE, T);
                    for (int s = 0; s < CLIENTS; s++) {
                        for (int b = 0; b < SLICE; b += 512) {
                            assertEquals((byte) (0x41 + s), local.segment().get(JAVA_BYTE,
                                    into + (long) s * SLICE + b), "client " + i + " reads slice " + s + " byte " + b);
                        }
                    }
                }
                // The server sends from the shared region on every accepted connection.
                List<Connection> served = server.openConnections();
                assertEquals(CLIENTS, served.size());
                for (int i = 0; i < CLIENTS; i++) {
                    Connection to = served.get(i);
                    Connection client = clients.stream().filter(c -> c.localAddress().equals(to.peerAddress()))
                            .findFirst().orElseThrow(() -> new AssertionError("no client at " + to.peerAddress()));
                    shared.segment().set(JAVA_LONG, 0, 1000 + i);
                    to.send(shared, 0, 8, T);
                    Message m = client.receive(T);
                    assertEquals(1000 + i, m.segment().get(JAVA_LONG, 0), "message " + i + " from the shared region");
                    m.release();
                }

                // A region a connection makes itself on a shared domain is that connection's: it closes with it.
                MemoryRegion own = clients.get(0).allocateRegion(64, Access.LOCAL_WRITE);
                assertTrue(own.protectionDomain() == local.protectionDomain(), "made on the shared domain");

                // Ownership: a domain in use refuses to close, and stays usable.
                IllegalStateException busy = assertThrows(IllegalStateException.class, serverSide::close);
                assertTrue(busy.getMessage().contains("still used by " + CLIENTS + " connections"), busy.getMessage());
                assertTrue(serverSide.isOpen());
                clients.get(1).write(local, 0, RemoteBuffer.decode(clients.get(1).peerPrivateData()), 0, 8, T);

                clients.get(0).close();
                assertTrue(own.isClosed(), "a connection's own region closes with it");
                assertFalse(local.isClosed(), "the shared domain's region outlives the connection");
                assertEquals(CLIENTS - 1, clientSide.connections(), "a closed connection releases its use");
                assertThrows(IllegalStateException.class, clientSide::close);
            } finally {
                for (Connection c : clients) {
                    c.close();
                }
                server.closeWithConnections();
            }
            assertEquals(0, serverSide.connections());
            assertEquals(0, clientSide.connections());
            serverSide.close();
            serverSide.close(); // idempotent
            assertFalse(serverSide.isOpen());
            assertThrows(IllegalStateException.class, () -> serverSide.allocateRegion(64, Access.LOCAL_WRITE));
        }
    }

    @Test
    void aClosedDomainRefusesNewConnectionsOnBothSides() throws Exception {
        InetAddress ip = ConnectedPair.ipv4();
        SharedDomain closed = SharedDomain.open(ip);
        closed.close();
        try (RdmaServer plain = RdmaServer.listen(new InetSocketAddress(ip, 0))) {
            // Refused before anything reaches the server (no accept is waiting: nothing to clean up there).
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> Connection.connect(
                    plain.localAddress(), new ConnectionOptions().sharedDomain(closed), T));
            assertTrue(e.getMessage().contains("is closed"), e.getMessage());
        }
        assertEquals(0, closed.connections());

        try (RdmaServer server = RdmaServer.listen(new InetSocketAddress(ip, 0),
                new ConnectionOptions().sharedDomain(closed))) {
            CompletableFuture<Connection> accepted = CompletableFuture.supplyAsync(() -> server.accept(T));
            ConnectionException refused = assertThrows(ConnectionException.class,
                    () -> Connection.connect(server.localAddress(), T));
            assertEquals(ConnectionException.Reason.CONNECT_FAILED, refused.reason(), refused.getMessage());
            java.util.concurrent.ExecutionException onServer = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> accepted.get(T.toSeconds(), TimeUnit.SECONDS));
            assertTrue(onServer.getCause() instanceof IllegalStateException
                    && onServer.getCause().getMessage().contains("is closed"), String.valueOf(onServer.getCause()));
        }
        assertThrows(IllegalArgumentException.class, () -> SharedDomain.open(InetAddress.getByName("0.0.0.0")));
    }

    @Test
    void aSharedRegionIsRefusedOnAConnectionWithItsOwnDomain() throws Exception {
        try (SharedDomain d = SharedDomain.open(ConnectedPair.ipv4());
             ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion elsewhere = d.allocateRegion(64, Access.LOCAL_WRITE);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.client.send(elsewhere, 0, 8, T));
            assertTrue(e.getMessage().contains("not registered through this connection"), e.getMessage());
        }
    }
}
