package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Completion channels: an armed CQ signals its channel once, the wait is bounded, two CQs share a channel,
 * and a CQ can grow while it holds completions.
 */
@Tag("rdma")
class CompletionEventsRdmaTest {

    private static void sendOne(Loopback lb, QueuePair from, QueuePair to, long id,
                                SendWorkRequests send, RecvWorkRequests recv) {
        recv.set(0, id + 1000, lb.bufB, 0, 256);
        to.postRecv(recv, 1);
        send.get(0).wrId(id).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 128);
        from.postSend(send, 1);
    }

    @Test
    void anArmedCqSignalsItsChannelOnce() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0, Loopback.CqKind.CHANNEL, true);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            CompletionChannel ch = lb.channel;
            assertTrue(ch.fd() >= 0, "channel fd " + ch.fd());
            assertSame(ch, lb.cq.channel());
            lb.cq.requestNotify(false);
            sendOne(lb, lb.a, lb.b, 1, send, recv);
            assertSame(lb.cq, ch.awaitEvent(Duration.ofSeconds(5)), "the armed CQ fired");
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(1)]);
            assertEquals(128, p.byteLen[p.of(1001)]);

            // Not re-armed: the next completions raise no event, though they are there to poll.
            sendOne(lb, lb.a, lb.b, 2, send, recv);
            assertNull(ch.awaitEvent(Duration.ofMillis(300)), "an unarmed CQ signals nothing");
            lb.await(2);

            // Re-armed: one event again. Solicited-only arming also fires for a send with SOLICITED.
            lb.cq.requestNotify(true);
            recv.set(0, 3000, lb.bufB, 0, 256);
            lb.b.postRecv(recv, 1);
            send.get(0).wrId(3).flags(SendFlags.SIGNALED | SendFlags.SOLICITED);
            lb.a.postSend(send, 1);
            assertSame(lb.cq, ch.awaitEvent(Duration.ofSeconds(5)), "solicited event");
            lb.await(2);
        }
    }

    @Test
    void awaitWithNothingPendingReturnsNullAfterTheTimeout() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 12, 0, Loopback.CqKind.CHANNEL, true)) {
            Duration timeout = Duration.ofMillis(700);
            for (boolean armed : new boolean[] {false, true}) {
                if (armed) {
                    lb.cq.requestNotify(false);
                }
                long t0 = System.nanoTime();
                CompletionQueue got = lb.channel.awaitEvent(timeout);
                long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
                assertNull(got, "no completion, no event (armed " + armed + ")");
                assertTrue(elapsedMs >= timeout.toMillis(), "returned after " + elapsedMs + " ms, before the timeout");
                assertTrue(elapsedMs < timeout.toMillis() + 2000, "returned only after " + elapsedMs + " ms");
            }
        }
    }

    @Test
    void twoCqsOnOneChannelTheEventNamesTheOneThatFired() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0, Loopback.CqKind.CHANNEL, true);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            CompletionQueue cq2 = lb.keep(lb.ctx.createCompletionQueue(32, lb.channel, 0));
            assertSame(lb.channel, cq2.channel());
            QueuePair c = lb.keep(lb.pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq2, cq2)));
            QueuePair d = lb.keep(lb.pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq2, cq2)));
            lb.connect(c, d, QueuePairType.RC);
            lb.connect(d, c, QueuePairType.RC);
            lb.cq.requestNotify(false);
            cq2.requestNotify(false);

            sendOne(lb, c, d, 1, send, recv);
            assertSame(cq2, lb.channel.awaitEvent(Duration.ofSeconds(5)), "traffic on cq2's QPs fires cq2");
            Loopback.Polled p = lb.await(cq2, 2);
            assertEquals(c.qpNumber(), p.qpn[p.of(1)]);
            assertEquals(d.qpNumber(), p.qpn[p.of(1001)]);
            assertNull(lb.channel.awaitEvent(Duration.ofMillis(300)), "the first CQ is armed but idle");

            sendOne(lb, lb.a, lb.b, 2, send, recv);
            assertSame(lb.cq, lb.channel.awaitEvent(Duration.ofSeconds(5)), "now the first CQ fires");
            lb.await(2);
            lb.expectNothingMore();
            assertEquals(0, cq2.poll(lb.wc));
        }
    }

    @Test
    void resizeGrowsCapacityAndKeepsQueuedCompletions() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0, Loopback.CqKind.CHANNEL, true);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            int before = lb.cq.capacity();
            assertTrue(before >= 256, "asked for 256 entries, got " + before);
            // Make sure completions are queued (the event says at least one is), then resize under them.
            lb.cq.requestNotify(false);
            sendOne(lb, lb.a, lb.b, 1, send, recv);
            assertSame(lb.cq, lb.channel.awaitEvent(Duration.ofSeconds(5)));
            int grown = lb.cq.resize(before * 4);
            assertTrue(grown >= before * 4, "resize to " + before * 4 + " gave " + grown);
            assertEquals(grown, lb.cq.capacity());
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(1)], p.toString());
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(1001)], p.toString());
            // Still a working, still channel-attached CQ.
            lb.cq.requestNotify(false);
            sendOne(lb, lb.a, lb.b, 2, send, recv);
            assertSame(lb.cq, lb.channel.awaitEvent(Duration.ofSeconds(5)));
            lb.await(2);
        }
    }
}
