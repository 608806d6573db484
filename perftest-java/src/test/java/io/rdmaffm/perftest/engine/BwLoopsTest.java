package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bandwidth loops' accounting against a fake device: no RDMA hardware needed. */
class BwLoopsTest {
    private static final long MS = 1_000_000L;
    private static final long STALL = 5 * MS;

    private static BwSpec iterations(long iters, int txDepth, int cqMod, int postList) {
        return new BwSpec(iters, txDepth, cqMod, postList, false, false, 0, 0, STALL, 0, 0);
    }

    private static BwSpec duration(int txDepth, int cqMod, long durationNanos, long marginNanos) {
        return new BwSpec(0, txDepth, cqMod, 1, false, true, durationNanos, marginNanos, STALL, 0, 0);
    }

    @Test
    void txDepthIsNeverExceededAndEveryRequestIsCounted() {
        FakeDataPath d = new FakeDataPath(2, 16, 1);
        d.executedPerPoll = 3;
        Measurement m = new Measurement(2, 2 * 1000 + 2 + 1);
        BwLoops.client(d, iterations(1000, 16, 4, 2), m);
        assertEquals(16, d.maxOutstanding, "fills the send queue, never more (the fake refuses an overflow)");
        for (int qp = 0; qp < 2; qp++) {
            assertEquals(1000, d.postedCount(qp));
            assertEquals(1000, m.scnt[qp]);
            assertEquals(1000, m.ccnt[qp]);
            assertEquals(0, d.notRetired(qp), "the last request is signaled: nothing left behind");
        }
        assertEquals(0, d.unpolledSendCompletions());
    }

    @Test
    void swRateLimitPostsInBurstsOneGapApart() {
        FakeDataPath d = new FakeDataPath(1, 64, 1);
        long gap = 2 * MS;
        Measurement m = new Measurement(1, 100 + 2);
        long start = d.now;
        BwLoops.client(d, new BwSpec(100, 64, 1, 1, false, false, 0, 0, 50 * MS, 10, gap), m);
        assertEquals(100, m.ccnt[0], "every request completes");
        for (int i = 0; i + 10 < 100; i++) {
            assertTrue(m.tposted[i + 10] - m.tposted[i] >= gap - 1_000,
                    "at most a burst of 10 per gap: posts " + i + " and " + (i + 10));
        }
        assertTrue(m.tposted[9] - m.tposted[0] < gap / 2, "a burst goes back to back");
        long elapsed = m.tposted[99] - start;
        assertTrue(elapsed >= 9 * gap && elapsed < 11 * gap, "10 bursts from the start: " + elapsed);
    }

    @Test
    void runInfinitelyHandsEachIntervalOnUntilStoppedThenDrains() {
        FakeDataPath d = new FakeDataPath(2, 16, 1);
        StopSignal stop = new StopSignal();
        java.util.List<long[]> rows = new java.util.ArrayList<>();
        Measurement m = new Measurement(2, 2);
        BwLoops.clientInfinitely(d, new BwSpec(Long.MAX_VALUE, 16, 4, 1, false, true, 2 * MS, 0, STALL, 0, 0), m,
                (count, start, end) -> {
                    rows.add(new long[] {count, start, end});
                    if (rows.size() == 3) {
                        stop.stop();
                    }
                }, stop, PeerEnd.NONE, false);
        assertEquals(3, rows.size(), "no row after the stop");
        long counted = 0;
        for (long[] r : rows) {
            assertTrue(r[2] - r[1] >= 2 * MS && r[2] - r[1] < 2 * MS + 100_000, "one interval per row");
            assertTrue(r[0] > 0, "each interval completed work");
            counted += r[0];
        }
        for (int i = 1; i < rows.size(); i++) {
            assertEquals(rows.get(i - 1)[2], rows.get(i)[1], "intervals follow each other");
        }
        assertTrue(m.counted >= counted, "the whole run counts every interval and the drain");
        for (int qp = 0; qp < 2; qp++) {
            assertEquals(m.scnt[qp] / 4 * 4, m.ccnt[qp], "every signaled request completed before the return");
        }
        assertEquals(0, d.unpolledSendCompletions());
    }

