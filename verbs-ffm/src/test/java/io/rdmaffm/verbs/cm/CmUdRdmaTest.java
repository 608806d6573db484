package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.AddressVector;
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
import io.rdmaffm.verbs.WorkCompletionOpcode;
import io.rdmaffm.verbs.WorkCompletionStatus;
import io.rdmaffm.verbs.raw.Constants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.cm.CmEstablishRdmaTest.qpnBytes;
import static io.rdmaffm.verbs.cm.CmEstablishRdmaTest.qpnOf;
import static io.rdmaffm.verbs.cm.CmRdmaTest.ascii;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Unreliable datagram over rdma_cm (RDMA_PS_UDP): the client's connect is a SIDR request, the server accepts with
 * its UD QP's number, and the client's ESTABLISHED event carries the server's address vector, QP number and Q_Key,
 * from which it builds an address handle and sends a datagram; the server answers through an address handle made
 * from the received completion. The bytes are checked both ways.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CmUdRdmaTest {
    private static final Duration T = Duration.ofSeconds(20);
    /** Every UD receive starts with room for a 40-byte GRH. */
    private static final int GRH = 40;

    /** One side: a UD QP made by rdma_create_qp (which moves it to RTS), and a buffer. */
    static final class UdSide implements AutoCloseable {
        final CmId id;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        /** One entry: each poll takes one completion, so a reply that lands with our send's completion waits. */
        final Completions wc = new Completions(1);
        final SendWorkRequests send = new SendWorkRequests(1, 1);
        final RecvWorkRequests recv = new RecvWorkRequests(1, 1);
        AddressHandle ah;

        UdSide(CmId id) {
            this.id = id;
            Context ctx = id.context();
            pd = ctx.allocateProtectionDomain();
            cq = ctx.createCompletionQueue(16);
            qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.UD, cq, cq).maxSendWr(8).maxRecvWr(8));
            mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
        }

        void postRecv() {
            recv.set(0, 70, mr, 0, 512 + GRH);
            qp.postRecv(recv, 1);
        }

        void send(String text, AddressHandle to, int qpn, int qkey) {
            MemorySegment.copy(ascii(text), 0, mr.segment(), JAVA_BYTE, 2048, text.length());
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, 2048, text.length())
                    .ud(to, qpn, qkey);
            qp.postSend(send, 1);
        }

        /** Waits for one completion of {@code opcode}; returns its index in {@link #wc} (valid until the next poll). */
        int awaitOne(WorkCompletionOpcode opcode) {
            long deadline = System.nanoTime() + T.toNanos();
            while (true) {
                if (cq.poll(wc) == 1) {
                    assertEquals(WorkCompletionStatus.SUCCESS, wc.status(0), wc.describe(0));
                    assertEquals(opcode, wc.opcode(0), wc.describe(0));
                    return 0;
                }
                if (System.nanoTime() > deadline) {
                    fail("no " + opcode + " completion within " + T);
                }
            }
        }

        String received(int length) {
            return new String(mr.segment().asSlice(GRH, length).toArray(JAVA_BYTE),
                    java.nio.charset.StandardCharsets.US_ASCII);
        }

        @Override
        public void close() {
            if (ah != null) {
                ah.close();
            }
            id.close(); // rdma_destroy_qp, then rdma_destroy_id
            mr.close();
            cq.close();
            pd.close();
            wc.close();
            send.close();
            recv.close();
        }
    }

    @Test
    void datagramsBothWaysOverAnRdmaPsUdpExchange() throws Exception {
        InetAddress ip = CmListening.ipv4();
        try (CmListening cm = new CmListening(ip, PortSpace.UDP, 2)) {
            EventChannel channel = cm.channel;
            CmId listener = cm.listener;
            assertEquals(PortSpace.UDP, listener.portSpace());
            InetSocketAddress bound = cm.bound;
            Future<String> clientRun = cm.client(() -> runClient(channel, bound));

            CmEvent request = listener.awaitConnectRequest(T);
            assertEquals(PortSpace.UDP, request.id().portSpace());
            assertArrayEquals(ascii("udp hello"), request.privateData(9), "the SIDR request's private data");
            assertNull(request.addressVector(), "a UD connect request says nothing of where the client is");
            try (UdSide server = new UdSide(request.id())) {
                assertEquals(QueuePairState.RTS, server.qp.state(), "rdma_create_qp moves a UD QP to RTS");
                assertEquals(Constants.RDMA_UDP_QKEY, server.qp.query().qkey(), "RDMA_PS_UDP's Q_Key");
                server.postRecv();
                ConnectionParameters accept = new ConnectionParameters().privateData(qpnBytes(server.qp.qpNumber()));
                IllegalStateException noEvent = assertThrows(IllegalStateException.class,
                        () -> server.id.accept(accept, T));
                assertTrue(noEvent.getMessage().contains("startAccept"), noEvent.getMessage());
                server.id.startAccept(accept); // the SIDR reply, with our QP number and Q_Key

                int r = server.awaitOne(WorkCompletionOpcode.RECV);
                String fromClient = "datagram from the client";
                assertEquals(fromClient.length() + GRH, server.wc.byteLength(r), "byte_len counts the GRH");
                assertEquals(fromClient, server.received(fromClient.length()));
                int clientQpn = server.wc.sourceQp(r);
                // Reply to the sender: the address handle comes from the completion and the GRH in front of it.
                server.ah = server.pd.createAddressHandleFromCompletion(server.wc, r,
                        server.mr.segment().asSlice(0, GRH), server.id.port());
                server.send("reply from the server", server.ah, clientQpn, Constants.RDMA_UDP_QKEY);
                server.awaitOne(WorkCompletionOpcode.SEND);

                assertEquals("reply from the server", clientRun.get(60, TimeUnit.SECONDS));
            }
        }
    }

    /** Resolve, UD QP, connect (SIDR), address handle from ESTABLISHED, send, wait for the reply. */
    private static String runClient(EventChannel channel, InetSocketAddress server) {
        CmId id = channel.createId(PortSpace.UDP);
        id.resolveAddress(null, server, Duration.ofSeconds(2));
        id.resolveRoute(Duration.ofSeconds(2));
        try (UdSide client = new UdSide(id)) {
            assertEquals(QueuePairState.RTS, client.qp.state());
            client.postRecv();
            CmEvent established = id.connect(new ConnectionParameters().privateData(ascii("udp hello")), T);
            assertEquals(CmEventType.ESTABLISHED, established.type());
            int serverQpn = qpnOf(established.privateData());
            assertEquals(serverQpn, established.qpNumber(), "param.ud.qp_num is the server's UD QP: " + established);
            assertEquals(Constants.RDMA_UDP_QKEY, established.qkey(), "param.ud.qkey");
            AddressVector av = established.addressVector();
            assertNotNull(av, "param.ud.ah_attr");
            assertTrue(av.isGlobal(), "RoCE: a GRH: " + av);
            assertEquals(id.port(), av.port());
            byte[] gid = id.context().queryGid(id.port(), RdmaTestDevice.gidIndex()).gid();
            assertArrayEquals(gid, av.destinationGid(), "the server is on this device: its GID is ours: " + av);
            assertThrows(IllegalStateException.class, id::establish, "librdmacm completed this exchange itself");

            client.ah = client.pd.createAddressHandle(av);
            client.send("datagram from the client", client.ah, established.qpNumber(), established.qkey());
            client.awaitOne(WorkCompletionOpcode.SEND);
            int r = client.awaitOne(WorkCompletionOpcode.RECV);
            int length = client.wc.byteLength(r) - GRH;
            assertEquals(serverQpn, client.wc.sourceQp(r), "the reply comes from the server's QP");
            return client.received(length);
        }
    }
}
