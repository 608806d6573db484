package io.rdmaffm.verbs;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Two queue pairs on one real device connected to each other (Soft-RoCE passes traffic in loopback), with
 * a buffer each. Everything is closed in reverse order of creation.
 */
final class Loopback implements AutoCloseable {
    static final int PORT = 1;
    static final int QKEY = 0x11111111;

    /** What kind of completion queue both QPs share. */
    enum CqKind {
        /** ibv_create_cq, busy-polled. */
        PLAIN,
        /** ibv_create_cq on a completion channel ({@link #channel}). */
        CHANNEL,
        /** ibv_create_cq_ex, polled through start/next/end_poll. */
        EXTENDED
    }

    final Context ctx;
    final ProtectionDomain pd;
    final CompletionChannel channel;
    final CompletionQueue cq;
    final QueuePair a;
    final QueuePair b;
    final MemoryRegion bufA;
    final MemoryRegion bufB;
    final GidEntry gid;
    final Completions wc = new Completions(16);
    private final List<AutoCloseable> extra = new ArrayList<>();

    Loopback(QueuePairType type, long bufferBytes, long extendedSendOps) {
        this(type, bufferBytes, extendedSendOps, CqKind.PLAIN, true);
    }

    /** With {@code connect} false both QPs stay in RESET, for tests that walk the state machine themselves. */
    Loopback(QueuePairType type, long bufferBytes, long extendedSendOps, CqKind cqKind, boolean connect) {
        ctx = Context.open(RdmaTestDevice.name());
        gid = ctx.queryGid(PORT, RdmaTestDevice.gidIndex());
        pd = ctx.allocateProtectionDomain();
        channel = cqKind == CqKind.CHANNEL ? ctx.createCompletionChannel() : null;
        cq = cqKind == CqKind.EXTENDED ? ctx.createExtendedCompletionQueue(256, null, 0)
                : ctx.createCompletionQueue(256, channel, 0);
        a = pd.createQueuePair(init(type, extendedSendOps));
        b = pd.createQueuePair(init(type, extendedSendOps));
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC | Access.MW_BIND;
        bufA = pd.allocateRegion(bufferBytes, access);
        bufB = pd.allocateRegion(bufferBytes, access);
        if (connect) {
            connectBoth();
        }
    }

    /** Brings both QPs from RESET to RTS, connected to each other (RC/UC) or ready for UD sends. */
    void connectBoth() {
        if (a.type() == QueuePairType.UD) {
            for (QueuePair q : List.of(a, b)) {
                q.modify(QueuePairAttributes.initUd(PORT, QKEY));
                q.modify(new QueuePairAttributes().state(QueuePairState.RTR));
                q.modify(QueuePairAttributes.rts(0));
            }
        } else {
            connect(a, b, a.type());
            connect(b, a, b.type());
        }
    }

    /** Recovery after an error: both QPs back to RESET, then connected again. */
    void reconnect() {
        a.reset();
        b.reset();
        connectBoth();
    }

    /** A QP of this loopback's kind on the shared CQ, kept (closed with the loopback). */
    QueuePair extraQueuePair(QueuePairType type, SharedReceiveQueue srq) {
        QueuePairInit init = new QueuePairInit(type, cq, cq).maxSendWr(64).maxRecvWr(64).maxSendSge(4).maxRecvSge(4)
                .maxInlineData(64);
        if (srq != null) {
            init.sharedReceiveQueue(srq);
        }
        return keep(pd.createQueuePair(init));
    }

    private QueuePairInit init(QueuePairType type, long extendedSendOps) {
        return new QueuePairInit(type, cq, cq).maxSendWr(64).maxRecvWr(64).maxSendSge(4).maxRecvSge(4)
                .maxInlineData(64).extendedSendOps(extendedSendOps);
    }

    AddressVector addressVector() {
        return new AddressVector().port(PORT).global(gid.gid(), gid.index());
    }

