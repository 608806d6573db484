package io.rdmaffm.perftest.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code --rate} (docs/fabric-design.md §12): its syntax, the gap it makes per iteration, the pacer on a fake
 * clock, and the rules the worker and the driver share.
 */
class SendRateTest {

    @Test
    void bitsPerSecondWithADecimalUnit() {
        assertEquals(25_000_000_000L, SendRate.parse("25G").bitsPerSecond());
        assertEquals(25_000_000_000L, SendRate.parse("25Gb/s").bitsPerSecond());
        assertEquals(25_000_000_000L, SendRate.parse("25gbps").bitsPerSecond());
        assertEquals(800_000_000L, SendRate.parse("800Mbps").bitsPerSecond());
        assertEquals(2_500_000_000L, SendRate.parse("2.5 Gb/s").bitsPerSecond());
        assertEquals(2_500_000_000L, SendRate.parse("2.5Gbit/s").bitsPerSecond());
        assertEquals(500_000L, SendRate.parse("500K").bitsPerSecond());
        assertEquals(1_000_000_000_000L, SendRate.parse("1T").bitsPerSecond());
        assertEquals(1234L, SendRate.parse("1234b/s").bitsPerSecond());
    }

    @Test
    void badRatesAreOneLineNamingWhatWouldDo() {
        assertEquals("--rate '25': give the unit (e.g. 25G for 25 Gb/s, 25M for 25 Mb/s)", bad("25"));
        assertEquals("--rate '25GB/s': --rate is in bits per second (Gb/s, as port rates), not bytes (e.g. 25G,"
                + " 25Gb/s, 800Mbps, 2.5Gbit/s: bits per second, decimal K/M/G/T)", bad("25GB/s"));
        assertTrue(bad("3MiB/s").contains("not bytes"), bad("3MiB/s"));
        assertEquals("--rate '0G' must be above 0 b/s", bad("0G"));
        assertEquals("--rate '0.0001b/s' must be above 0 b/s", bad("0.0001b/s"));
        assertTrue(bad("-1G").startsWith("--rate '-1G' (e.g. 25G"), bad("-1G"));
        assertTrue(bad("fast").startsWith("--rate 'fast'"), bad("fast"));
        assertTrue(bad("99999999999T").endsWith("is too large"), bad("99999999999T"));
        assertTrue(bad("1G\u001b[2J").contains("\\u001b"), "escaped: " + bad("1G\u001b[2J"));
    }

    private static String bad(String text) {
        return assertThrows(IllegalArgumentException.class, () -> SendRate.parse(text)).getMessage();
    }

    @Test
    void theWorkersArgumentParsesBackExactly() {
        for (long bits : new long[] {1, 999, 1000, 500_000, 2_500_000_000L, 25_000_000_000L, 1_234_567_891L,
                400_000_000_000L, 3_000_000_000_000L}) {
            SendRate r = new SendRate(bits);
            assertEquals(bits, SendRate.parse(r.arg()).bitsPerSecond(), r.arg());
            assertEquals(bits, SendRate.parse(r.text()).bitsPerSecond(), r.text());
        }
        assertEquals("2.5Gb/s", new SendRate(2_500_000_000L).arg());
        assertEquals("800 Mb/s", new SendRate(800_000_000L).text());
        assertEquals("999 b/s", new SendRate(999).text());
    }

    @Test
    void theGapIsTheBytesAtTheRateRoundedUp() {
        // 4 KiB at 500 kb/s: 32768 bits / 5e5 = 65.536 ms exactly.
        assertEquals(65_536_000L, SendRate.parse("500K").gapNanos(4096));
        // 1 B at 3 b/s: 8/3 s, rounded up so that the rate is never passed.
        assertEquals(2_666_666_667L, new SendRate(3).gapNanos(1));
        // 1 MiB at 400 Gb/s: 20.97152 us.
        assertEquals(20_972L, SendRate.parse("400G").gapNanos(1 << 20));
        // all-to-all over 2,048 hosts of 2 GiB each at 1 b/s: no overflow, the longest gap there is.
        assertEquals(Long.MAX_VALUE, new SendRate(1).gapNanos(2047L * Integer.MAX_VALUE));
    }