    @Test
    void signalsEveryCqModthRequestAndTheLast() {
        FakeDataPath d = new FakeDataPath(1, 8, 1);
        BwLoops.client(d, iterations(10, 8, 4, 1), new Measurement(1, 12));
        for (int i = 0; i < 10; i++) {
            assertEquals(i == 3 || i == 7 || i == 9, d.signaled(0, i), "request " + i);
        }
    }

    @Test
    void postListPostsThatManyPerCall() {
        FakeDataPath d = new FakeDataPath(1, 32, 1);
        BwLoops.client(d, iterations(100, 32, 4, 4), new Measurement(1, 105));
        assertEquals(25, d.postSizes.size());
        assertTrue(d.postSizes.stream().allMatch(n -> n == 4), d.postSizes.toString());
    }

    @Test
    void timestampsEveryPostAndEveryCountedCompletion() {
        FakeDataPath d = new FakeDataPath(1, 8, 1);
        Measurement m = new Measurement(1, 40 + 2);
        BwLoops.client(d, iterations(40, 8, 1, 1), m);
        for (int i = 1; i < 40; i++) {
            assertTrue(m.tposted[i] > m.tposted[i - 1], "posts are stamped in order");
            assertTrue(m.tcompleted[i] >= m.tcompleted[i - 1], "completions are stamped in order");
            assertTrue(m.tcompleted[i] > m.tposted[i], "request " + i + " completes after its post");
        }
    }

