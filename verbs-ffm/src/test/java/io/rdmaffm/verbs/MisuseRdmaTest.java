package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.OtherThread;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Misuse on a real device: each case must end in a Java exception or a failed completion, never in a JVM
 * crash. Where the device decides (unsupported operations, wrong QP state), the test pins what Soft-RoCE
 * really reports, so a change in the binding's mapping shows up here.
 */
@Tag("rdma")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisuseRdmaTest {
    private static final Duration T = Duration.ofSeconds(10);

    private static void closedUse(String what, Executable call) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call, what + " after close");
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty(), what);
    }

    @Test
    void everyObjectTypeRefusesUseAfterCloseAndClosesTwiceQuietly() {
        Context ctx = Context.open(RdmaTestDevice.name());
        ProtectionDomain pd = ctx.allocateProtectionDomain();
        MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.MW_BIND);
        CompletionChannel channel = ctx.createCompletionChannel();
        CompletionQueue cq = ctx.createCompletionQueue(8, channel, 0);
        SharedReceiveQueue srq = pd.createSharedReceiveQueue(8, 1, 0);
        QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
        MemoryWindow mw = pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2);
        AddressHandle ah = pd.createAddressHandle(new AddressVector().port(1)
                .global(ctx.queryGid(1, RdmaTestDevice.gidIndex()).gid(), RdmaTestDevice.gidIndex()));
        SendWorkRequests send = new SendWorkRequests(1, 1);
        RecvWorkRequests recv = new RecvWorkRequests(1, 1);
        Completions wc = new Completions(4);

        for (AutoCloseable o : new AutoCloseable[] {ah, mw, qp, srq, cq, channel, mr, pd, ctx}) {
            try {
                o.close();
                o.close();
            } catch (Exception e) {
                throw new AssertionError("close of " + o, e);
            }
        }
        closedUse("address handle", () -> send.get(0).ud(ah, 1, 1));
        closedUse("memory window", () -> send.get(0).bindMemoryWindow(mw, 1, mr, 0, 8, 0));
        closedUse("queue pair", () -> qp.postSend(send, 1));
        closedUse("queue pair", () -> qp.postRecv(recv, 1));
        closedUse("queue pair", qp::state);
        closedUse("shared receive queue", () -> srq.postRecv(recv, 1));
        closedUse("completion queue", () -> cq.poll(wc));
        closedUse("completion queue", () -> cq.resize(16));
        closedUse("completion channel", channel::fd);
        closedUse("completion channel", () -> channel.awaitEvent(Duration.ofMillis(1)));
        closedUse("memory region", () -> mr.reregister(0));
        closedUse("protection domain", () -> pd.allocateRegion(4096, Access.LOCAL_WRITE));
        closedUse("context", ctx::queryDevice);
        closedUse("context", ctx::allocateProtectionDomain);
        assertTrue(qp.isClosed() && pd.isClosed() && ctx.isClosed());

        // The reusable native batches are arena-backed: after close FFM refuses them, before any native call.
        wc.close();
        wc.close();
        send.close();
        recv.close();
        try (RcLoopback lo = new RcLoopback(8, 8)) {
            closedUse("completions", () -> lo.cq.poll(wc));
            closedUse("send work requests", () -> lo.qp.postSend(send, 1));
            closedUse("recv work requests", () -> lo.qp.postRecv(recv, 1));
        }
    }

    @Test
    void closingAParentWithLiveChildrenIsRefused() {
        try (Context ctx = Context.open(RdmaTestDevice.name())) {
            ProtectionDomain pd = ctx.allocateProtectionDomain();
            MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
            CompletionChannel channel = ctx.createCompletionChannel();
            CompletionQueue cq = ctx.createCompletionQueue(8, channel, 0);
            SharedReceiveQueue srq = pd.createSharedReceiveQueue(8, 1, 0);
            QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).sharedReceiveQueue(srq));

            refused(ctx, "context");
            refused(pd, "protection domain");
            refused(cq, "completion queue");
            refused(channel, "completion channel");
            refused(srq, "shared receive queue");
            assertFalse(pd.isClosed() || cq.isClosed() || srq.isClosed() || ctx.isClosed());

            qp.close();
            srq.close();
            cq.close();
            channel.close();
            refused(pd, "protection domain");
            mr.close();
            pd.close();
        }
    }

    private static void refused(AutoCloseable parent, String kind) {
        IllegalStateException e = assertThrows(IllegalStateException.class, parent::close);
        assertTrue(e.getMessage().startsWith("cannot close " + kind), e.getMessage());
        assertTrue(e.getMessage().contains("still open"), e.getMessage());
    }

    @Test
    void postingToAQueuePairInResetOrInitIsAVerbsException() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
             CompletionQueue cq = ctx.createCompletionQueue(8);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1);
             Completions wc = new Completions(4)) {
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, 0, 8);
            recv.set(0, 2, mr, 64, 64);
            assertEquals(QueuePairState.RESET, qp.state());
            VerbsException sendInReset = assertThrows(VerbsException.class, () -> qp.postSend(send, 1));
            report("post_send in RESET", sendInReset);
            assertEquals("ibv_post_send", sendInReset.verb());
            assertEquals(22, sendInReset.errno(), "EINVAL from rxe");
            assertTrue(sendInReset.getMessage().contains("RESET"), sendInReset.getMessage());
            VerbsException recvInReset = assertThrows(VerbsException.class, () -> qp.postRecv(recv, 1));
            report("post_recv in RESET", recvInReset);
            assertEquals("ibv_post_recv", recvInReset.verb());
            assertEquals(22, recvInReset.errno(), "EINVAL from rxe");

            qp.modify(QueuePairAttributes.init(1, 0));
            VerbsException sendInInit = assertThrows(VerbsException.class, () -> qp.postSend(send, 1));
            report("post_send in INIT", sendInInit);
            assertEquals("ibv_post_send", sendInInit.verb());
            assertEquals(22, sendInInit.errno(), "EINVAL from rxe");
            assertTrue(sendInInit.getMessage().contains("INIT"), sendInInit.getMessage());
            assertFalse(sendInInit.getMessage().contains("work request -1"), sendInInit.getMessage());
            qp.postRecv(recv, 1); // receives may be posted from INIT on: not misuse
            assertEquals(0, cq.poll(wc), "nothing completes while the QP is not connected");
        }
    }

    private static void report(String what, VerbsException e) {
        System.out.println(what + ": " + e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    @Test
    void anSgeBeyondItsMemoryRegion() {
        try (RcLoopback lo = new RcLoopback(8, 8);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(1)) {
            // The checked builder refuses before anything reaches the device.
            assertThrows(IndexOutOfBoundsException.class, () -> send.get(0).local(mr, 4000, 200));
            assertThrows(IndexOutOfBoundsException.class, () -> send.get(0).local(mr, -1, 8));

            // The raw SGE goes to the device, which fails the work request: a completion, not a crash.
            send.get(0).wrId(5).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                    .numSge(1).sge(0, mr.address() + 4000, 200, mr.lkey()).rdma(mr.address(), mr.rkey());
            lo.qp.postSend(send, 1);
            RcLoopback.awaitOne(lo.cq, wc, T);
            System.out.println("raw SGE past the region's end: " + wc.describe(0));
            assertEquals(5, wc.wrId(0));
            assertTrue(wc.status(0) == WorkCompletionStatus.LOC_PROT_ERR
                    || wc.status(0) == WorkCompletionStatus.LOC_LEN_ERR, wc.describe(0));
            assertEquals(QueuePairState.ERR, lo.qp.state(), "a failed work request moves the QP to ERR");
        }
    }

    @Test
    void aReceiveBufferTooSmallForTheMessageFailsTheReceive() {
        try (RcLoopback lo = new RcLoopback(8, 8);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1);
             Completions wc = new Completions(1)) {
            recv.set(0, 11, mr, 0, 4);
            lo.qp.postRecv(recv, 1);
            send.get(0).wrId(12).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(mr, 1024, 64);
            lo.qp.postSend(send, 1);
            boolean sawRecv = false;
            for (int i = 0; i < 2; i++) {
                RcLoopback.awaitOne(lo.cq, wc, T);
                System.out.println("64-byte SEND into a 4-byte receive: " + wc.describe(0));
                if (wc.wrId(0) == 11) {
                    sawRecv = true;
                    // The spec's status is LOC_LEN_ERR; Soft-RoCE (kernel 6.1) reports LOC_QP_OP_ERR.
                    assertTrue(wc.status(0) == WorkCompletionStatus.LOC_LEN_ERR
                            || wc.status(0) == WorkCompletionStatus.LOC_QP_OP_ERR, wc.describe(0));
                } else {
                    assertNotEquals(WorkCompletionStatus.SUCCESS, wc.status(0), wc.describe(0));
                }
            }
            assertTrue(sawRecv);
        }
    }

    @Test
    void badPortAndGidIndexAreVerbsExceptions() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue cq = ctx.createCompletionQueue(8);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq))) {
            assertThrows(IllegalArgumentException.class, () -> ctx.queryGid(0, 1));
            assertThrows(IllegalArgumentException.class, () -> ctx.queryGid(1, -1));
            VerbsException gid = assertThrows(VerbsException.class, () -> ctx.queryGid(1, 4000));
            assertEquals("ibv_query_gid_ex", gid.verb());
            assertThrows(VerbsException.class, () -> ctx.queryPort(2));

            VerbsException port = assertThrows(VerbsException.class, () -> qp.modify(QueuePairAttributes.init(9, 0)));
            report("RESET->INIT on port 9", port);
            assertEquals("ibv_modify_qp", port.verb());
            assertEquals(22, port.errno(), "EINVAL");
            assertTrue(port.getMessage().contains("RESET->INIT"), port.getMessage());

            qp.modify(QueuePairAttributes.init(1, 0));
            byte[] gidBytes = ctx.queryGid(1, RdmaTestDevice.gidIndex()).gid();
            VerbsException sgid = assertThrows(VerbsException.class, () -> qp.modify(QueuePairAttributes.rtrRc(
                    Mtu.MTU_1024, qp.qpNumber(), 0, new AddressVector().port(1).global(gidBytes, 250), 1)));
            report("INIT->RTR with GID index 250", sgid);
            assertEquals("ibv_modify_qp", sgid.verb());
            assertEquals(61, sgid.errno(), "ENODATA: no GID at that index");
            assertEquals(QueuePairState.INIT, qp.state(), "a refused transition leaves the state as it was");
        }
    }

    @Test
    void onlyLiveNativeSegmentsCanBeRegistered() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain()) {
            assertThrows(IllegalArgumentException.class,
                    () -> pd.registerMemory(MemorySegment.ofArray(new byte[4096]), Access.LOCAL_WRITE));
            MemorySegment gone;
            try (Arena arena = Arena.ofConfined()) {
                gone = arena.allocate(4096, 4096);
            }
            MemorySegment closed = gone;
            assertThrows(IllegalStateException.class, () -> pd.registerMemory(closed, Access.LOCAL_WRITE));
            assertThrows(IllegalArgumentException.class, () -> pd.allocateRegion(0, Access.LOCAL_WRITE));

            // Freeing registered memory while registered is reported when the region is closed.
            Arena arena = Arena.ofShared();
            MemoryRegion mr = pd.registerMemory(arena.allocate(4096, 4096), Access.LOCAL_WRITE);
            arena.close();
            IllegalStateException freed = assertThrows(IllegalStateException.class, mr::close);
            assertTrue(freed.getMessage().contains("freed while it was registered"), freed.getMessage());
            assertTrue(mr.isClosed(), "deregistered even so");
        }
    }

    @Test
    void postingMoreThanTheBatchOrTheQueueHolds() {
        try (RcLoopback lo = new RcLoopback(64, 4);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             SendWorkRequests send = new SendWorkRequests(64, 1);
             RecvWorkRequests recv = new RecvWorkRequests(2, 1);
             Completions wc = new Completions(64)) {
            assertThrows(IllegalArgumentException.class, () -> lo.qp.postSend(send, 65));
            assertThrows(IllegalArgumentException.class, () -> lo.qp.postSend(send, 0));
            assertThrows(IllegalArgumentException.class, () -> lo.qp.postRecv(recv, 3));
            assertThrows(IllegalArgumentException.class, () -> lo.qp.postRecv(recv, 1, 2));
            assertThrows(IndexOutOfBoundsException.class, () -> send.get(0).sge(1, 0, 0, 0));

            int depth = lo.qp.query().maxSendWr();
            assertTrue(depth < 64, "the send queue holds " + depth);
            for (int i = 0; i < 64; i++) {
                send.get(i).wrId(100 + i).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .local(mr, 0, 8).rdma(mr.addressOf(1024, 8), mr.rkey());
            }
            VerbsException full = assertThrows(VerbsException.class, () -> lo.qp.postSend(send, depth + 1));
            report("post " + (depth + 1) + " sends into a queue of " + depth, full);
            assertEquals("ibv_post_send", full.verb());
            assertEquals(12, full.errno(), "ENOMEM: " + full.getMessage());
            assertTrue(full.getMessage().contains("work request " + depth + " of " + (depth + 1)), full.getMessage());
            // the ones before the refused one were posted and complete
            RcLoopback.awaitSuccess(lo.cq, wc, depth, T);
        }
    }

    @Test
    void operationsSoftRoceLacksAreUnsupportedExceptions() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE);
             CompletionQueue cq = ctx.createCompletionQueue(8)) {
            VerbsException rereg = assertThrows(VerbsException.class, () -> mr.reregister(Access.LOCAL_WRITE));
            report("ibv_rereg_mr", rereg);
            assertEquals("ibv_rereg_mr", rereg.verb());
            assertTrue(rereg instanceof VerbsUnsupportedException, rereg.getMessage());
            assertEquals(95, rereg.errno(), "EOPNOTSUPP");

            for (QueuePairType t : new QueuePairType[] {QueuePairType.XRC_SEND, QueuePairType.RAW_PACKET}) {
                VerbsException e = assertThrows(VerbsException.class,
                        () -> pd.createQueuePair(new QueuePairInit(t, cq, cq)).close(), t.toString());
                report("ibv_create_qp " + t, e);
                assertEquals("ibv_create_qp", e.verb());
                assertTrue(e instanceof VerbsUnsupportedException, e.getMessage());
                assertEquals(95, e.errno(), "EOPNOTSUPP from rxe");
            }
        }
    }

    @Test
    void overrunningATooSmallCompletionQueueIsReportedNotFatal() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             CompletionQueue small = ctx.createCompletionQueue(1);
             QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, small, small).maxSendWr(64));
             SendWorkRequests send = new SendWorkRequests(64, 1);
             Completions wc = new Completions(64)) {
            RcLoopback.connectToSelf(qp, ctx);
            int capacity = small.capacity();
            int n = Math.min(64, capacity + 8);
            for (int i = 0; i < n; i++) {
                send.get(i).wrId(i).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                        .local(mr, 0, 8).rdma(mr.addressOf(1024, 8), mr.rkey());
            }
            qp.postSend(send, n);
            AsyncEvents events = ctx.asyncEvents();
            AsyncEvent event = null;
            long deadline = System.nanoTime() + T.toNanos();
            while (event == null && System.nanoTime() < deadline) {
                event = events.next(Duration.ofMillis(200));
                if (event != null && !event.type().equals("CQ_ERR")) {
                    System.out.println("async event while overrunning: " + event);
                    event = event.type().startsWith("QP") ? event : null;
                }
            }
            int polled = 0;
            for (int got; (got = small.poll(wc)) > 0; ) {
                polled += got;
            }
            System.out.println("CQ of " + capacity + " entries, " + n + " signaled sends: " + polled
                    + " completions polled, async event " + event + ", QP " + qp.state());
            assertTrue(event != null && event.type().equals("CQ_ERR"), "an overrun is reported as a CQ_ERR async event");
            assertTrue(polled <= capacity, polled + " completions from a CQ of " + capacity);
        }
    }

    @Test
    void aConfinedQueuePairAndCqServeOnlyTheirThread() throws Exception {
        try (RcLoopback lo = new RcLoopback(8, 8);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(1)) {
            lo.qp.confineToCurrentThread();
            lo.cq.confineToCurrentThread();
            send.get(0).wrId(9).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                    .rdma(mr.address() + 2048, mr.rkey());
            mr.segment().set(JAVA_LONG, 0, 0x5a5a5a5a5a5a5a5aL);
            lo.qp.postSend(send, 1);
            RcLoopback.awaitSuccess(lo.cq, wc, 1, T);
            assertEquals(0x5a5a5a5a5a5a5a5aL, mr.segment().get(JAVA_LONG, 2048));

            for (Executable intrusion : new Executable[] {() -> lo.qp.postSend(send, 1), () -> lo.cq.poll(wc),
                    () -> lo.qp.state(), lo.qp::close, lo.cq::close}) {
                Throwable t = OtherThread.thrownBy("intruder", intrusion);
                assertTrue(t instanceof WrongThreadException && t.getMessage().contains("\"intruder\""),
                        String.valueOf(t));
            }
            assertFalse(lo.qp.isClosed() || lo.cq.isClosed());
            assertEquals(0, lo.cq.poll(wc), "the refused post from the other thread reached the device");
            assertEquals(QueuePairState.RTS, lo.qp.state());
        } // closes on the owner thread
    }

    /**
     * Work requests and completions are passed to the native calls by address, kept alive by their own guard:
     * closing them while another thread posts or polls must end that thread in IllegalStateException, never free
     * memory under a call. Twenty rounds, closing the send batch first in even rounds and the completions first in
     * odd ones.
     */
    @Test
    void closingWorkRequestsOrCompletionsUnderAnotherThreadsPostsIsAnException() throws Exception {
        try (RcLoopback lo = new RcLoopback(8, 8);
             MemoryRegion mr = lo.pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE)) {
            long completed = 0;
            for (int round = 0; round < 20; round++) {
                SendWorkRequests send = new SendWorkRequests(1, 1);
                Completions wc = new Completions(4);
                send.get(0).wrId(round).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                        .rdma(mr.address() + 2048, mr.rkey());
                AtomicLong done = new AtomicLong();
                Throwable[] ended = new Throwable[1];
                Thread user = Thread.ofPlatform().name("poster").start(() -> {
                    try {
                        while (true) {
                            lo.qp.postSend(send, 1);
                            while (lo.cq.poll(wc) == 0) {
                                Thread.onSpinWait();
                            }
                            if (!wc.isSuccess(0)) {
                                throw new AssertionError("failed completion: " + wc.describe(0));
                            }
                            done.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        ended[0] = t;
                    }
                });
                long until = System.nanoTime() + 5_000_000_000L;
                while (done.get() < 1 + round % 3 && user.isAlive() && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                AutoCloseable first = round % 2 == 0 ? send : wc;
                AutoCloseable second = round % 2 == 0 ? wc : send;
                first.close();
                user.join(10_000);
                assertFalse(user.isAlive(), "round " + round + ": the poster did not stop after the close");
                second.close();
                assertTrue(ended[0] instanceof IllegalStateException, "round " + round + ": " + ended[0]);
                completed += done.get();
                // What the last post left in the CQ, so the next round starts from an empty one.
                try (Completions drain = new Completions(8)) {
                    lo.cq.poll(drain);
                }
            }
            assertTrue(completed >= 20, "the posters completed only " + completed + " RDMA writes");
        }
    }
}
