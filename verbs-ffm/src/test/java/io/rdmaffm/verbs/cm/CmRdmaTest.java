package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.RdmaTestDevice;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.WorkCompletionOpcode;
import io.rdmaffm.verbs.WorkCompletionStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * rdma_cm on the test device: a listener and a client in one process (two threads sharing one event
 * channel), connecting over the device's IP address with private data both ways, then traffic over the
 * connected QPs, disconnect, rejection and the error paths.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CmRdmaTest {
    private static final Duration T = Duration.ofSeconds(10);
    private static final int BUF = 4096;

    /** One side of a connection: its id, verbs objects and buffer. */
    static final class Side implements AutoCloseable {
        final CmId id;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final Completions wc = new Completions(4);
        final SendWorkRequests send = new SendWorkRequests(1, 1);
        final RecvWorkRequests recv = new RecvWorkRequests(1, 1);

        Side(CmId id) {
            this.id = id;
            Context ctx = id.context();
            assertTrue(ctx.isBorrowed());
            pd = ctx.allocateProtectionDomain();
            cq = ctx.createCompletionQueue(16);
            qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(8).maxRecvWr(8));
            mr = pd.allocateRegion(BUF, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        }

        void postRecv() {
            recv.set(0, 7, mr, 0, 256);
            qp.postRecv(recv, 1);
        }

        /** Where and how the peer may write into this side's buffer, plus a greeting. */
        byte[] invitation(String text) {
            byte[] t = text.getBytes(StandardCharsets.US_ASCII);
            return ByteBuffer.allocate(12 + t.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putLong(mr.addressOf(1024, 64)).putInt(mr.rkey()).put(t).array();
        }

        void await(int n) {
            long deadline = System.nanoTime() + T.toNanos();
            int seen = 0;
            while (seen < n) {
                int got = cq.poll(wc);
                for (int i = 0; i < got; i++) {
                    assertEquals(WorkCompletionStatus.SUCCESS, wc.status(i), wc.describe(i));
                }
                seen += got;
                if (got == 0 && System.nanoTime() > deadline) {
                    fail("only " + seen + " of " + n + " completions within " + T);
                }
            }
        }

        @Override
        public void close() {
            id.close(); // destroys the QP first (rdma_destroy_qp)
            assertTrue(qp.isClosed(), "closing the id destroys its queue pair");
            mr.close();
            cq.close();
            pd.close();
            wc.close();
            send.close();
            recv.close();
        }
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void connectExchangePrivateDataSendWriteAndDisconnectOverIpv4() throws Exception {
        connectAndTalk(CmListening.ipv4());
    }

    @Test
    void connectOverIpv6LinkLocal() throws Exception {
        RdmaTestDevice.name();
        String netdev = RdmaTestDevice.netdev();
        if (netdev == null) {
            try (Context ctx = Context.open(RdmaTestDevice.name())) {
                netdev = ctx.queryGid(1, RdmaTestDevice.gidIndex()).netdev();
            }
        }
        Inet6Address linkLocal = linkLocalOf(netdev);
        assumeTrue(linkLocal != null, "netdev " + netdev + " has no IPv6 link-local address (IPv6 disabled on it?)");
        connectAndTalk(linkLocal);
    }

    private static Inet6Address linkLocalOf(String netdev) throws SocketException {
        NetworkInterface nif = NetworkInterface.getByName(netdev);
        if (nif == null) {
            return null;
        }
        for (InetAddress a : Collections.list(nif.getInetAddresses())) {
            if (a instanceof Inet6Address a6 && a6.isLinkLocalAddress()) {
                return a6;
            }
        }
        return null;
    }

    private void connectAndTalk(InetAddress ip) throws Exception {
        try (CmListening cm = new CmListening(ip, PortSpace.TCP, 4)) {
            EventChannel channel = cm.channel;
            CmId listener = cm.listener;
            InetSocketAddress bound = cm.bound;
            assertEquals(ip, bound.getAddress());
            assertTrue(bound.getPort() > 0, "port 0 binds a free port: " + bound);

            Future<byte[]> clientRun = cm.client(() -> runClient(channel, bound));

            CmEvent request = listener.awaitConnectRequest(T);
            assertSame(listener, request.listenId());
            assertSame(listener, request.id().listener());
            try (Side server = new Side(request.id())) {
                byte[] pdata = request.privateData();
                ByteBuffer in = ByteBuffer.wrap(pdata).order(ByteOrder.LITTLE_ENDIAN);
                long clientAddr = in.getLong();
                int clientRkey = in.getInt();
                assertArrayEquals(ascii("hello from client"), Arrays.copyOfRange(pdata, 12, 12 + 17),
                        "the connect request carries the client's private data");
                assertEquals(1, request.responderResources(), request.toString());
                assertEquals(1, request.initiatorDepth(), request.toString());
                assertEquals(7, request.rnrRetryCount(), request.toString());
                assertEquals(ip, server.id.localAddress().getAddress());
                assertEquals(ip, server.id.peerAddress().getAddress());

                server.postRecv();
                CmEvent established = server.id.accept(new ConnectionParameters()
                        .privateData(ascii("welcome, client")).responderResources(1).initiatorDepth(1), T);
                assertEquals(CmEventType.ESTABLISHED, established.type());
                assertEquals(QueuePairState.RTS, server.qp.state(), "librdmacm moves an accepted QP to RTS");

                // the client's SEND
                server.await(1);
                assertEquals(WorkCompletionOpcode.RECV, server.wc.opcode(0));
                assertEquals(4, server.wc.byteLength(0));
                assertArrayEquals(ascii("ping"), server.mr.segment().asSlice(0, 4).toArray(JAVA_BYTE));

                // an RDMA WRITE into the buffer the client advertised in its private data
                server.mr.segment().asSlice(512, 8).set(JAVA_LONG, 0, 0x1122334455667788L);
                server.send.get(0).wrId(9).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .local(server.mr, 512, 8).rdma(clientAddr, clientRkey);
                server.qp.postSend(server.send, 1);
                server.await(1);
                assertEquals(WorkCompletionOpcode.RDMA_WRITE, server.wc.opcode(0));

                // The client disconnects; answering with our own rdma_disconnect sends the DREP that
                // completes the client's disconnect at once instead of after its DREQ timeout.
                CmEvent disconnected = server.id.awaitEvent(CmEventType.DISCONNECTED, T);
                assertEquals(CmEventType.DISCONNECTED, disconnected.type());
                server.id.disconnect();

                byte[] fromClient = clientRun.get(60, TimeUnit.SECONDS);
                assertArrayEquals(ascii("welcome, client"), Arrays.copyOf(fromClient, 15),
                        "the client saw the server's private data in ESTABLISHED");
            }
        }
    }

    /** The client thread: resolve, connect, SEND, wait for the server's WRITE, disconnect. */
    private static byte[] runClient(EventChannel channel, InetSocketAddress server) {
        CmId id = channel.createId(PortSpace.TCP);
        id.resolveAddress(null, server, Duration.ofSeconds(2));
        assertEquals(server, id.peerAddress());
        id.resolveRoute(Duration.ofSeconds(2));
        assertEquals(1, id.port());
        try (Side client = new Side(id)) {
            assertEquals(QueuePairState.INIT, client.qp.state(), "rdma_create_qp leaves the QP in INIT");
            client.mr.segment().fill((byte) 0);
            CmEvent established = id.connect(new ConnectionParameters()
                    .privateData(client.invitation("hello from client")).responderResources(1).initiatorDepth(1)
                    .retryCount(7).rnrRetryCount(7), T);
            assertEquals(QueuePairState.RTS, client.qp.state());

            client.mr.segment().asSlice(0, 4).copyFrom(java.lang.foreign.MemorySegment.ofArray(ascii("ping")));
            client.send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(client.mr, 0, 4);
            client.qp.postSend(client.send, 1);
            client.await(1);

            long deadline = System.nanoTime() + T.toNanos();
            while (client.mr.segment().get(JAVA_LONG, 1024) != 0x1122334455667788L) {
                if (System.nanoTime() > deadline) {
                    fail("the server's RDMA WRITE did not arrive within " + T);
                }
                Thread.onSpinWait();
            }
            long start = System.nanoTime();
            CmEvent disconnected = id.disconnect(T);
            assertEquals(CmEventType.DISCONNECTED, disconnected.type());
            System.out.println("client DISCONNECTED after " + (System.nanoTime() - start) / 1_000_000 + " ms");
            return established.privateData();
        }
    }

    @Test
    void rejectionReachesTheClientWithPrivateData() throws Exception {
        InetAddress ip = CmListening.ipv4();
        try (CmListening cm = new CmListening(ip, PortSpace.TCP, 1)) {
            EventChannel channel = cm.channel;
            CmId listener = cm.listener;
            InetSocketAddress bound = cm.bound;
            Future<CmException> clientRun = cm.client(() -> {
                CmId id = channel.createId(PortSpace.TCP);
                try {
                    id.resolveAddress(null, bound, Duration.ofSeconds(2));
                    id.resolveRoute(Duration.ofSeconds(2));
                    try (Side client = new Side(id)) {
                        return assertThrows(CmException.class, () -> id.connect(
                                new ConnectionParameters().privateData(ascii("may I?")), T));
                    }
                } finally {
                    id.close();
                }
            });
            CmEvent request = listener.awaitConnectRequest(T);
            assertArrayEquals(ascii("may I?"), request.privateData(6));
            request.id().reject(ascii("go away"));
            request.id().close();

            CmException e = clientRun.get(60, TimeUnit.SECONDS);
            assertNotNull(e.event(), e.getMessage());
            assertEquals(CmEventType.REJECTED, e.event().type(), e.getMessage());
            assertEquals(28, e.event().status(), "IB_CM_REJ_CONSUMER_DEFINED: " + e.getMessage());
            assertArrayEquals(ascii("go away"), e.event().privateData(7));
            assertEquals("rdma_connect", e.verb());
            assertFalse(e.isTimeout());
            assertTrue(e.getMessage().contains("REJECTED"), e.getMessage());
        }
    }

    @Test
    void connectingWhereNothingListensIsAClearErrorWithinSeconds() throws Exception {
        InetAddress ip = CmListening.ipv4();
        try (EventChannel channel = EventChannel.create()) {
            int freePort;
            try (CmId probe = channel.createId(PortSpace.TCP)) {
                probe.bindAddress(new InetSocketAddress(ip, 0));
                freePort = probe.localAddress().getPort();
            }
            try (CmId id = channel.createId(PortSpace.TCP)) {
                id.resolveAddress(null, new InetSocketAddress(ip, freePort), Duration.ofSeconds(2));
                id.resolveRoute(Duration.ofSeconds(2));
                try (Side client = new Side(id)) {
                    long start = System.nanoTime();
                    CmException e = assertThrows(CmException.class,
                            () -> id.connect(new ConnectionParameters(), Duration.ofSeconds(30)));
                    long ms = (System.nanoTime() - start) / 1_000_000;
                    System.out.println("connect to a port without listener: " + e.getMessage() + " after " + ms + " ms");
                    assertTrue(ms < 10_000, "took " + ms + " ms");
                    assertFalse(e.isTimeout(), e.getMessage());
                    assertTrue(e.event().type() == CmEventType.REJECTED || e.event().type() == CmEventType.UNREACHABLE,
                            e.getMessage());
                }
            }
        }
    }

    @Test
    void resolvingAnAddressNoHostAnswersIsAClearErrorWithinSeconds() throws Exception {
        InetAddress ip = CmListening.ipv4();
        assumeTrue(ip.getAddress()[3] != 2, "the test picks .2 of the device's /24 as the silent address");
        byte[] silent = ip.getAddress();
        silent[3] = 2; // in the VM: 10.77.0.2, on veth0's subnet, owned by nobody
        try (EventChannel channel = EventChannel.create(); CmId id = channel.createId(PortSpace.TCP)) {
            long start = System.nanoTime();
            CmException e = assertThrows(CmException.class, () -> id.resolveAddress(null,
                    new InetSocketAddress(InetAddress.getByAddress(silent), 7471), Duration.ofSeconds(1)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.println("resolve of a silent address: " + e.getMessage() + " after " + ms + " ms");
            assertTrue(ms < 6_000, "took " + ms + " ms");
            assertEquals("rdma_resolve_addr", e.verb());
            if (!e.isTimeout()) {
                assertEquals(CmEventType.ADDR_ERROR, e.event().type(), e.getMessage());
                assertTrue(e.event().status() < 0, "a negative errno: " + e.event());
            }
        }
    }

    @Test
    void lifetimeRulesAreEnforced() throws Exception {
        InetAddress ip = CmListening.ipv4();
        EventChannel channel = EventChannel.create();
        assertTrue(channel.fd() >= 0);
        CmId id = channel.createId(PortSpace.TCP);
        IllegalStateException noDevice = assertThrows(IllegalStateException.class, id::context);
        assertTrue(noDevice.getMessage().contains("no device yet"), noDevice.getMessage());
        IllegalStateException busy = assertThrows(IllegalStateException.class, channel::close);
        assertTrue(busy.getMessage().contains("still open"), busy.getMessage());

        id.bindAddress(new InetSocketAddress(ip, 0));
        assertSame(id.context(), id.context(), "one Context per librdmacm device context");
        try (Context own = Context.open(RdmaTestDevice.name());
             ProtectionDomain foreign = own.allocateProtectionDomain();
             CompletionQueue cq = own.createCompletionQueue(4)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> id.createQueuePair(foreign, new QueuePairInit(QueuePairType.RC, cq, cq)));
            assertTrue(e.getMessage().contains("CmId.context()"), e.getMessage());
        }
        id.context().close(); // librdmacm owns it: no effect
        assertFalse(id.context().isClosed());

        // a second bind of the same id fails in librdmacm with a VerbsException naming the verb
        VerbsException again = assertThrows(VerbsException.class, () -> id.bindAddress(new InetSocketAddress(ip, 0)));
        assertEquals("rdma_bind_addr", again.verb());
        assertTrue(again.errno() != 0);

        id.close();
        id.close();
        assertThrows(IllegalStateException.class, () -> id.listen(1));
        assertThrows(IllegalStateException.class, id::localAddress);
        assertTrue(id.isClosed());
        assertEquals(null, channel.nextEvent(Duration.ofMillis(50)), "no event is pending");
        channel.close();
        channel.close();
        assertThrows(IllegalStateException.class, () -> channel.createId(PortSpace.TCP));
    }
}
