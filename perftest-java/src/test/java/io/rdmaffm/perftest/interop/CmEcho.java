package io.rdmaffm.perftest.interop;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.WorkCompletionOpcode;
import io.rdmaffm.verbs.WorkCompletionStatus;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmEventType;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * An rdma_cm echo over verbs-ffm, for the cross-host IPv6 case: perftest's {@code -R} (and so perftest-java's)
 * resolves IPv4 only, so the IPv6 path of rdma_cm between two hosts is checked with this small program instead.
 * The server accepts one RC connection on ADDRESS:PORT and sends every message back; the client sends COUNT
 * messages of SIZE bytes, each with its own pattern, and checks every echoed byte.
 *
 * <p>usage: {@code CmEcho server|client ADDRESS PORT COUNT SIZE} (exit status 0: every message came back intact)
 */
public final class CmEcho {
    private static final Duration T = Duration.ofSeconds(60);

    private CmEcho() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !(args[0].equals("server") || args[0].equals("client"))) {
            System.err.println("usage: CmEcho server|client ADDRESS PORT COUNT SIZE");
            System.exit(2);
        }
        InetSocketAddress at = new InetSocketAddress(InetAddress.getByName(args[1]), Integer.parseInt(args[2]));
        int count = Integer.parseInt(args[3]);
        int size = Integer.parseInt(args[4]);
        try {
            System.out.println(args[0].equals("server") ? serve(at, count, size, Duration.ofSeconds(120))
                    : echo(at, count, size));
        } catch (RuntimeException | AssertionError e) {
            System.out.println("cm-echo: " + e);
            System.exit(1);
        }
    }

    /**
     * Accepts one connection on {@code at} within {@code acceptWithin} and echoes {@code count} messages; returns
     * a one-line account.
     */
    static String serve(InetSocketAddress at, int count, int size, Duration acceptWithin) {
        try (EventChannel channel = EventChannel.create(); CmId listener = channel.createId(PortSpace.TCP)) {
            listener.bindAddress(at);
            listener.listen(1);
            CmEvent request = listener.awaitConnectRequest(acceptWithin);
            try (Side side = new Side(request.id(), size)) {
                side.postRecv();
                side.id.accept(new ConnectionParameters().retryCount(7).rnrRetryCount(7), T);
                for (int i = 0; i < count; i++) {
                    int got = side.awaitRecv();
                    if (got != size) {
                        throw new AssertionError("message " + i + " has " + got + " bytes, expected " + size);
                    }
                    MemorySegment.copy(side.mr.segment(), 0, side.mr.segment(), size, size);
                    side.postRecv();
                    side.send(size);
                }
                side.id.awaitEvent(CmEventType.DISCONNECTED, T);
                side.id.disconnect();
                return "cm-echo: echoed " + count + " messages of " + size + " bytes to " + side.id.peerAddress()
                        + " from " + side.id.localAddress();
            }
        }
    }

    /** Connects to {@code at}, sends {@code count} patterned messages and checks each echo. */
    static String echo(InetSocketAddress at, int count, int size) {
        try (EventChannel channel = EventChannel.create()) {
            CmId id = channel.createId(PortSpace.TCP);
            id.resolveAddress(null, at, Duration.ofSeconds(20));
            id.resolveRoute(Duration.ofSeconds(20));
            try (Side side = new Side(id, size)) {
                side.postRecv();
                CmEvent established = id.connect(new ConnectionParameters().retryCount(7).rnrRetryCount(7), T);
                if (established.type() != CmEventType.ESTABLISHED) {
                    throw new AssertionError("connect ended in " + established);
                }
                for (int i = 0; i < count; i++) {
                    for (int b = 0; b < size; b++) {
                        side.mr.segment().set(JAVA_BYTE, size + b, pattern(i, b));
                    }
                    side.send(size);
                    int got = side.awaitRecv();
                    if (got != size) {
                        throw new AssertionError("echo " + i + " has " + got + " bytes, expected " + size);
                    }
                    for (int b = 0; b < size; b++) {
                        if (side.mr.segment().get(JAVA_BYTE, b) != pattern(i, b)) {
                            throw new AssertionError("echo " + i + " differs at byte " + b);
                        }
                    }
                    side.postRecv();
                }
                String account = "cm-echo: " + count + " messages of " + size + " bytes came back intact from "
                        + id.peerAddress() + " to " + id.localAddress();
                id.disconnect(T);
                return account;
            }
        }
    }

    private static byte pattern(int message, int b) {
        return (byte) (message * 31 + b * 7 + 1);
    }

    /** One connected side: receive into [0, size), send from [size, 2 size). */
    private static final class Side implements AutoCloseable {
        final CmId id;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;
        final Completions wc = new Completions(4);
        final SendWorkRequests sends = new SendWorkRequests(1, 1);
        final RecvWorkRequests recvs = new RecvWorkRequests(1, 1);
        final int size;

        Side(CmId id, int size) {
            this.id = id;
            this.size = size;
            pd = id.context().allocateProtectionDomain();
            cq = id.context().createCompletionQueue(16);
            qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(4).maxRecvWr(4));
            mr = pd.allocateRegion(2L * size, Access.LOCAL_WRITE);
        }

        void postRecv() {
            recvs.set(0, 1, mr, 0, size);
            qp.postRecv(recvs, 1);
        }

        void send(int length) {
            sends.get(0).wrId(2).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, size, length);
            qp.postSend(sends, 1);
        }

        /** Waits for the next receive (send completions pass by); returns its length. */
        int awaitRecv() {
            long deadline = System.nanoTime() + T.toNanos();
            while (System.nanoTime() < deadline) {
                int got = cq.poll(wc);
                for (int i = 0; i < got; i++) {
                    if (wc.status(i) != WorkCompletionStatus.SUCCESS) {
                        throw new AssertionError("completion failed: " + wc.describe(i));
                    }
                    if (wc.opcode(i) == WorkCompletionOpcode.RECV) {
                        return wc.byteLength(i);
                    }
                }
            }
            throw new AssertionError("no message within " + T);
        }

        @Override
        public void close() {
            id.close();
            mr.close();
            cq.close();
            pd.close();
            wc.close();
            sends.close();
            recvs.close();
        }
    }
}