    @Test
    void aboveThePortIsAboveItsRateOnly() {
        assertTrue(SendRate.parse("2.6G").above(2.5));
        assertTrue(!SendRate.parse("2.5G").above(2.5), "the port rate itself is allowed");
        assertTrue(!SendRate.parse("56G").above(56));
    }

    @Test
    void thePacerHoldsATimedIterationForAGapOnAFakeClock() {
        AtomicLong now = new AtomicLong(1_000);
        AtomicInteger reads = new AtomicInteger();
        SendPacer p = new SendPacer(10_000, () -> {
            reads.incrementAndGet();
            return now.getAndAdd(3_000);
        });
        p.begin(); // at 1000
        long began = 1_000;
        p.hold();
        // read at 4000 (3000 in), 7000, 10000, 13000: 12000 >= 10000
        assertEquals(5, reads.get());
        assertTrue(now.get() - 3_000 - began >= 10_000, "released once a gap had passed");
        // an iteration that took longer than the gap is not held at all
        p.begin();
        now.addAndGet(50_000);
        int before = reads.get();
        p.hold();
        assertEquals(before + 1, reads.get(), "one look at the clock");
    }

    @Test
    void withoutACapThePacerNeverReadsTheClock() {
        SendPacer p = new SendPacer(0, () -> {
            throw new AssertionError("clock read without a cap");
        });
        p.begin();
        p.hold();
        assertEquals(SendPacer.NONE, SendPacer.of(null, 4096));
        assertEquals(SendPacer.NONE, SendPacer.of(SendRate.parse("1G"), 0), "a rank that sends nothing");
        assertEquals(65_536_000L, SendPacer.of(SendRate.parse("500K"), 4096).gapNanos());
    }

    /** A sender's lane, fake links and clock: warm-up unpaced; each timed iteration begins, writes, then is held. */
    @Test
    void aSendersLanePacesOnlyItsTimedIterations() {
        FabricOptions o = opts(FabricPattern.INCAST, 1, SendRate.parse("8Kb/s"));
        FabricWorker.Plan plan = FabricWorker.plan(o);
        AtomicLong now = new AtomicLong();
        AtomicInteger reads = new AtomicInteger();
        AtomicInteger writes = new AtomicInteger();
        long gap = o.rate().gapNanos(plan.sendsPerIteration * o.bytes()); // 100 B at 8 kb/s: 0.1 s
        assertEquals(100_000_000L, gap);
        SendPacer pacer = new SendPacer(gap, () -> {
            reads.incrementAndGet();
            return now.getAndAdd(gap / 4);
        });
        PeerLane lane = new PeerLane(plan, senderLinks(writes), 0, o.bytes(), pacer);
        lane.iteration(0);
        assertEquals(0, reads.get(), "warm-up is not paced");
        lane.timed(true);
        long t0 = now.get();
        lane.iteration(1);
        assertEquals(2, writes.get());
        assertTrue(now.get() - t0 >= gap, "held a gap: " + (now.get() - t0));
        assertEquals(1 + 4, reads.get(), "begin, then until a gap had passed");
        lane.timed(false);
        int r = reads.get();
        lane.iteration(2);
        assertEquals(r, reads.get(), "the check's iteration is not paced");
    }

