package io.rdmaffm.examples.bench;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;
import org.HdrHistogram.Histogram;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The workload as an application writes it on the raw API: rdma_cm ids, its own PD, CQ, QP and regions, the
 * server's address and rkey in the accept's private data, the send queue and signaling counted by hand.
 */
final class RawVerbsWorkload implements Workload {
    private static final Duration T = Duration.ofSeconds(60);

    /** One end: an id with its QP (rdma_create_qp), CQ, PD and region. */
    private static final class End implements AutoCloseable {
        final CmId id;
        final ProtectionDomain pd;
        final CompletionQueue cq;
        final QueuePair qp;
        final MemoryRegion mr;

        End(CmId id, long bytes, int access) {
            this.id = id;
            Context ctx = id.context();
            pd = ctx.allocateProtectionDomain();
            cq = ctx.createCompletionQueue(2 * IN_FLIGHT);
            qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(IN_FLIGHT).maxRecvWr(1));
            mr = pd.allocateRegion(bytes, access);
        }

        @Override
        public void close() {
            id.close();
            mr.close();
            cq.close();
            pd.close();
        }
    }

    private final EventChannel channel;
    private final CmId listener;
    private final End client;
    private final End server;
    private final long remoteAddress;
    private final int remoteKey;
    private final MemoryRegion readInto;
    private final SendWorkRequests writes = new SendWorkRequests(IN_FLIGHT, 1);
    private final SendWorkRequests read = new SendWorkRequests(1, 1);
    private final Completions wc = new Completions(IN_FLIGHT);

    RawVerbsWorkload(InetAddress ip, long bytes) throws Exception {
        channel = EventChannel.create();
        listener = channel.createId(PortSpace.TCP);
        listener.bindAddress(new InetSocketAddress(ip, 0));
        listener.listen(4);
        CompletableFuture<End> accepted = CompletableFuture.supplyAsync(() -> {
            CmEvent request = listener.awaitConnectRequest(T);
            End end = new End(request.id(), bytes, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            byte[] where = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).putLong(end.mr.address())
                    .putInt(end.mr.rkey()).array();
            end.id.accept(new ConnectionParameters().privateData(where), T);
            return end;
        });
        CmId id = channel.createId(PortSpace.TCP);
        id.resolveAddress(null, listener.localAddress(), T);
        id.resolveRoute(T);
        client = new End(id, bytes, Access.LOCAL_WRITE);
        CmEvent established = id.connect(new ConnectionParameters(), T);
        ByteBuffer where = ByteBuffer.wrap(established.privateData()).order(ByteOrder.LITTLE_ENDIAN);
        remoteAddress = where.getLong();
        remoteKey = where.getInt();
        server = accepted.get(60, TimeUnit.SECONDS);
        fill(client.mr.segment());
        readInto = client.pd.allocateRegion(64, Access.LOCAL_WRITE);
        read.get(0).wrId(-1).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED);
    }

    /** A pattern in every 8 bytes. */
    static void fill(MemorySegment s) {
        for (long i = 0; i + 8 <= s.byteSize(); i += 8) {
            s.set(JAVA_LONG, i, i * 0x9E3779B97F4A7C15L);
        }
    }

    @Override
    public String name() {
        return "raw verbs";
    }

    @Override
    public long transfer() {
        server.mr.segment().fill((byte) 0);
        MemoryRegion src = client.mr;
        long writesTotal = (src.length() + WRITE_SIZE - 1) / WRITE_SIZE;
        long posted = 0;
        long completed = 0;
        long start = System.nanoTime();
        while (completed < writesTotal) {
            while (posted < writesTotal && posted - completed < IN_FLIGHT) {
                long off = posted * WRITE_SIZE;
                int len = (int) Math.min(WRITE_SIZE, src.length() - off);
                boolean signal = posted % SIGNAL_EVERY == SIGNAL_EVERY - 1 || posted == writesTotal - 1;
                int slot = (int) (posted % IN_FLIGHT);
                writes.get(slot).wrId(posted).opcode(SendOpcode.RDMA_WRITE)
                        .flags(signal ? SendFlags.SIGNALED : 0).local(src, off, len).rdma(remoteAddress + off, remoteKey);
                client.qp.postSend(writes, slot, 1);
                posted++;
            }
            int n = client.cq.poll(wc);
            for (int i = 0; i < n; i++) {
                if (!wc.isSuccess(i)) {
                    throw new IllegalStateException("RDMA WRITE failed: " + wc.describe(i));
                }
                completed = wc.wrId(i) + 1;
            }
        }
        return System.nanoTime() - start;
    }

    @Override
    public boolean verify() {
        return server.mr.segment().mismatch(client.mr.segment()) == -1;
    }

    @Override
    public void reads(int n, Histogram into) {
        SendWorkRequests.Request r = read.get(0);
        for (int i = 0; i < n; i++) {
            long t0 = System.nanoTime();
            r.local(readInto, 0, 8).rdma(remoteAddress + 8L * (i & 1023), remoteKey);
            client.qp.postSend(read, 1);
            int got;
            do {
                got = client.cq.poll(wc);
            } while (got == 0);
            if (got != 1 || !wc.isSuccess(0)) {
                throw new IllegalStateException("RDMA READ failed: " + wc.describe(0));
            }
            if (into != null) {
                into.recordValue(System.nanoTime() - t0);
            }
        }
    }

    @Override
    public void close() {
        readInto.close();
        client.close();
        server.close();
        listener.close();
        writes.close();
        read.close();
        wc.close();
        channel.close();
    }
}