    /** RESET→INIT→RTR→RTS for one side of an RC/UC connection (PSNs 0x1000, ACK timeout 14, 7 retries). */
    void connect(QueuePair self, QueuePair peer, QueuePairType type) {
        int remoteAccess = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
        self.modify(QueuePairAttributes.init(PORT, type == QueuePairType.UC ? Access.REMOTE_WRITE : remoteAccess));
        if (type == QueuePairType.RC) {
            self.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, peer.qpNumber(), 0x1000, addressVector(), 16));
            self.modify(QueuePairAttributes.rtsRc(0x1000, 14, 7, 7, 16));
        } else {
            self.modify(QueuePairAttributes.rtr(Mtu.MTU_1024, peer.qpNumber(), 0x1000, addressVector()));
            self.modify(QueuePairAttributes.rts(0x1000));
        }
    }

    <T extends AutoCloseable> T keep(T resource) {
        extra.add(resource);
        return resource;
    }

    /** Busy-polls until {@code n} completions arrived (returned in order in wrIds/statuses) or 10 s passed. */
    Polled await(int n) {
        return await(cq, n);
    }

    /** Like {@link #await(int)} on another CQ. */
    Polled await(CompletionQueue queue, int n) {
        Polled p = new Polled(n);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (p.count < n) {
            int got = queue.poll(wc);
            for (int i = 0; i < got; i++) {
                p.add(wc, i);
            }
            if (got == 0 && System.nanoTime() > deadline) {
                fail("only " + p.count + " of " + n + " completions within 10 s: " + p);
            }
        }
        return p;
    }

    void expectNothingMore() {
        int n = cq.poll(wc);
        assertEquals(0, n, n == 0 ? "" : "unexpected extra completion: " + wc.describe(0));
    }

    /** Polls whatever arrives within {@code millis} (for checking that nothing, or something extra, came). */
    Polled collect(long millis) {
        Polled p = new Polled(64);
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (System.nanoTime() < deadline) {
            int got = cq.poll(wc);
            for (int i = 0; i < got; i++) {
                p.add(wc, i);
            }
        }
        return p;
    }

    @Override
    public void close() throws Exception {
        for (int i = extra.size() - 1; i >= 0; i--) {
            extra.get(i).close();
        }
        a.close();
        b.close();
        bufA.close();
        bufB.close();
        cq.close();
        if (channel != null) {
            channel.close();
        }
        pd.close();
        ctx.close();
        wc.close();
    }

    /** Completions copied out of the reusable array, for assertions. */
    static final class Polled {
        final long[] wrId;
        final WorkCompletionStatus[] status;
        final WorkCompletionOpcode[] opcode;
        final int[] byteLen;
        final int[] flags;
        final int[] imm;
        final int[] qpn;
        final int[] srcQp;
        int count;

        Polled(int n) {
            wrId = new long[n];
            status = new WorkCompletionStatus[n];
            opcode = new WorkCompletionOpcode[n];
            byteLen = new int[n];
            flags = new int[n];
            imm = new int[n];
            qpn = new int[n];
            srcQp = new int[n];
        }

        void add(Completions wc, int i) {
            if (count == wrId.length) {
                fail("more completions than expected: " + wc.describe(i));
            }
            wrId[count] = wc.wrId(i);
            status[count] = wc.status(i);
            opcode[count] = wc.opcode(i);
            byteLen[count] = wc.byteLength(i);
            flags[count] = wc.flags(i);
            imm[count] = (wc.flags(i) & Completions.WITH_IMM) != 0 ? wc.immData(i) : 0;
            qpn[count] = wc.qpNumber(i);
            srcQp[count] = wc.sourceQp(i);
            count++;
        }

        boolean has(long id) {
            for (int i = 0; i < count; i++) {
                if (wrId[i] == id) {
                    return true;
                }
            }
            return false;
        }

        /** Index of the completion with this wr_id. */
        int of(long id) {
            for (int i = 0; i < count; i++) {
                if (wrId[i] == id) {
                    return i;
                }
            }
            fail("no completion with wr_id " + id + " in " + this);
            return -1;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < count; i++) {
                sb.append("[").append(wrId[i]).append(' ').append(opcode[i]).append(' ').append(status[i]).append("] ");
            }
            return sb.toString();
        }
    }
}
