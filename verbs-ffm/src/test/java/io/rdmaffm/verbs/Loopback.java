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

    final Context ctx;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair a;
    final QueuePair b;
    final MemoryRegion bufA;
    final MemoryRegion bufB;
    final GidEntry gid;
    final Completions wc = new Completions(16);
    private final List<AutoCloseable> extra = new ArrayList<>();

    Loopback(QueuePairType type, long bufferBytes, long extendedSendOps) {
        ctx = Context.open(RdmaTestDevice.name());
        gid = ctx.queryGid(PORT, RdmaTestDevice.gidIndex());
        pd = ctx.allocateProtectionDomain();
        cq = ctx.createCompletionQueue(256);
        a = pd.createQueuePair(init(type, extendedSendOps));
        b = pd.createQueuePair(init(type, extendedSendOps));
        int access = Access.mask(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC,
                Access.MW_BIND);
        bufA = pd.allocateRegion(bufferBytes, access);
        bufB = pd.allocateRegion(bufferBytes, access);
        if (type == QueuePairType.UD) {
            for (QueuePair q : List.of(a, b)) {
                q.modify(QueuePairAttributes.initUd(PORT, QKEY));
                q.modify(new QueuePairAttributes().state(QueuePairState.RTR));
                q.modify(QueuePairAttributes.rts(0));
            }
        } else {
            connect(a, b, type);
            connect(b, a, type);
        }
    }

    private QueuePairInit init(QueuePairType type, long extendedSendOps) {
        return new QueuePairInit(type, cq, cq).maxSendWr(64).maxRecvWr(64).maxSendSge(4).maxRecvSge(4)
                .maxInlineData(64).extendedSendOps(extendedSendOps);
    }

    AddressVector addressVector() {
        return new AddressVector().port(PORT).global(gid.gid(), gid.index());
    }

    private void connect(QueuePair self, QueuePair peer, QueuePairType type) {
        int remoteAccess = Access.mask(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
        self.modify(QueuePairAttributes.init(PORT, type == QueuePairType.UC ? Access.mask(Access.REMOTE_WRITE) : remoteAccess));
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
        Polled p = new Polled(n);
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (p.count < n) {
            int got = cq.poll(wc);
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
        assertEquals(0, cq.poll(wc), "unexpected extra completion");
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
