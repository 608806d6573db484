import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.Mtu;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;

/**
 * Post+poll operations per second through the public API, as AllocationRdmaTest's loop: one signaled 8-byte
 * RDMA WRITE on an RC queue pair connected to itself, posted, then polled to completion, N times after a
 * warm-up. Runs on the class path against either jar (see compare.sh), so the same source measures the binding
 * before and after a change.
 *   usage: PostPollProbe DEVICE GID_INDEX OPS
 */
public final class PostPollProbe {
    public static void main(String[] args) {
        String device = args[0];
        int gidIndex = Integer.parseInt(args[1]);
        long ops = Long.parseLong(args[2]);
        try (Context ctx = Context.open(device);
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(64);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(64).maxRecvWr(64));
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(16)) {
            byte[] gid = ctx.queryGid(1, gidIndex).gid();
            qp.modify(QueuePairAttributes.init(1, Access.mask(Access.REMOTE_WRITE)));
            qp.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, qp.qpNumber(), 0,
                    new AddressVector().port(1).global(gid, gidIndex), 1));
            qp.modify(QueuePairAttributes.rtsRc(0, 14, 7, 7, 1));
            send.get(0).wrId(42).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .local(mr, 0, 8).rdma(mr.addressOf(2048, 8), mr.rkey());
            run(qp, cq, send, wc, Math.max(100_000, ops / 10));
            long start = System.nanoTime();
            run(qp, cq, send, wc, ops);
            long nanos = System.nanoTime() - start;
            System.out.printf("post+poll ops/s %.0f (%,d operations, %.3f us/op)%n", ops / (nanos / 1e9), ops,
                    nanos / 1e3 / ops);
        }
    }

    private static void run(QueuePair qp, CompletionQueue cq, SendWorkRequests send, Completions wc, long ops) {
        for (long i = 0; i < ops; i++) {
            qp.postSend(send, 1);
            int n;
            while ((n = cq.poll(wc)) == 0) {
                Thread.onSpinWait();
            }
            if (n != 1 || wc.statusCode(0) != 0) {
                throw new IllegalStateException("completion " + i + ": status " + wc.statusCode(0));
            }
        }
    }
}
