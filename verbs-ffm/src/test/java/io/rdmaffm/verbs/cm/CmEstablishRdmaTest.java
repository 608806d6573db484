package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInfo;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.QueuePairType;
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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.cm.CmRdmaTest.ascii;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * rdma_cm with queue pairs the application creates itself ({@code ProtectionDomain.createQueuePair}), as an
 * application with extended QPs or its own QP set-up does: both sides move their QPs through INIT, RTR and RTS with
 * the attributes of {@code rdma_init_qp_attr}, the client gets CONNECT_RESPONSE (not ESTABLISHED) and completes the
 * connection with {@code rdma_establish}, and the server's accept then ends in ESTABLISHED. Real traffic both ways
 * proves the negotiated attributes (peer QP number, PSNs, address vector) are right.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CmEstablishRdmaTest {
    private static final Duration T = Duration.ofSeconds(20);
    private static final int BUF = 4096;

    /** One side: verbs objects on the id's device, with an RC QP that librdmacm knows nothing of. */
    static final class OwnSide implements AutoCloseable {
        final CmId id;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final Completions wc = new Completions(4);
        final SendWorkRequests send = new SendWorkRequests(1, 1);
        final RecvWorkRequests recv = new RecvWorkRequests(1, 1);

        OwnSide(CmId id) {
            this.id = id;
            Context ctx = id.context();
            pd = ctx.allocateProtectionDomain();
            cq = ctx.createCompletionQueue(16);
            qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(8).maxRecvWr(8));
            mr = pd.allocateRegion(BUF, Access.LOCAL_WRITE);
        }

        /** Moves the QP to {@code state} with what rdma_cm negotiated, and checks the mask holds what it must. */
        void moveTo(QueuePairState state, int requiredMask) {
            QueuePairAttributes a = id.queuePairAttributes(state);
            assertEquals(state, a.state(), a.toString());
            assertEquals(requiredMask, a.mask() & requiredMask, "rdma_init_qp_attr for " + state + ": " + a);
            qp.modify(a);
            assertEquals(state, qp.state());
        }

        void postRecv() {
            recv.set(0, 70, mr, 0, 256);
            qp.postRecv(recv, 1);
        }

        void sendText(String text) {
            MemorySegment.copy(ascii(text), 0, mr.segment(), JAVA_BYTE, 1024, text.length());
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, 1024, text.length());
            qp.postSend(send, 1);
        }

        /** Waits for {@code n} successful completions; returns the byte length of the last receive seen. */
        int await(int n) {
            long deadline = System.nanoTime() + T.toNanos();
            int seen = 0;
            int received = -1;
            while (seen < n) {
                int got = cq.poll(wc);
                for (int i = 0; i < got; i++) {
                    assertEquals(WorkCompletionStatus.SUCCESS, wc.status(i), wc.describe(i));
                    if (wc.opcode(i) == WorkCompletionOpcode.RECV) {
                        received = wc.byteLength(i);
                    }
                }
                seen += got;
                if (got == 0 && System.nanoTime() > deadline) {
                    fail("only " + seen + " of " + n + " completions within " + T);
                }
            }
            return received;
        }

        @Override
        public void close() {
            // The id does not own this QP: closing the id leaves it, so it goes first, by hand.
            id.close();
            assertTrue(!qp.isClosed(), "an application's own QP outlives the id");
            qp.close();
            mr.close();
            cq.close();
            pd.close();
            wc.close();
            send.close();
            recv.close();
        }
    }

    static byte[] qpnBytes(int qpn) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(qpn).array();
    }

    static int qpnOf(byte[] privateData) {
        return ByteBuffer.wrap(privateData, 0, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static final int INIT_MASK = Constants.IBV_QP_STATE | Constants.IBV_QP_PKEY_INDEX | Constants.IBV_QP_PORT
            | Constants.IBV_QP_ACCESS_FLAGS;
    private static final int RTR_MASK = Constants.IBV_QP_STATE | Constants.IBV_QP_AV | Constants.IBV_QP_PATH_MTU
            | Constants.IBV_QP_DEST_QPN | Constants.IBV_QP_RQ_PSN | Constants.IBV_QP_MAX_DEST_RD_ATOMIC
            | Constants.IBV_QP_MIN_RNR_TIMER;
    private static final int RTS_MASK = Constants.IBV_QP_STATE | Constants.IBV_QP_SQ_PSN | Constants.IBV_QP_TIMEOUT
            | Constants.IBV_QP_RETRY_CNT | Constants.IBV_QP_RNR_RETRY | Constants.IBV_QP_MAX_QP_RD_ATOMIC;

    @Test
    void ownQueuePairsMovedWithRdmaInitQpAttrAndConnectedWithRdmaEstablish() throws Exception {
        InetAddress ip = CmListening.ipv4();
        try (CmListening cm = new CmListening(ip, PortSpace.TCP, 2)) {
            EventChannel channel = cm.channel;
            CmId listener = cm.listener;
            InetSocketAddress bound = cm.bound;
            Future<String> clientRun = cm.client(() -> runClient(channel, bound));

            CmEvent request = listener.awaitConnectRequest(T);
            try (OwnSide server = new OwnSide(request.id())) {
                int clientQpn = qpnOf(request.privateData());
                assertEquals(clientQpn, request.qpNumber(), "the request carries the client's own QP number");
                // Before the accept, with what the request negotiated: INIT, RTR (to the client's QP) and RTS.
                server.moveTo(QueuePairState.INIT, INIT_MASK);
                server.postRecv();
                server.moveTo(QueuePairState.RTR, RTR_MASK);
                server.moveTo(QueuePairState.RTS, RTS_MASK);
                assertEquals(clientQpn, server.qp.query().destQpNumber());
                // accept with our QP's number; ESTABLISHED comes once the client's rdma_establish sent the RTU.
                CmEvent established = server.id.accept(new ConnectionParameters().qpNumber(server.qp.qpNumber())
                        .privateData(qpnBytes(server.qp.qpNumber())), T);
                assertEquals(CmEventType.ESTABLISHED, established.type());

                assertEquals(4, server.await(1), "the client's ping");
                assertArrayEquals(ascii("ping"), server.mr.segment().asSlice(0, 4).toArray(JAVA_BYTE));
                server.sendText("pong!");
                server.await(1);

                server.id.awaitEvent(CmEventType.DISCONNECTED, T);
                server.id.disconnect();
                assertEquals("pong!", clientRun.get(60, TimeUnit.SECONDS));
            }
        }
    }

    /** Resolve, own QP, connect with its number, CONNECT_RESPONSE, INIT/RTR/RTS, rdma_establish, ping/pong. */
    private static String runClient(EventChannel channel, InetSocketAddress server) {
        CmId id = channel.createId(PortSpace.TCP);
        id.resolveAddress(null, server, Duration.ofSeconds(2));
        id.resolveRoute(Duration.ofSeconds(2));
        try (OwnSide client = new OwnSide(id)) {
            assertEquals(QueuePairState.RESET, client.qp.state(), "librdmacm does not touch the application's QP");
            IllegalArgumentException noQp = assertThrows(IllegalArgumentException.class,
                    () -> id.connect(new ConnectionParameters(), T));
            assertTrue(noQp.getMessage().contains("ConnectionParameters.qpNumber"), noQp.getMessage());
            assertThrows(IllegalArgumentException.class, () -> id.queuePairAttributes(QueuePairState.SQD));
            assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().qpNumber(1 << 24));

            client.moveTo(QueuePairState.INIT, INIT_MASK); // known once the route is resolved
            client.postRecv();
            CmEvent response = id.connect(new ConnectionParameters().qpNumber(client.qp.qpNumber())
                    .privateData(qpnBytes(client.qp.qpNumber())), T);
            assertEquals(CmEventType.CONNECT_RESPONSE, response.type(), response.toString());
            int serverQpn = qpnOf(response.privateData());
            assertEquals(serverQpn, response.qpNumber(), "the reply carries the server's own QP number");
            assertNotEquals(client.qp.qpNumber(), serverQpn);

            client.moveTo(QueuePairState.RTR, RTR_MASK);
            QueuePairInfo rtr = client.qp.query();
            assertEquals(serverQpn, rtr.destQpNumber(), "RTR points at the server's QP");
            assertTrue(rtr.global(), "RoCE: the negotiated address vector has a GRH");
            client.moveTo(QueuePairState.RTS, RTS_MASK);
            id.establish();
            assertNull(id.nextEvent(Duration.ofMillis(200)), "rdma_establish raises no event on the active side");

            client.sendText("ping");
            assertEquals(5, client.await(2), "our send and the server's pong");
            byte[] pong = client.mr.segment().asSlice(0, 5).toArray(JAVA_BYTE);
            CmEvent disconnected = id.disconnect(T);
            assertEquals(CmEventType.DISCONNECTED, disconnected.type());
            return new String(pong, java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
