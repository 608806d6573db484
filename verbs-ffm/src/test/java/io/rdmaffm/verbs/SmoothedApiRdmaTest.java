package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The smoothed low-level API on the test device: posting sends from a start index, resetting a reused request,
 * defaults and granted capabilities, a refused close naming the open children, and CQ waits with a deadline.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SmoothedApiRdmaTest {
    private static final Duration T = Duration.ofSeconds(10);

    @Test
    void postSendFromAStartIndexAndResetRequests() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(16);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendSge(2));
             MemoryRegion mr = pd.allocateRegion(4096, RcLoopback.ALL_REMOTE);
             SendWorkRequests wrs = new SendWorkRequests(4, 2);
             Completions wc = new Completions(4)) {
            RcLoopback.connectToSelf(qp, ctx);
            mr.segment().set(JAVA_LONG, 0, 0xAAAAL);
            mr.segment().set(JAVA_LONG, 8, 0xBBBBL);
            mr.segment().set(JAVA_LONG, 16, 0xCCCCL);
            wrs.get(0).opcode(SendOpcode.SEND).numSge(0); // would fail on the peer (no receive posted): never posted
            for (int i = 2; i < 4; i++) {
                wrs.get(i).wrId(i).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                        .rdma(mr.addressOf(1024 + 64L * i, 8), mr.rkey());
            }
            qp.postSend(wrs, 2, 2);
            RcLoopback.awaitSuccess(cq, wc, 2, T);
            assertEquals(0xAAAAL, mr.segment().get(JAVA_LONG, 1024 + 128));
            assertEquals(0xAAAAL, mr.segment().get(JAVA_LONG, 1024 + 192));
            assertThrows(IllegalArgumentException.class, () -> qp.postSend(wrs, 3, 2));

            // Two SGEs (16 bytes), then reset and one SGE: without the reset the stale second SGE would go too.
            SendWorkRequests.Request r = wrs.get(1).wrId(11).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .sge(0, mr.address(), 8, mr.lkey()).sge(1, mr.address() + 8, 8, mr.lkey())
                    .rdma(mr.addressOf(2048, 16), mr.rkey());
            qp.postSend(wrs, 1, 1);
            RcLoopback.awaitSuccess(cq, wc, 1, T);
            assertEquals(0xBBBBL, mr.segment().get(JAVA_LONG, 2056));
            r.reset();
            assertEquals(0, r.flags());
            r.wrId(12).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).sge(0, mr.address() + 16, 8, mr.lkey())
                    .rdma(mr.addressOf(3072, 16), mr.rkey());
            qp.postSend(wrs, 1, 1);
            RcLoopback.awaitSuccess(cq, wc, 1, T);
            assertEquals(12, wc.wrId(0));
            assertEquals(0xCCCCL, mr.segment().get(JAVA_LONG, 3072));
            assertEquals(0L, mr.segment().get(JAVA_LONG, 3080), "reset cleared the second SGE");
        }
    }

    @Test
    void defaultsAndGrantedCapabilitiesAreVisible() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(8)) {
            QueuePairInit init = new QueuePairInit(QueuePairType.RC, cq, cq);
            assertEquals(QueuePairInit.DEFAULT_MAX_SEND_WR, init.maxSendWr());
            assertEquals(16, init.maxRecvWr());
            assertEquals(1, init.maxSendSge());
            assertEquals(0, init.maxInlineData());
            init.maxSendWr(10).maxInlineData(60);
            try (QueuePair qp = pd.createQueuePair(init)) {
                QueuePairCapabilities granted = qp.capabilities();
                assertTrue(granted.maxSendWr() >= 10 && granted.maxRecvWr() >= 16 && granted.maxSendSge() >= 1
                        && granted.maxInlineData() >= 60, granted.toString());
                assertEquals(granted.maxInlineData(), qp.maxInlineData());
                // ibv_query_qp may say more: Soft-RoCE reports its queue's power-of-two size less one.
                assertTrue(qp.query().maxSendWr() >= granted.maxSendWr(), qp.query() + " vs " + granted);
            }
        }
    }

    @Test
    void aRefusedCloseNamesWhatIsStillOpen() {
        try (RcLoopback lo = new RcLoopback(8, 4);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE)) {
            String qpName = "queue pair (QP 0x" + Integer.toHexString(lo.qp.qpNumber()) + ")";
            String pd = assertThrows(IllegalStateException.class, lo.pd::close).getMessage();
            assertTrue(pd.contains(qpName) && pd.contains("memory region (lkey 0x" + Integer.toHexString(mr.lkey())),
                    pd);
            String cq = assertThrows(IllegalStateException.class, lo.cq::close).getMessage();
            assertTrue(cq.contains(qpName), cq);
        }
    }

    @Test
    void awaitWithADeadline() throws Exception {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionChannel channel = ctx.createCompletionChannel();
             CompletionQueue cq = ctx.createCompletionQueue(16, channel, 0);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
             MemoryRegion mr = pd.allocateRegion(4096, RcLoopback.ALL_REMOTE);
             SendWorkRequests wrs = new SendWorkRequests(1, 1);
             Completions wc = new Completions(4)) {
            RcLoopback.connectToSelf(qp, ctx);
            wrs.get(0).wrId(5).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                    .rdma(mr.addressOf(64, 8), mr.rkey());

            long start = System.nanoTime();
            assertEquals(0, cq.await(wc, Duration.ofMillis(300)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 290 && ms < 1_000, "an empty CQ waits out the deadline, no longer: " + ms + " ms");

            CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> cq.await(wc, T));
            Thread.sleep(200);
            long posted = System.nanoTime();
            qp.postSend(wrs, 1);
            assertEquals(1, waiting.get(10, TimeUnit.SECONDS), "the completion event wakes the wait");
            assertTrue(System.nanoTime() - posted < 2_000_000_000L);
            assertEquals(5, wc.wrId(0));

            qp.postSend(wrs, 1);
            Thread.sleep(50);
            start = System.nanoTime();
            assertEquals(1, cq.await(wc, T), "a completion already there is returned at once");
            assertTrue(System.nanoTime() - start < 100_000_000L);
            assertEquals(0, cq.await(wc, Duration.ZERO), "zero: one poll");
            assertAwaitAllocatesNothing(qp, cq, wrs, wc);
        }
    }

    private static void assertAwaitAllocatesNothing(QueuePair qp, CompletionQueue cq, SendWorkRequests wrs,
                                                    Completions wc) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20_000; i++) {
            qp.postSend(wrs, 1);
            assertEquals(1, cq.await(wc, T));
        }
        long before = threads.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 20_000; i++) {
            qp.postSend(wrs, 1);
            if (cq.await(wc, T) != 1) {
                throw new AssertionError("no completion");
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated <= 4096, allocated + " bytes allocated over 20,000 post+await");
    }

    @Test
    void closingACqWakesItsWaiterWithAnException() throws Exception {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             CompletionChannel channel = ctx.createCompletionChannel();
             Completions wc = new Completions(1)) {
            CompletionQueue cq = ctx.createCompletionQueue(4, channel, 0);
            CompletableFuture<Integer> waiting = CompletableFuture.supplyAsync(() -> cq.await(wc, Duration.ofSeconds(30)));
            Thread.sleep(300);
            long start = System.nanoTime();
            cq.close();
            ExecutionException e = assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
            assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("closed"), e.getCause().getMessage());
            assertTrue(System.nanoTime() - start < 2_000_000_000L, "woken by the close, not the deadline");
        }
    }

    @Test
    void awaitWithoutAChannelSleepsBetweenPolls() {
        try (RcLoopback lo = new RcLoopback(8, 4);
             MemoryRegion mr = lo.pd.allocateRegion(4096, RcLoopback.ALL_REMOTE);
             SendWorkRequests wrs = new SendWorkRequests(1, 1);
             Completions wc = new Completions(2)) {
            long start = System.nanoTime();
            assertEquals(0, lo.cq.await(wc, Duration.ofMillis(200)));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 190 && ms < 1_000, ms + " ms");
            wrs.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                    .rdma(mr.addressOf(64, 8), mr.rkey());
            lo.qp.postSend(wrs, 1);
            assertEquals(1, lo.cq.await(wc, T));
            assertThrows(IllegalArgumentException.class, () -> lo.cq.await(wc, null));
        }
    }
}
