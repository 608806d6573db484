package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.nio.ByteOrder.LITTLE_ENDIAN;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The two programs of docs/rdma-cm-walkthrough.md, verbatim between the markers (DocsCodeTest checks that the
 * document holds them): a server and a client that connect through rdma_cm, the client RDMA WRITEs into the buffer
 * the server advertised in its private data and SENDs a message, then both disconnect. Run here on two threads.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CmWalkthroughRdmaTest {

    static void server(InetSocketAddress address, PrintStream out) {
        // --- server start ---
        Duration t = Duration.ofSeconds(30);
        try (EventChannel events = EventChannel.create();
             CmId listener = events.createId(PortSpace.TCP)) {
            listener.bindAddress(address);            // rdma_bind_addr: the device that has this IP
            listener.listen(1);
            try (CmId id = listener.awaitConnectRequest(t).id()) { // the connection's own id: ours to close
                Context ctx = id.context();           // librdmacm's context of the device: do not close it
                try (ProtectionDomain pd = ctx.allocateProtectionDomain();
                     CompletionQueue cq = ctx.createCompletionQueue(16);
                     QueuePair qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq));
                     MemoryRegion buf = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
                     RecvWorkRequests recv = new RecvWorkRequests(1, 1);
                     Completions wc = new Completions(1)) {
                    recv.set(0, 1, buf, 0, 64);
                    qp.postRecv(recv, 1);             // before accepting: the client may send at once
                    byte[] where = ByteBuffer.allocate(12).order(LITTLE_ENDIAN)
                            .putLong(buf.addressOf(1024, 64)).putInt(buf.rkey()).array();
                    id.accept(new ConnectionParameters().privateData(where), t); // waits for ESTABLISHED
                    if (cq.await(wc, t) == 0 || !wc.isSuccess(0)) {
                        throw new IllegalStateException("no message from the client");
                    }
                    out.println("server received: " + buf.segment().getString(0));
                    out.println("server's buffer: " + buf.segment().getString(1024));
                    id.awaitEvent(CmEventType.DISCONNECTED, t); // the client hangs up ...
                    id.disconnect();                  // ... and our rdma_disconnect answers it
                }
            }
        }
        // --- server end ---
    }

    static void client(InetSocketAddress server, PrintStream out) {
        // --- client start ---
        Duration t = Duration.ofSeconds(30);
        try (EventChannel events = EventChannel.create();
             CmId id = events.createId(PortSpace.TCP)) {
            id.resolveAddress(null, server, t);       // rdma_resolve_addr: which device and port reach it
            id.resolveRoute(t);
            Context ctx = id.context();
            try (ProtectionDomain pd = ctx.allocateProtectionDomain();
                 CompletionQueue cq = ctx.createCompletionQueue(16);
                 QueuePair qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq));
                 MemoryRegion buf = pd.allocateRegion(4096, Access.LOCAL_WRITE);
                 SendWorkRequests send = new SendWorkRequests(2, 1);
                 Completions wc = new Completions(1)) {
                CmEvent established = id.connect(new ConnectionParameters(), t); // librdmacm moves qp to RTS
                // Private data comes zero-padded to the protocol's size (196 bytes for an accept).
                ByteBuffer where = ByteBuffer.wrap(established.privateData()).order(LITTLE_ENDIAN);
                long address = where.getLong();
                int rkey = where.getInt();
                buf.segment().setString(0, "written by the client");
                buf.segment().setString(64, "hello over rdma_cm");
                send.get(0).reset().wrId(1).opcode(SendOpcode.RDMA_WRITE).local(buf, 0, 22).rdma(address, rkey);
                send.get(1).reset().wrId(2).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(buf, 64, 19);
                qp.postSend(send, 0, 2);              // one list: RC delivers the WRITE before the SEND
                if (cq.await(wc, t) == 0 || !wc.isSuccess(0)) {
                    throw new IllegalStateException("the SEND did not complete: " + (wc.count() > 0
                            ? wc.describe(0) : "timeout"));
                }
                out.println("client sent: " + wc.opcode(0) + " " + wc.status(0));
                id.disconnect(t);                     // rdma_disconnect, then wait for our DISCONNECTED
            }
        }
        // --- client end ---
    }

    @Test
    void serverAndClientOnTwoThreads() throws Exception {
        InetSocketAddress address;
        try (ServerSocket free = new ServerSocket(0)) {
            address = new InetSocketAddress(CmListening.ipv4(), free.getLocalPort());
        }
        ByteArrayOutputStream serverOut = new ByteArrayOutputStream();
        ByteArrayOutputStream clientOut = new ByteArrayOutputStream();
        InetSocketAddress at = address;
        CompletableFuture<Void> s = CompletableFuture.runAsync(
                () -> server(at, new PrintStream(serverOut, true, StandardCharsets.UTF_8)));
        for (int attempt = 0; ; attempt++) { // until the server listens
            try {
                client(address, new PrintStream(clientOut, true, StandardCharsets.UTF_8));
                break;
            } catch (CmException e) {
                if (attempt == 50 || e.event() == null || e.event().type() != CmEventType.REJECTED) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
        s.get(60, TimeUnit.SECONDS);
        assertEquals("client sent: SEND SUCCESS\n", clientOut.toString(StandardCharsets.UTF_8));
        assertEquals("server received: hello over rdma_cm\nserver's buffer: written by the client\n",
                serverOut.toString(StandardCharsets.UTF_8));
    }
}
