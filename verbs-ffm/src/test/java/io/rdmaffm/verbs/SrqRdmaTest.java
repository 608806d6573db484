package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A shared receive queue behind two RC connections: receives posted once serve both, completions name the
 * QP that received, the limit event fires when the queue runs low, and the queue can grow.
 */
@Tag("rdma")
class SrqRdmaTest {

    /** s1→r1 and s2→r2, both receivers on one SRQ. */
    private static QueuePair[] twoConnections(Loopback lb, SharedReceiveQueue srq) {
        QueuePair s1 = lb.extraQueuePair(QueuePairType.RC, null);
        QueuePair r1 = lb.extraQueuePair(QueuePairType.RC, srq);
        QueuePair s2 = lb.extraQueuePair(QueuePairType.RC, null);
        QueuePair r2 = lb.extraQueuePair(QueuePairType.RC, srq);
        lb.connect(s1, r1, QueuePairType.RC);
        lb.connect(r1, s1, QueuePairType.RC);
        lb.connect(s2, r2, QueuePairType.RC);
        lb.connect(r2, s2, QueuePairType.RC);
        return new QueuePair[] {s1, r1, s2, r2};
    }

    @Test
    void sendsOnTwoConnectionsLandInOneSharedQueue() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             RecvWorkRequests recv = new RecvWorkRequests(4, 1);
             SendWorkRequests send = new SendWorkRequests(2, 1)) {
            SharedReceiveQueue srq = lb.keep(lb.pd.createSharedReceiveQueue(16, 1, 0));
            int[] attr = srq.query();
            assertTrue(attr[0] >= 16, "max_wr " + attr[0]);
            assertEquals(1, attr[1], "max_sge");
            assertEquals(0, attr[2], "srq_limit (not armed)");
            QueuePair[] q = twoConnections(lb, srq);
            QueuePair s1 = q[0], r1 = q[1], s2 = q[2], r2 = q[3];
            // A QP on an SRQ has no receive queue of its own.
            assertThrows(IllegalStateException.class, () -> r1.postRecv(recv, 1));

            for (int i = 0; i < 4; i++) {
                recv.set(i, 200 + i, lb.bufB, i * 2048L, 2048);
            }
            srq.postRecv(recv, 4);
            // Message k (k = 0..3) has 100 + k bytes; s1 sends 0 and 1, s2 sends 2 and 3.
            for (int k = 0; k < 4; k++) {
                fill(lb.bufA.segment(), k * 2048L, 100 + k, 31 * k + 1);
            }
            send.get(0).wrId(10).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 100);
            send.get(1).wrId(11).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 2048, 101);
            s1.postSend(send, 2);
            lb.await(4).toString(); // s1's two sends and their two receives
            send.get(0).wrId(12).local(lb.bufA, 4096, 102);
            send.get(1).wrId(13).local(lb.bufA, 6144, 103);
            s2.postSend(send, 2);
            Loopback.Polled p2 = lb.await(4);

            // Receives are taken in posting order: 200 and 201 went to r1, 202 and 203 to r2.
            for (long id = 202; id <= 203; id++) {
                int r = p2.of(id);
                assertEquals(WorkCompletionStatus.SUCCESS, p2.status[r], p2.toString());
                assertEquals(r2.qpNumber(), p2.qpn[r], "completion of receive " + id + " names r2");
            }
            assertEquals(102, p2.byteLen[p2.of(202)]);
            assertEquals(103, p2.byteLen[p2.of(203)]);
            for (int k = 0; k < 4; k++) {
                assertArrayEquals(bytes(lb.bufA.segment(), k * 2048L, 100 + k), bytes(lb.bufB.segment(), k * 2048L, 100 + k),
                        "message " + k);
            }
            assertTrue(s1.qpNumber() != r1.qpNumber() && r1.qpNumber() != r2.qpNumber());
            lb.expectNothingMore();
        }
    }

    @Test
    void receiveCompletionsNameTheQpThatReceived() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             RecvWorkRequests recv = new RecvWorkRequests(4, 1);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            SharedReceiveQueue srq = lb.keep(lb.pd.createSharedReceiveQueue(16, 1, 0));
            QueuePair[] q = twoConnections(lb, srq);
            for (int i = 0; i < 4; i++) {
                recv.set(i, 300 + i, lb.bufB, i * 1024L, 1024);
            }
            srq.postRecv(recv, 4);
            // Alternate senders: s2, s1, s2, s1. Receive k always takes buffer k.
            int[] expectQp = new int[4];
            for (int k = 0; k < 4; k++) {
                QueuePair sender = k % 2 == 0 ? q[2] : q[0];
                expectQp[k] = (k % 2 == 0 ? q[3] : q[1]).qpNumber();
                fill(lb.bufA.segment(), 0, 64, k + 40);
                send.get(0).wrId(k).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 64);
                sender.postSend(send, 1);
                Loopback.Polled p = lb.await(2);
                int r = p.of(300 + k);
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
                assertEquals(expectQp[k], p.qpn[r], "receive " + k);
                assertEquals(WorkCompletionOpcode.RECV, p.opcode[r]);
                assertArrayEquals(bytes(lb.bufA.segment(), 0, 64), bytes(lb.bufB.segment(), k * 1024L, 64));
            }
        }
    }

    @Test
    void limitEventFiresWhenFewerReceivesThanTheLimitRemain() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             RecvWorkRequests recv = new RecvWorkRequests(8, 1);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            SharedReceiveQueue srq = lb.keep(lb.pd.createSharedReceiveQueue(16, 1, 0));
            QueuePair[] q = twoConnections(lb, srq);
            AsyncEvents events = lb.ctx.asyncEvents();
            for (int i = 0; i < 8; i++) {
                recv.set(i, 400 + i, lb.bufB, i * 256L, 256);
            }
            srq.postRecv(recv, 8);
            srq.armLimit(4);
            assertEquals(4, srq.query()[2], "srq_limit after arming");

            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 16);
            for (int k = 0; k < 4; k++) {
                q[0].postSend(send, 1);
                lb.await(2);
            }
            // 4 receives left: not fewer than the limit. The device checks right after taking a receive,
            // before it completes, so the event would already be queued.
            AsyncEvent early = events.next(Duration.ofMillis(300));
            assertNull(early, "no event while 4 of 8 receives remain: " + early);

            q[2].postSend(send, 1);
            lb.await(2);
            List<AsyncEvent> seen = new ArrayList<>();
            AsyncEvent limit = null;
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (limit == null && System.nanoTime() < deadline) {
                AsyncEvent e = events.next(Duration.ofMillis(500));
                if (e != null) {
                    seen.add(e);
                    if (e.code() == Constants.IBV_EVENT_SRQ_LIMIT_REACHED) {
                        limit = e;
                    }
                }
            }
            if (limit == null) {
                fail("no SRQ_LIMIT_REACHED within 5 s; events seen: " + seen);
            }
            assertEquals("SRQ_LIMIT_REACHED", limit.type());
            assertEquals(srq.address().address(), limit.elementAddress(), "the event names our SRQ");
            assertTrue(limit.description().toLowerCase().contains("limit"), limit.description());
            // The limit is one-shot: the device disarms it when it fires.
            assertEquals(0, srq.query()[2], "srq_limit after the event");
            q[0].postSend(send, 1);
            lb.await(2);
            assertNull(events.next(Duration.ofMillis(300)), "a disarmed limit fires no second event");
        }
    }

    @Test
    void overflowIsRefusedAndResizeGrowsTheQueueKeepingPostedReceives() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             RecvWorkRequests recv = new RecvWorkRequests(128, 1);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            SharedReceiveQueue srq = lb.keep(lb.pd.createSharedReceiveQueue(16, 1, 0));
            QueuePair[] q = twoConnections(lb, srq);
            int capacity = srq.query()[0];
            for (int i = 0; i < recv.size(); i++) {
                recv.set(i, i, lb.bufB, (i % 64) * 256L, 256);
            }
            // One more receive than the queue holds.
            VerbsException full = assertThrows(VerbsException.class, () -> srq.postRecv(recv, 0, capacity + 1));
            assertEquals("ibv_post_srq_recv", full.verb());
            assertEquals(12, full.errno(), "ENOMEM for a full queue: " + full.getMessage());
            // The first `capacity` of that list were queued before the provider hit the full queue.
            int grown = capacity * 2 + 10;
            srq.resize(grown);
            int after = srq.query()[0];
            assertTrue(after >= grown, "max_wr after resize: " + after + " (asked " + grown + ")");
            srq.postRecv(recv, capacity, grown - capacity); // fills the grown queue
            // The receives posted before the resize are still there, first in line.
            fill(lb.bufA.segment(), 0, 32, 9);
            send.get(0).wrId(7).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 32);
            q[0].postSend(send, 1);
            Loopback.Polled p = lb.await(2);
            int r = p.of(0);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
            assertEquals(32, p.byteLen[r]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 32), bytes(lb.bufB.segment(), 0, 32));
        }
    }
}