    @Test
    void durationCountsTheCompletionsInsideTheSampleWindow() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        long start = d.now;
        Measurement m = new Measurement(1, 1);
        BwLoops.client(d, duration(16, 1, 10 * MS, 2 * MS), m);
        assertTrue(m.windowStart >= start + 2 * MS && m.windowStart < start + 2 * MS + 100_000, "window start");
        assertTrue(m.windowEnd >= start + 8 * MS && m.windowEnd < start + 8 * MS + 100_000, "window end");
        assertTrue(d.now >= start + 10 * MS, "ran for the whole duration");
        // Completions polled after the poll that opened the window, up to the one that closed it.
        long expected = 0;
        for (long[] poll : d.sendPolls) {
            if (poll[0] > m.windowStart && poll[0] <= m.windowEnd) {
                expected += poll[1];
            }
        }
        assertTrue(expected > 1000, "enough traffic to mean something: " + expected);
        assertEquals(expected, m.counted);
    }

    /**
     * The end of a -D run with cq_mod > 1 (fixed in commit 233ee6b): the requests after the last signaled one
     * never complete, so the loop must stop once every signaled completion is in, not wait for all it posted.
     */
    @Test
    void durationEndWaitsOnlyForSignaledCompletions() {
        FakeDataPath d = new FakeDataPath(1, 128, 1);
        Measurement m = new Measurement(1, 1);
        BwLoops.client(d, duration(128, 100, 4 * MS, MS), m);
        long posted = m.scnt[0];
        assertNotEquals(0, posted % 100, "the run must end with an unsignaled tail for this test to mean something");
        assertEquals(posted / 100 * 100, m.ccnt[0], "every signaled completion was counted");
        assertEquals(0, d.unpolledSendCompletions(), "no completion left in the CQ");
        assertTrue(d.now - d.sendPolls.getLast()[0] < STALL, "ended without waiting out the stall limit");
    }

    /** Runs the client loop over {@code iters} on {@code d}, which must make it fail. */
    private static RunFailure clientFails(FakeDataPath d, long iters, int cqMod) {
        return assertThrows(RunFailure.class,
                () -> BwLoops.client(d, iterations(iters, 16, cqMod, 1), new Measurement(1, (int) iters + 2)));
    }

    @Test
    void aStalledPeerEndsTheRunWithinTheLimit() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        d.executeLimit = 50;
        RunFailure f = clientFails(d, 1000, 1);
        assertTrue(f.getMessage().contains("(50 of 1000 work requests completed): the peer or the link stalled"),
                f.getMessage());
        long lastProgress = d.sendPolls.getLast()[0];
        long waited = d.now - lastProgress;
        assertTrue(waited > STALL && waited < STALL + 200 * d.pollTick, "gave up after " + waited + " ns");
    }

    @Test
    void aFailedCompletionEndsTheRunWithItsStatus() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        d.failAt = 7;
        RunFailure f = clientFails(d, 100, 4);
        assertTrue(f.getMessage().startsWith("completion with error: status 12"), f.getMessage());
    }

    /** A peer that starts sending 50 messages after 20 polls, with 16 receives posted for them. */
    private static FakeDataPath latePeer() {
        FakeDataPath d = new FakeDataPath(1, 16, 16);
        d.peerMessages[0] = 50;
        d.peerFromPoll = 20;
        d.postRecv(0, 0, 16);
        return d;
    }

    @Test
    void bidirectionalServerHoldsItsSendsUntilTheFirstMessage() {
        FakeDataPath d = latePeer();
        Measurement m = new Measurement(1, 52);
        BwLoops.bidirectionalSend(d, iterations(50, 16, 4, 1), true, 16, m);
        assertTrue(d.firstReceiveAt > 0 && d.firstSendAt >= d.firstReceiveAt,
                "first send at " + d.firstSendAt + ", first receive at " + d.firstReceiveAt);
        assertEquals(50, m.rcnt[0]);
        assertEquals(50, m.ccnt[0]);
        assertEquals(0, d.receiverNotReady, "a receive was posted for every message");
        assertEquals(50, d.receivesPosted[0], "re-posted only while more messages were due");
    }

    @Test
    void bidirectionalClientSendsAtOnce() {
        FakeDataPath d = latePeer();
        BwLoops.bidirectionalSend(d, iterations(50, 16, 4, 1), false, 16, new Measurement(1, 52));
        assertTrue(d.firstSendAt >= 0 && d.firstSendAt < d.firstReceiveAt, "the client does not wait");
    }

    @Test
    void sendServerRepostsReceivesWhileMessagesAreDue() {
        FakeDataPath d = new FakeDataPath(2, 1, 16);
        d.peerMessages[0] = 100;
        d.peerMessages[1] = 100;
        d.peerPerPoll = 5;
        d.postRecv(0, 0, 16);
        d.postRecv(1, 0, 16);
        Measurement m = new Measurement(2, 1);
        long start = d.now;
        BwLoops.sendServer(d, iterations(100, 1, 1, 1), 16, m);
        for (int qp = 0; qp < 2; qp++) {
            assertEquals(100, m.rcnt[qp]);
            assertEquals(100, d.receivesPosted[qp], "16 posted before, 84 re-posted: one per message still due");
        }
        assertEquals(0, d.receiverNotReady, "the receive queue never ran dry");
        assertEquals(16, d.maxReceivesPosted);
        assertTrue(m.windowStart > start && m.windowEnd > m.windowStart, "timed from the first receive to the last");
    }

    @Test
    void sendServerWithoutMessagesEndsWithinTheLimit() {
        FakeDataPath d = new FakeDataPath(1, 1, 16);
        d.postRecv(0, 0, 16);
        RunFailure f = assertThrows(RunFailure.class,
                () -> BwLoops.sendServer(d, iterations(100, 1, 1, 1), 16, new Measurement(1, 1)));
        assertTrue(f.getMessage().contains("(0 of 100 received): the peer stopped sending"), f.getMessage());
    }

    @Test
    void sendServerInDurationModeWithoutMessagesSaysNoCountWasDue() {
        FakeDataPath d = new FakeDataPath(1, 1, 16);
        d.postRecv(0, 0, 16);
        RunFailure f = assertThrows(RunFailure.class,
                () -> BwLoops.sendServer(d, duration(1, 1, 10 * MS, 2 * MS), 16, new Measurement(1, 1)));
        assertTrue(f.getMessage().contains("(0 of ? received): the peer stopped sending"), f.getMessage());
    }

    @Test
    void sendServerInDurationModeEndsSoonAfterTheClientStops() {
        FakeDataPath d = new FakeDataPath(1, 1, 16);
        d.peerMessages[0] = 2000;
        d.postRecv(0, 0, 16);
        long stall = 10_000 * MS;
        BwSpec b = new BwSpec(0, 1, 1, 1, false, true, 10 * MS, 2 * MS, stall, 0, 0);
        Measurement m = new Measurement(1, 1);
        BwLoops.sendServer(d, b, 16, m);
        assertEquals(2000, m.rcnt[0]);
        long ended = d.now - d.firstReceiveAt;
        // Its duration and the quiet time after it: once it waited for the whole stall limit (10 s), and a Java
        // client's closing handshake could give up first.
        assertTrue(ended >= 10 * MS && ended < 1_000 * MS, "ended " + ended / MS + " ms after the first message");
    }

    /** A peer whose end a test sets, counting what this side told it. */
    private static class TestPeer implements PeerEnd {
        volatile boolean ended;
        int told;
        /** The peer ends once told (a perftest-java peer answers our close with its own). */
        boolean endsWhenTold;

        @Override
        public boolean ended() {
            return ended;
        }

        @Override
        public void endOurs() {
            told++;
            if (endsWhenTold) {
                ended = true;
            }
        }
    }

    private static BwSpec endless(int txDepth, int cqMod) {
        return new BwSpec(Long.MAX_VALUE, txDepth, cqMod, 1, false, true, 2 * MS, 0, STALL, 0, 0);
    }

    @Test
    void runInfinitelyStopsWhenThePeerEndsThenDrainsAndTellsIt() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        TestPeer peer = new TestPeer();
        int[] rows = {0};
        Measurement m = new Measurement(1, 2);
        BwLoops.clientInfinitely(d, endless(16, 4), m, (count, start, end) -> {
            if (++rows[0] == 2) {
                peer.ended = true;
            }
        }, new StopSignal(), peer, false);
        assertEquals(2, rows[0], "no row after the peer's end");
        assertEquals(1, peer.told, "the peer is told once");
        assertEquals(m.scnt[0] / 4 * 4, m.ccnt[0], "every signaled request completed before the return");
        assertEquals(0, d.unpolledSendCompletions());
    }

    @Test
    void runInfinitelyAfterThePeerEndedTakesAFailedCompletionAsItsQpsGone() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        TestPeer peer = new TestPeer();
        Measurement m = new Measurement(1, 2);
        BwLoops.clientInfinitely(d, endless(16, 1), m, (count, start, end) -> {
            peer.ended = true;
            d.failAt = d.executedTotal + 2;
        }, new StopSignal(), peer, false);
        assertEquals(1, peer.told);
        assertTrue(m.ccnt[0] < m.scnt[0], "the drain stopped at the failed completion");
    }

    /**
     * A peer that ended and took its QPs with it, where nothing of ours completes any more, not even with an error
     * (C perftest killed by Ctrl-C, on rxe, which retries writes to a vanished QP past the stall limit): the drain
     * ends without the stall failure, and the peer is told once.
     */
    @Test
    void runInfinitelyAfterThePeerEndedTakesSilenceAsItsQpsGone() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        TestPeer peer = new TestPeer();
        Measurement m = new Measurement(1, 2);
        BwLoops.clientInfinitely(d, endless(16, 1), m, (count, start, end) -> {
            peer.ended = true;
            d.executeLimit = d.executedTotal;
        }, new StopSignal(), peer, true);
        assertEquals(1, peer.told);
        assertTrue(m.ccnt[0] < m.scnt[0], "the drain stopped with requests still in flight");
    }

    @Test
    void runInfinitelyFailsOnAFailedCompletionWhileThePeerRuns() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        d.failAt = 50;
        RunFailure f = assertThrows(RunFailure.class, () -> BwLoops.clientInfinitely(d, endless(16, 1),
                new Measurement(1, 2), (count, start, end) -> { }, new StopSignal(), new TestPeer(), false));
        assertTrue(f.getMessage().contains("completion with error"), f.getMessage());
    }

    @Test
    void bidirectionalRunInfinitelyKeepsItsQpsUntilThePeerEnded() {
        FakeDataPath d = new FakeDataPath(1, 16, 1);
        StopSignal stop = new StopSignal();
        TestPeer answering = new TestPeer();
        answering.endsWhenTold = true;
        BwLoops.clientInfinitely(d, endless(16, 4), new Measurement(1, 2), (count, start, end) -> stop.stop(), stop,
                answering, true);
        assertTrue(answering.ended && answering.told == 1, "told, and returned once the peer ended");
        TestPeer silent = new TestPeer();
        StopSignal stop2 = new StopSignal();
        long before = System.nanoTime();
        BwLoops.clientInfinitely(new FakeDataPath(1, 16, 1), endless(16, 4), new Measurement(1, 2),
                (count, start, end) -> stop2.stop(), stop2, silent, true);
        assertTrue(System.nanoTime() - before >= STALL, "a peer that never ends is waited for up to the stall limit");
        assertEquals(1, silent.told);
    }

    @Test
    void sendServerRunInfinitelyRepostsAndPrintsUntilTheSenderEnds() {
        FakeDataPath d = new FakeDataPath(2, 1, 16);
        d.peerMessages[0] = Long.MAX_VALUE;
        d.peerMessages[1] = Long.MAX_VALUE;
        d.postRecv(0, 0, 16);
        d.postRecv(1, 0, 16);
        TestPeer peer = new TestPeer();
        java.util.List<Long> rows = new java.util.ArrayList<>();
        Measurement m = new Measurement(2, 1);
        BwLoops.sendServerInfinitely(d, endless(1, 1), m, (count, start, end) -> {
            rows.add(count);
            if (rows.size() == 3) {
                peer.ended = true;
            }
        }, new StopSignal(), peer);
        assertEquals(3, rows.size(), "no row after the sender's end");
        assertTrue(rows.stream().allMatch(c -> c > 0), "each interval counts received messages: " + rows);
        assertEquals(0, d.receiverNotReady, "every receive re-posted: the queue never ran dry");
        assertEquals(m.rcnt[0] + m.rcnt[1], m.counted);
        assertEquals(1, peer.told);
    }

    @Test
    void sendServerRunInfinitelyStoppedHereTellsTheSenderAndReceivesUntilItEnds() {
        FakeDataPath d = new FakeDataPath(1, 1, 16);
        d.peerMessages[0] = Long.MAX_VALUE;
        d.postRecv(0, 0, 16);
        StopSignal stop = new StopSignal();
        int[] rows = {0};
        long[] receivedAtStop = {0};
        Measurement m = new Measurement(1, 1);
        TestPeer peer = new TestPeer() {
            int asked;

            @Override
            public boolean ended() {
                // the sender drains for a while after it was told
                return told > 0 && ++asked > 200;
            }
        };
        BwLoops.sendServerInfinitely(d, endless(1, 1), m, (count, start, end) -> {
            if (++rows[0] == 2) {
                stop.stop();
                receivedAtStop[0] = m.rcnt[0];
            }
        }, stop, peer);
        assertEquals(2, rows[0], "no row after the stop");
        assertEquals(1, peer.told, "the sender is told at once");
        assertTrue(m.rcnt[0] > receivedAtStop[0], "it kept receiving while the sender drained");
        assertEquals(0, d.receiverNotReady);
    }

    @Test
    void sendServerRunInfinitelyFailsWhenTheSenderGoesQuiet() {
        FakeDataPath d = new FakeDataPath(1, 1, 16);
        d.peerMessages[0] = 100;
        d.postRecv(0, 0, 16);
        RunFailure f = assertThrows(RunFailure.class, () -> BwLoops.sendServerInfinitely(d, endless(1, 1),
                new Measurement(1, 1), (count, start, end) -> { }, new StopSignal(), new TestPeer()));
        assertTrue(f.getMessage().contains("(100 received): the peer stopped sending"), f.getMessage());
    }
}
