package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Affiliated async events (about one queue pair or completion queue) from the real device, and which object the
 * binding says they name.
 *
 * <p>What Soft-RoCE raises (Linux 6.1.192, the VM's kernel, drivers/infiniband/sw/rxe): the only calls of a QP's
 * event handler are the two IB_EVENT_SQ_DRAINED ones (rxe_req.c:145-152 in req_next_wqe, rxe_comp.c:484-491 in
 * complete_ack), so SQ_DRAINED is the one QP event rxe can deliver, and the first test takes it through
 * the binding. rxe never raises QP_FATAL, QP_REQ_ERR or QP_ACCESS_ERR: a QP goes to the error state in
 * rxe_qp_error (rxe_qp.c:552-567), which only sets the states and schedules the tasks, called from the responder's
 * RESPST_ERROR (rxe_resp.c:1472-1476, reached from the class A/C errors of do_class_ac_error, rxe_resp.c:1227-1235,
 * e.g. an rkey violation at rxe_resp.c:1396-1401) and the completer's COMPST_ERROR (rxe_comp.c:755-759, reached from
 * retry and RNR-retry exhaustion at rxe_comp.c:726-727 and 749-751). The IB core raises QP_FATAL itself only in
 * core/security.c qp_to_error (line 153), for P_Key security on InfiniBand ports; ib_create_qp_security
 * (security.c:415-429) creates no security context for a device without an IB port, so never for RoCE. (A patch
 * that makes rxe raise QP_ACCESS_ERR for rkey violations was under review on linux-rdma in February 2026: "RDMA/rxe:
 * Generate async error for r_key violations".) The second test pins that: a remote access error on Soft-RoCE
 * leaves the async event queue empty and the responder's QP silently in ERR; on any other device it asks for the
 * QP_ACCESS_ERR that IBTA C9-222.1.1 requires, naming the responder's QP. The third test takes CQ_ERR, which rxe
 * raises when a completion finds its CQ full (rxe_cq.c:112-122, rxe_cq_post), through the binding.
 */
@Tag("rdma")
class AffiliatedEventsRdmaTest {
    /** Soft-RoCE's vendor_id (rxe_param.h RXE_VENDOR_ID). */
    static final int RXE_VENDOR_ID = 0xffffff;

    /** Reads events until one matches or {@code timeout} passes; every event read is added to {@code seen}. */
    static AsyncEvent await(AsyncEvents events, Predicate<AsyncEvent> match, Duration timeout, List<AsyncEvent> seen) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            AsyncEvent e = events.next(Duration.ofMillis(250));
            if (e != null) {
                seen.add(e);
                if (match.test(e)) {
                    return e;
                }
            }
        }
        return null;
    }

    private static Loopback.Polled write(Loopback lb, SendWorkRequests send, long id, long remote, int length, int rkey) {
        send.get(0).wrId(id).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 0, length)
                .rdma(remote, rkey);
        lb.a.postSend(send, 1);
        return lb.await(1);
    }

    @Test
    void sqDrainedArrivesAndNamesTheQueuePairThatWasMovedToSqd() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            AsyncEvents events = lb.ctx.asyncEvents();
            fill(lb.bufA.segment(), 0, 512, 7);
            Loopback.Polled p = write(lb, send, 1, lb.bufB.address(), 512, lb.bufB.rkey());
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertNull(events.next(Duration.ofMillis(200)), "no event before the drain");

            // RTS -> SQD: rxe_qp_from_attr runs rxe_qp_drain, whose requester finds the send queue empty and
            // reports the drain at once (rxe_req.c:123-152).
            lb.a.modify(new QueuePairAttributes().state(QueuePairState.SQD).enSqdAsyncNotify(true));
            List<AsyncEvent> seen = new ArrayList<>();
            AsyncEvent drained = await(events, e -> e.code() == Constants.IBV_EVENT_SQ_DRAINED, Duration.ofSeconds(10),
                    seen);
            assertNotNull(drained, "no SQ_DRAINED within 10 s; events seen: " + seen);
            assertEquals("SQ_DRAINED", drained.type());
            assertTrue(drained.isQueuePairEvent());
            assertTrue(drained.concerns(lb.a), "the event names the drained QP: " + drained);
            assertFalse(drained.concerns(lb.b), "not its peer");
            assertFalse(drained.concerns(lb.cq), "a QP event is not a CQ event");
            assertEquals(0, drained.portNumber());
            assertTrue(drained.description().contains("drained"), drained.description());
            assertEquals(QueuePairState.SQD, lb.a.state());
            assertEquals(List.of(drained), seen, "nothing else was raised");

            // SQD -> RTS: the queue pair sends again.
            lb.a.modify(new QueuePairAttributes().state(QueuePairState.RTS));
            fill(lb.bufA.segment(), 0, 256, 9);
            p = write(lb, send, 2, lb.bufB.address() + 1024, 256, lb.bufB.rkey());
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 256), bytes(lb.bufB.segment(), 1024, 256));
            assertNull(events.next(Duration.ofMillis(300)), "no event after returning to RTS");
        }
    }

    @Test
    void aRemoteAccessErrorOnTheResponderRaisesQpAccessErrOrOnSoftRoceNothing() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            boolean rxe = lb.ctx.queryDevice().vendorId() == RXE_VENDOR_ID;
            AsyncEvents events = lb.ctx.asyncEvents();
            // An RDMA WRITE through an rkey B never handed out: B's responder refuses it (an R_Key violation,
            // IBTA class C) and NAKs it; A's write completes with REM_ACCESS_ERR.
            int bogus = lb.bufB.rkey() ^ 0x5a5a00;
            Loopback.Polled p = write(lb, send, 1, lb.bufB.address(), 64, bogus);
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, p.status[0], p.toString());
            List<AsyncEvent> seen = new ArrayList<>();
            AsyncEvent access = await(events, e -> e.code() == Constants.IBV_EVENT_QP_ACCESS_ERR,
                    Duration.ofSeconds(rxe ? 2 : 10), seen);
            if (rxe) {
                // rxe_resp.c:1396-1401: do_class_ac_error, then RESPST_ERROR -> rxe_qp_error, and no event.
                assertNull(access, "Soft-RoCE (Linux 6.1) raises no QP_ACCESS_ERR; if this kernel does, the binding "
                        + "delivers it and this test's expectation is out of date: " + access);
                assertEquals(List.of(), seen, "no async event of any kind");
                assertEquals(QueuePairState.ERR, lb.b.state(), "the responder's QP went to ERR without an event");
            } else {
                assertNotNull(access, "no QP_ACCESS_ERR within 10 s (IBTA C9-222.1.1); events seen: " + seen);
                assertTrue(access.concerns(lb.b), "the event names the responder's QP: " + access);
                assertFalse(access.concerns(lb.a));
            }
            assertEquals(QueuePairState.ERR, lb.a.state(), "the requester went to ERR");
        }
    }

    /**
     * A send CQ smaller than the signaled work posted to it: the completion that finds it full is dropped and rxe
     * raises CQ_ERR on that CQ (rxe_cq_post returns -EBUSY, which the completer ignores, rxe_comp.c:445).
     */
    @Test
    void cqErrNamesTheCompletionQueueThatOverflowed() throws Exception {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CompletionQueue small = ctx.createCompletionQueue(1);
             CompletionQueue big = ctx.createCompletionQueue(64);
             MemoryRegion mr = pd.allocateRegion(4096, RcLoopback.ALL_REMOTE);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(16)) {
            QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, small, big).maxSendWr(32));
            try {
                RcLoopback.connectToSelf(qp, ctx);
                AsyncEvents events = ctx.asyncEvents();
                int capacity = small.capacity();
                int writes = capacity + 3;
                for (int i = 0; i < writes; i++) {
                    send.get(0).wrId(i).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 8)
                            .rdma(mr.address() + 1024 + 8L * i, mr.rkey());
                    qp.postSend(send, 1);
                }
                List<AsyncEvent> seen = new ArrayList<>();
                AsyncEvent overflow = await(events, e -> e.code() == Constants.IBV_EVENT_CQ_ERR, Duration.ofSeconds(10),
                        seen);
                assertNotNull(overflow, "no CQ_ERR within 10 s after " + writes + " signaled writes into a CQ of "
                        + capacity + "; events seen: " + seen);
                assertEquals("CQ_ERR", overflow.type());
                assertTrue(overflow.concerns(small), "the event names the overflowing CQ: " + overflow);
                assertFalse(overflow.concerns(big));
                assertFalse(overflow.concerns(qp), "a CQ event is not a QP event");
                assertFalse(overflow.isQueuePairEvent());
                // The CQ holds what fitted; it still works, and the QP can be destroyed.
                Thread.sleep(200);
                int n = small.poll(wc);
                assertEquals(capacity, n, "the CQ kept the completions that fitted");
                for (int i = 0; i < n; i++) {
                    assertEquals(WorkCompletionStatus.SUCCESS, wc.status(i), wc.describe(i));
                }
            } finally {
                qp.close();
            }
        }
    }
}
