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
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the rdma_cm documentation promises about contexts: two ids on one device share librdmacm's one Context,
 * whose close does nothing; and the attributes of {@code rdma_init_qp_attr} move a queue pair created on a Context
 * the application opened itself ({@code Context.open}, not the id's), which then carries traffic.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CmSeparateContextRdmaTest {
    private static final Duration T = Duration.ofSeconds(20);

    @Test
    void attributesFromRdmaCmMoveAQueuePairOnASeparatelyOpenedContext() throws Exception {
        InetSocketAddress bound;
        try (EventChannel events = EventChannel.create();
             CmId listener = events.createId(PortSpace.TCP);
             CmId client = events.createId(PortSpace.TCP);
             Context own = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = own.allocateProtectionDomain();
             CompletionQueue cq = own.createCompletionQueue(8);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(2)) {
            listener.bindAddress(new InetSocketAddress(CmListening.ipv4(), 0));
            listener.listen(1);
            bound = listener.localAddress();
            client.resolveAddress(null, bound, T);
            client.resolveRoute(T);
            assertSame(listener.context(), client.context(), "one Context per librdmacm device");
            assertNotSame(own, client.context());
            client.context().close();
            assertFalse(client.context().isClosed(), "closing librdmacm's context does nothing");

            CompletableFuture<String> server = CompletableFuture.supplyAsync(() -> serve(listener));
            assertEquals(CmEventType.CONNECT_RESPONSE, client.connect(new ConnectionParameters()
                    .qpNumber(qp.qpNumber()), T).type());
            qp.modify(client.queuePairAttributes(QueuePairState.INIT));
            qp.modify(client.queuePairAttributes(QueuePairState.RTR));
            qp.modify(client.queuePairAttributes(QueuePairState.RTS));
            client.establish();
            mr.segment().setString(0, "from my own context");
            send.get(0).reset().wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, 0, 20);
            qp.postSend(send, 1);
            assertEquals(1, cq.await(wc, T));
            assertTrue(wc.isSuccess(0), wc.describe(0));
            client.disconnect();
            assertEquals("from my own context", server.get(60, TimeUnit.SECONDS));
        }
    }

    /** Accepts one connection with a QP of the id's (librdmacm's) context and returns the first message. */
    private static String serve(CmId listener) {
        try (CmId id = listener.awaitConnectRequest(T).id()) {
            Context ctx = id.context();
            try (ProtectionDomain pd = ctx.allocateProtectionDomain();
                 CompletionQueue cq = ctx.createCompletionQueue(8);
                 QueuePair qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq));
                 MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
                 RecvWorkRequests recv = new RecvWorkRequests(1, 1);
                 Completions wc = new Completions(1)) {
                recv.set(0, 1, mr, 0, 64);
                qp.postRecv(recv, 1);
                id.accept(new ConnectionParameters(), T);
                assertEquals(1, cq.await(wc, T));
                assertTrue(wc.isSuccess(0), wc.describe(0));
                String text = mr.segment().getString(0);
                id.awaitEvent(CmEventType.DISCONNECTED, T);
                id.disconnect();
                return text;
            }
        }
    }
}