    /**
     * On the real clock through {@link LaneThreads} with two threads, an incast sender: every timed iteration lasts
     * at least the gap, so the rank's send rate (the result's send_rate_Gbps) is at most the cap.
     */
    @Test
    void everyTimedIterationLastsAtLeastTheGapSoTheRateHolds() {
        SendRate cap = SendRate.parse("80Mb/s"); // 20 kB per iteration: 2 ms
        FabricOptions o = new FabricOptions(FabricPattern.INCAST, 1, 3, "h", 1, null, 1, -1, 20_000, 5, 1, true,
                0, 60, 10, 2, new long[] {20_000}, false, cap).validate();
        FabricWorker.Plan plan = FabricWorker.plan(o);
        long[] share = FabricWorker.laneShares(o, plan);
        SendPacer pacer = SendPacer.of(cap, plan.sendsPerIteration * o.bytes());
        assertEquals(2_000_000L, pacer.gapNanos());
        LaneWork[] lanes = new LaneWork[2];
        for (int t = 0; t < 2; t++) {
            lanes[t] = new PeerLane(plan, senderLinks(new AtomicInteger()), share[t], share[t + 1] - share[t],
                    SendPacer.of(cap, plan.sendsPerIteration * o.bytes()));
        }
        LaneGate gate = new LaneGate(2, 6, TimeUnit.SECONDS.toNanos(10), null);
        long[] times = LaneThreads.run(lanes, gate, 1, 5, false);
        for (long t : times) {
            assertTrue(t >= 2_000_000L, "an iteration of " + t + " ns, below the 2 ms gap");
        }
        FabricResult res = new FabricResult(o, "h");
        res.iterationNanos = times;
        res.merge(lanes);
        assertEquals(5L * 20_000, res.bytesSent);
        assertTrue(res.sendRateGbps() <= cap.gbps(), res.sendRateGbps() + " Gb/s");
        assertTrue(res.line().contains("\"rate_cap_Gbps\":0.08"), res.line());
    }

    @Test
    void ringPatternsTakeNoRateAndThePacedIterationsMustFitTheirTime() {
        assertEquals("--rate paces incast, alltoall and bisection senders, not allreduce (a ring runs in lock-step:"
                + " docs/fabric-design.md §12)", FabricOptions.rateProblem(FabricPattern.ALLREDUCE, 3, 12, 1,
                SendRate.parse("1G"), 1_000_000_000L, "--step-timeout"));
        assertNull(FabricOptions.rateProblem(FabricPattern.ALLREDUCE, 3, 12, 1, null, 1, "x"));
        // all-to-all over 4 ranks: 3 x 1 MB per sender per iteration; at 8 Mb/s 3 s each, 20 of them 60 s
        assertEquals("--rate 8 Mb/s: 20 iterations of 3000000 B per sender take at least 60.0 s at that rate, not"
                + " within --test-timeout 30 s", FabricOptions.rateProblem(FabricPattern.ALLTOALL, 4, 1_000_000, 20,
                SendRate.parse("8M"), 30_000_000_000L, "--test-timeout"));
        assertNull(FabricOptions.rateProblem(FabricPattern.ALLTOALL, 4, 1_000_000, 20, SendRate.parse("8M"),
                61_000_000_000L, "--test-timeout"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> opts(FabricPattern.INCAST, 1, SendRate.parse("8b/s")));
        assertEquals("--rate 8 b/s: 1 iteration of 100 B per sender takes at least 100.0 s at that rate, not within"
                + " --step-timeout 10 s", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new FabricOptions(FabricPattern.ALLGATHER, 0, 2, "h", 1,
                null, 1, -1, 8, 1, 0, true, 0, 60, 10, 1, new long[] {8}, false, SendRate.parse("1G")).validate());
    }

    private static FabricOptions opts(FabricPattern p, int rank, SendRate rate) {
        return new FabricOptions(p, rank, 3, "h", 1, null, 1, -1, 100, 3, 1, true, 0, 60, 10, 1, new long[] {100}, false,
                rate).validate();
    }

    /** A sender's links that only count its writes (a sender awaits no immediate). */
    private static PeerLinks senderLinks(AtomicInteger writes) {
        return new PeerLinks() {
            @Override
            public void write(int link, long from, long bytes, long to, int imm) {
                writes.incrementAndGet();
            }

            @Override
            public int awaitImm(int link) {
                throw new AssertionError("a sender awaits no immediate");
            }

            @Override
            public void awaitAllSends() {
            }

            @Override
            public void timeWrites(boolean on) {
            }
        };
    }
}
