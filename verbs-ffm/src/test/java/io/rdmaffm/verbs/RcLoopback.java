package io.rdmaffm.verbs;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/** Test support: one RC queue pair on the test device, connected to itself, and bounded completion waits. */
final class RcLoopback implements AutoCloseable {
    static final int ALL_REMOTE = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;

    final Context ctx;
    final ProtectionDomain pd;
    final CompletionQueue cq;
    final QueuePair qp;

    RcLoopback(int cqEntries, int maxWr) {
        ctx = Context.open(RdmaTestDevice.name());
        pd = ctx.allocateProtectionDomain();
        cq = ctx.createCompletionQueue(cqEntries);
        qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(maxWr).maxRecvWr(maxWr));
        connectToSelf(qp, ctx);
    }

    /** RESET→INIT→RTR→RTS with the QP as its own peer, over the test GID (RoCE v2). */
    static void connectToSelf(QueuePair qp, Context ctx) {
        int gidIndex = RdmaTestDevice.gidIndex();
        byte[] gid = ctx.queryGid(1, gidIndex).gid();
        qp.modify(QueuePairAttributes.init(1, ALL_REMOTE & ~Access.LOCAL_WRITE));
        qp.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, qp.qpNumber(), 0,
                new AddressVector().port(1).global(gid, gidIndex), 1));
        qp.modify(QueuePairAttributes.rtsRc(0, 14, 7, 7, 1));
    }

    /** Polls until {@code n} completions arrived, all successful; fails after {@code timeout}. */
    static void awaitSuccess(CompletionQueue cq, Completions wc, int n, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        while (seen < n) {
            int got = cq.poll(wc);
            for (int i = 0; i < got; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, wc.status(i), wc.describe(i));
            }
            seen += got;
            if (got == 0 && System.nanoTime() > deadline) {
                fail("only " + seen + " of " + n + " completions within " + timeout);
            }
        }
    }

    /** Polls one completion of any status; fails after {@code timeout}. Leaves it in wc entry 0. */
    static void awaitOne(CompletionQueue cq, Completions wc, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() > deadline) {
                fail("no completion within " + timeout);
            }
        }
    }

    @Override
    public void close() {
        qp.close();
        cq.close();
        pd.close();
        ctx.close();
    }
}
