package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The RC state machine step by step with ibv_query_qp after each step, the error state (flush), recovery
 * through RESET, and a peer that disappears (retries exhausted: a failed completion, not a hang).
 */
@Tag("rdma")
class QpStateRdmaTest {

    @Test
    void resetInitRtrRtsWithEveryAttributeQueried() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0, Loopback.CqKind.PLAIN, false);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            QueuePair a = lb.a;
            QueuePair b = lb.b;
            QueuePairInfo q = a.query();
            assertEquals(QueuePairState.RESET, q.state());
            assertTrue(q.maxSendWr() >= 64 && q.maxRecvWr() >= 64, q.toString());

            int access = Access.REMOTE_WRITE | Access.REMOTE_READ;
            a.modify(QueuePairAttributes.init(Loopback.PORT, access));
            q = a.query();
            assertEquals(QueuePairState.INIT, q.state());
            assertEquals(Loopback.PORT, q.port());
            assertEquals(access, q.accessFlags());
            // Receives may be posted from INIT on; they wait for the connection.
            recv.set(0, 900, lb.bufA, 0, 256);
            a.postRecv(recv, 1);

            a.modify(QueuePairAttributes.rtr(Mtu.MTU_1024, b.qpNumber(), 0x123456, lb.addressVector())
                    .maxDestRdAtomic(4).minRnrTimer(12));
            q = a.query();
            assertEquals(QueuePairState.RTR, q.state());
            assertEquals(Mtu.MTU_1024, q.pathMtu());
            assertEquals(b.qpNumber(), q.destQpNumber());
            assertEquals(0x123456, q.rqPsn());
            assertEquals(4, q.maxDestRdAtomic());
            assertEquals(12, q.minRnrTimer());
            assertTrue(q.global(), "RoCE needs a GRH");
            assertEquals(RdmaTestDevice.gidIndex(), q.sgidIndex());

            // RTR receives but does not send.
            send.get(0).wrId(666).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).numSge(0)
                    .rdma(lb.bufB.address(), lb.bufB.rkey());
            VerbsException refused = assertThrows(VerbsException.class, () -> a.postSend(send, 1));
            assertEquals("ibv_post_send", refused.verb());
            assertEquals(22, refused.errno(), "EINVAL: " + refused.getMessage());
            assertTrue(refused.getMessage().contains("RTR"), refused.getMessage());

            a.modify(QueuePairAttributes.rts(0x654321).timeout(13).retryCount(5).rnrRetry(6).maxRdAtomic(8));
            q = a.query();
            assertEquals(QueuePairState.RTS, q.state());
            assertEquals(0x654321, q.sqPsn());
            assertEquals(13, q.timeout());
            assertEquals(5, q.retryCount());
            assertEquals(6, q.rnrRetry());
            assertEquals(8, q.maxRdAtomic());
            assertEquals(0x123456, q.rqPsn(), "RTR attributes stay");
            assertEquals(QueuePairState.RTS, a.state());

            // The peer, with the PSNs mirrored.
            b.modify(QueuePairAttributes.init(Loopback.PORT, access));
            b.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, a.qpNumber(), 0x654321, lb.addressVector(), 16));
            b.modify(QueuePairAttributes.rtsRc(0x123456, 14, 7, 7, 16));
            assertEquals(a.qpNumber(), b.query().destQpNumber());

            // Traffic both ways: B's send uses the receive A posted in INIT.
            fill(lb.bufB.segment(), 0, 200, 17);
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufB, 0, 200);
            b.postSend(send, 1);
            fill(lb.bufA.segment(), 1024, 300, 19);
            send.get(0).wrId(2).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 1024, 300)
                    .rdma(lb.bufB.addressOf(4096, 300), lb.bufB.rkey());
            a.postSend(send, 1);
            Loopback.Polled p = lb.await(3);
            for (int i = 0; i < 3; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[i], p.toString());
            }
            assertEquals(200, p.byteLen[p.of(900)]);
            assertArrayEquals(bytes(lb.bufB.segment(), 0, 200), bytes(lb.bufA.segment(), 0, 200));
            assertArrayEquals(bytes(lb.bufA.segment(), 1024, 300), bytes(lb.bufB.segment(), 4096, 300));
            // The work request refused in RTR did not linger and run later.
            Loopback.Polled extra = lb.collect(300);
            assertFalse(extra.has(666), "the refused work request ran after all: " + extra);
            assertEquals(0, extra.count, extra.toString());
        }
    }

    @Test
    void errorStateFlushesReceivesAndResetRecovers() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(3, 1)) {
            for (int i = 0; i < 3; i++) {
                recv.set(i, 1000 + i, lb.bufB, i * 1024L, 1024);
            }
            lb.b.postRecv(recv, 3);
            lb.b.toError();
            assertEquals(QueuePairState.ERR, lb.b.state());
            Loopback.Polled p = lb.await(3);
            for (int i = 0; i < 3; i++) {
                assertEquals(1000 + i, p.wrId[i], "flushed in posting order: " + p);
                assertEquals(WorkCompletionStatus.WR_FLUSH_ERR, p.status[i]);
                assertEquals(lb.b.qpNumber(), p.qpn[i]);
            }
            lb.expectNothingMore();

            // Back to RESET (from ERR), query says so, then a fresh connection carries traffic.
            lb.b.reset();
            assertEquals(QueuePairState.RESET, lb.b.query().state());
            lb.reconnect();
            assertEquals(QueuePairState.RTS, lb.a.state());
            assertEquals(QueuePairState.RTS, lb.b.state());
            lb.b.postRecv(recv, 1);
            fill(lb.bufA.segment(), 0, 512, 23);
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 512);
            lb.a.postSend(send, 1);
            Loopback.Polled after = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, after.status[after.of(1000)], after.toString());
            assertEquals(512, after.byteLen[after.of(1000)]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 512), bytes(lb.bufB.segment(), 0, 512));
        }
    }

    @Test
    void aVanishedPeerEndsInRetryExceededWithinTheRetryBudget() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0, Loopback.CqKind.PLAIN, false);
             SendWorkRequests send = new SendWorkRequests(2, 1)) {
            int access = Access.REMOTE_WRITE | Access.REMOTE_READ;
            // A waits 4.096 µs × 2^12 ≈ 17 ms for an ACK and retries twice: gives up after ~50 ms of silence.
            lb.a.modify(QueuePairAttributes.init(Loopback.PORT, access));
            lb.a.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, lb.b.qpNumber(), 0, lb.addressVector(), 16));
            lb.a.modify(QueuePairAttributes.rtsRc(0, 12, 2, 7, 16));
            lb.b.modify(QueuePairAttributes.init(Loopback.PORT, access));
            lb.b.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, lb.a.qpNumber(), 0, lb.addressVector(), 16));
            lb.b.modify(QueuePairAttributes.rtsRc(0, 12, 2, 7, 16));
            send.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 64)
                    .rdma(lb.bufB.address(), lb.bufB.rkey());
            lb.a.postSend(send, 1);
            assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0], "connected");

            lb.b.close(); // the peer is gone: nothing answers A's packets any more
            send.get(1).wrId(3).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 64)
                    .rdma(lb.bufB.address(), lb.bufB.rkey());
            send.get(0).wrId(2);
            long t0 = System.nanoTime();
            lb.a.postSend(send, 2);
            Loopback.Polled p = lb.await(2);
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertEquals(2, p.wrId[0], p.toString());
            assertEquals(WorkCompletionStatus.RETRY_EXC_ERR, p.status[0], p.toString());
            assertEquals(3, p.wrId[1]);
            assertEquals(WorkCompletionStatus.WR_FLUSH_ERR, p.status[1], "the rest of the queue is flushed");
            assertTrue(ms < 5000, "gave up after " + ms + " ms");
            assertEquals(QueuePairState.ERR, lb.a.state());
        }
    }
}
