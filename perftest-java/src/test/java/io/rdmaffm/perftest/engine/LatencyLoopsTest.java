package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The latency loops against a fake device in loopback (a QP connected to itself, as in the warm-up). */
class LatencyLoopsTest {
    private static final long MS = 1_000_000L;

    private static LatencySpec spec(long size, long iters, int rxDepth, boolean server, long durationNanos) {
        return new LatencySpec(size, iters, rxDepth, server, false, durationNanos, durationNanos / 4, 5 * MS, 0);
    }

    @Test
    void theLatencyGapIsSpunBeforeEachStampSoTheRoundTripsCountIt() {
        // --latency_gap: perftest spins before taking the post's timestamp, so each round trip includes the gap
        FakeDataPath plain = new FakeDataPath(1, 1, 1);
        Measurement quick = new Measurement(1, 11);
        LatencyLoops.oneSided(plain, spec(2, 10, 0, false, 0), quick);
        FakeDataPath gapped = new FakeDataPath(1, 1, 1);
        Measurement slow = new Measurement(1, 11);
        LatencyLoops.oneSided(gapped, new LatencySpec(2, 10, 0, false, false, 0, 0, 5 * MS, 3 * MS), slow);
        for (int i = 1; i < 10; i++) {
            assertTrue(quick.tposted[i] - quick.tposted[i - 1] < MS, "no gap: " + (quick.tposted[i] - quick.tposted[i - 1]));
            long delta = slow.tposted[i] - slow.tposted[i - 1];
            assertTrue(delta >= 3 * MS && delta < 4 * MS, "a 3 ms gap in each round trip: " + delta);
        }
        assertEquals(10, gapped.postedCount(0));
    }

    @Test
    void sendLatencyRoundTripsOneAtATime() {
        FakeDataPath d = new FakeDataPath(1, 1, 8);
        d.loopback = true;
        d.postRecv(0, 0, 8);
        Measurement m = new Measurement(1, 101);
        LatencyLoops.send(d, spec(2, 100, 8, false, 0), m);
        assertEquals(100, d.postedCount(0));
        assertEquals(1, d.maxOutstanding, "one send in flight at a time");
        assertEquals(100, d.receivesPosted[0], "receives re-posted only while more messages are due");
        assertEquals(0, d.receiverNotReady);
        for (int i = 1; i < 100; i++) {
            assertTrue(m.tposted[i] > m.tposted[i - 1], "one timestamp per round trip, in order");
        }
        for (int i = 0; i < 100; i++) {
            assertTrue(d.signaled(0, i), "every latency send is signaled");
        }
    }

    @Test
    void writeLatencyPollsTheLastByte() {
        FakeDataPath d = new FakeDataPath(1, 1, 1);
        d.loopback = true;
        d.messageSize = 64;
        Measurement m = new Measurement(1, 301);
        LatencyLoops.write(d, spec(64, 300, 0, true, 0), m);
        assertEquals(300, d.postedCount(0));
        assertEquals((byte) 300, d.memory().get(java.lang.foreign.ValueLayout.JAVA_BYTE, d.recvOffset(0) + 63));
    }

    @Test
    void writeLatencyWithASilentPeerEndsWithinTheLimit() {
        FakeDataPath d = new FakeDataPath(1, 1, 1);
        RunFailure f = assertThrows(RunFailure.class,
                () -> LatencyLoops.write(d, spec(2, 300, 0, false, 0), new Measurement(1, 301)));
        assertTrue(f.getMessage().startsWith("no RDMA write from the peer"), f.getMessage());
    }

    @Test
    void durationModeEndsOnASilentPeerLongBeforeTheClock() {
        // -D 3600 against a peer that died: the stall limit (5 ms here), not the hour, ends the wait
        long hour = 3_600_000 * MS;
        FakeDataPath w = new FakeDataPath(1, 1, 1);
        RunFailure fw = assertThrows(RunFailure.class,
                () -> LatencyLoops.writeDuration(w, spec(2, 0, 0, false, hour), new Measurement(1, 1)));
        assertTrue(fw.getMessage().startsWith("no peer RDMA write completion"), fw.getMessage());
        FakeDataPath s = new FakeDataPath(1, 1, 1);
        long start = s.now;
        RunFailure fs = assertThrows(RunFailure.class,
                () -> LatencyLoops.sendDuration(s, spec(8, 0, 1, true, hour), new Measurement(1, 1)));
        assertTrue(fs.getMessage().startsWith("no receive completion"), fs.getMessage());
        assertTrue(s.now - start < 1000 * MS, "waited " + (s.now - start) + " ns of fake time");
    }

    @Test
    void oneSidedLatencyStallsOnAMissingCompletion() {
        FakeDataPath d = new FakeDataPath(1, 1, 1);
        d.executeLimit = 10;
        RunFailure f = assertThrows(RunFailure.class,
                () -> LatencyLoops.oneSided(d, spec(2, 100, 0, false, 0), new Measurement(1, 101)));
        assertEquals("no operation completion for 0 s: the peer or the link stalled", f.getMessage());
        assertEquals(11, d.postedCount(0), "the eleventh never completed");
    }

    @Test
    void durationCountsRoundTripsInsideTheWindowOnly() {
        FakeDataPath d = new FakeDataPath(1, 1, 1);
        long start = d.now;
        Measurement m = new Measurement(1, 1);
        LatencyLoops.oneSidedDuration(d, spec(8, 0, 0, false, 8 * MS), m);
        assertTrue(m.windowStart >= start + 2 * MS && m.windowStart < start + 2 * MS + 50_000, "window start");
        assertTrue(m.windowEnd >= start + 6 * MS && m.windowEnd < start + 6 * MS + 50_000, "window end");
        long rounds = d.postedCount(0);
        assertTrue(d.now >= start + 8 * MS, "ran for the whole duration");
        // Each round trip costs the same virtual time: the window holds its share of them.
        double share = (double) m.counted / rounds;
        assertTrue(Math.abs(share - 0.5) < 0.01, m.counted + " of " + rounds + " counted");
    }
}
