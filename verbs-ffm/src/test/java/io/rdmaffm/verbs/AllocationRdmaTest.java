package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The data path allocates nothing: signaled 8-byte RDMA WRITEs on an RC queue pair connected to itself, each
 * posted ({@code ibv_post_send}) and polled to completion ({@code ibv_poll_cq}), counted with the thread's
 * allocated-bytes counter after a warm-up. rdma.allocation.ops sets the measured count (default 1,000,000).
 */
@Tag("rdma")
class AllocationRdmaTest {
    private static final long OPS = Long.getLong("rdma.allocation.ops", 1_000_000L);
    private static final long WARMUP = Long.getLong("rdma.allocation.warmup", 100_000L);
    private static final long BOUND_BYTES = 4096;

    @Test
    @Timeout(value = 900, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void postAndPollAllocateNothingInSteadyState() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        try (RcLoopback lo = new RcLoopback(64, 64);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(16)) {
            send.get(0).wrId(42).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .local(mr, 0, 8).rdma(mr.addressOf(2048, 8), mr.rkey());

            long[] result = new long[3];
            run(lo.qp, lo.cq, send, wc, WARMUP, result);
            assertEquals(WARMUP, result[0], "warm-up: completions before a failure or stall; last status "
                    + WorkCompletionStatus.of((int) result[1]));

            long before = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            run(lo.qp, lo.cq, send, wc, OPS, result);
            long nanos = System.nanoTime() - start;
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            double rate = result[0] / (nanos / 1e9);
            System.out.printf("allocation test: %,d post+poll operations (8-byte signaled RDMA WRITE, RC loopback), "
                    + "%,d bytes allocated, %.0f ops/s, %.2f us/op%n", result[0], allocated, rate, nanos / 1e3 / result[0]);
            assertEquals(OPS, result[0], "completions before a failure or stall; last status "
                    + WorkCompletionStatus.of((int) result[1]));
            assertTrue(allocated <= BOUND_BYTES, allocated + " bytes allocated over " + OPS + " operations");
        }
    }

    /**
     * The measured loop: post one WRITE, spin on the CQ until it completes. Stops at the first failed completion
     * or a 10 s stall. result[0] = successful completions, result[1] = last status. No allocation in here.
     */
    private static void run(QueuePair qp, CompletionQueue cq, SendWorkRequests send, Completions wc, long ops,
                            long[] result) {
        long done = 0;
        int status = 0;
        outer:
        for (long i = 0; i < ops; i++) {
            qp.postSend(send, 1);
            long stallDeadline = System.nanoTime() + 10_000_000_000L;
            int n;
            while ((n = cq.poll(wc)) == 0) {
                if (System.nanoTime() > stallDeadline) {
                    break outer;
                }
            }
            status = wc.statusCode(0);
            if (n != 1 || status != 0) {
                break;
            }
            done++;
        }
        result[0] = done;
        result[1] = status;
    }
}
