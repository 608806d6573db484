package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Verb;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Bandwidth and latency figures on timestamp arrays whose results are worked out by hand. */
class ArithmeticTest {
    private static final double NS = 1e9;
    private static final long MIB = 1 << 20;

    @Test
    void bandwidthByHand() {
        // 4 posts 10 ns apart, completions at 100..130 ns.
        long[] posted = {0, 10, 20, 30};
        long[] completed = {100, 110, 120, 130};
        BwReport r = BwArithmetic.iterations(MIB, 4, posted, completed, 1, 1, false, BwUnit.MB_PER_SEC, NS);
        // avg: 4 MiB in 130 ns = 4e9/130 MiB/s; rate: 4 msgs in 130 ns.
        assertEquals(4e9 / 130, r.bwAvg(), 1e-6);
        assertEquals(4e9 / 130 / 1e6, r.msgRate(), 1e-12);
        // peak: best (t_completed[j] - t_posted[i]) / (j - i + 1) in integer ns is 130/4 -> 32.
        assertEquals(1e9 / 32, r.bwPeak(), 1e-6);
        assertEquals(4, r.iters());
        assertEquals(MIB, r.size());
    }

    @Test
    void noPeakUsesTheFirstCompletionSlotAsEnd() {
        long[] posted = {1000, 0, 0, 0};
        long[] completed = {3000, 0, 0, 0};
        BwReport r = BwArithmetic.iterations(65536, 4, posted, completed, 1, 100, true, BwUnit.MB_PER_SEC, NS);
        assertEquals(0.0, r.bwPeak());
        assertEquals(65536.0 * 4 * 1e9 / (2000.0 * MIB), r.bwAvg(), 1e-6);
    }

    @Test
    void cqModerationOnlyReadsRecordedCompletions() {
        // cqMod 2, n 5: completion stamps exist at indices 1, 3 and (last, signaled) 4; the others are junk
        // that must never be read (set to 0, which would give a negative delta and a huge peak).
        long[] posted = {0, 10, 20, 30, 40};
        long[] completed = {0, 60, 0, 90, 100};
        BwReport r = BwArithmetic.iterations(1000, 5, posted, completed, 1, 2, false, BwUnit.MB_PER_SEC, NS);
        // candidates (i,j): (0,1)=30 (0,3)=22 (0,4)=20 (1,1)=50 (1,3)=26 (1,4)=22 (2,3)=35 (2,4)=26
        // (3,3)=60 (3,4)=35 (4,4)=60 -> min 20
        assertEquals(1000.0 * 1e9 / (20.0 * MIB), r.bwPeak(), 1e-9);
    }

    @Test
    void gigabitsUseTenToTheNineBits() {
        long[] posted = {0, 0};
        long[] completed = {1000, 1000};
        BwReport r = BwArithmetic.iterations(125, 2, posted, completed, 1, 1, true, BwUnit.GB_PER_SEC, NS);
        // 250 bytes in 1 us = 2000 Mbit/s = 2 Gb/s.
        assertEquals(2.0, r.bwAvg(), 1e-12);
    }

    @Test
    void peakMatchesABruteForceSearchOnRandomTimestamps() {
        Random rnd = new Random(42);
        int n = 300;
        for (int[] cfg : new int[][] {{1, 1}, {1, 7}, {4, 4}, {2, 10}}) {
            int postList = cfg[0];
            int cqMod = cfg[1];
            long[] posted = new long[n];
            long[] completed = new long[n];
            long t = 0;
            for (int i = 0; i < n; i++) {
                t += 1 + rnd.nextInt(50);
                posted[i] = t;
                completed[i] = t + 100 + rnd.nextInt(400);
            }
            long best = Long.MAX_VALUE;
            for (int i = 0; i < n; i++) {
                if (i % postList != 0) {
                    continue;
                }
                for (int j = i; j < n; j++) {
                    boolean recorded = (j + 1) % cqMod == 0 || j == n - 1;
                    if (recorded) {
                        best = Math.min(best, (completed[j] - posted[i]) / (j - i + 1));
                    }
                }
            }
            BwReport r = BwArithmetic.iterations(4096, n, posted, completed, postList, cqMod, false,
                    BwUnit.MB_PER_SEC, NS);
            assertEquals((double) (4096L * 1_000_000_000L) / (best * MIB), r.bwPeak(), 0.0,
                    "postList " + postList + " cqMod " + cqMod);
        }
    }

    @Test
    void bwDurationMode() {
        BwReport r = BwArithmetic.duration(MIB, 3000, 5_000_000_000L, 8_000_000_000L, BwUnit.MB_PER_SEC, NS);
        assertEquals(1000.0, r.bwAvg(), 1e-9);
        assertEquals(0.001, r.msgRate(), 1e-15);
        assertEquals(0.0, r.bwPeak());
    }

    private static long[] postsFromDeltas(long... deltas) {
        long[] t = new long[deltas.length + 1];
        for (int i = 0; i < deltas.length; i++) {
            t[i + 1] = t[i] + deltas[i];
        }
        return t;
    }

    @Test
    void latencyByHand() {
        // 8 iterations -> 7 round trips; write halves them (q = 2000 ns per us).
        long[] posted = postsFromDeltas(2000, 100000, 4000, 6000, 50000, 8000, 10000);
        LatencyResult r = LatencyArithmetic.iterations(posted, 8, Verb.WRITE, 1000);
        // sorted: 2000 4000 6000 8000 10000 50000 100000; two largest dropped -> n = 5
        assertEquals(1.0, r.tMin());
        assertEquals(25.0, r.tMax()); // delta[5] = 50000: the second largest
        assertEquals(3.0, r.typical()); // n odd: delta[2]
        assertEquals(3.0, r.avg());
        assertEquals(Math.sqrt(10.0 / 5), r.stdev(), 1e-12); // deviations 2,1,0,-1,-2
        assertEquals(25.0, r.p99()); // ceil(4.95) = 5
        assertEquals(25.0, r.p999());
    }

    @Test
    void latencyQuirksEvenMedianAndTruncatedDeviations() {
        // read: q = 1000 ns per us. Samples 1000 1001 1002 2800 + two large ones.
        long[] posted = postsFromDeltas(2800, 1001, 9000, 1000, 8000, 1002);
        LatencyResult r = LatencyArithmetic.iterations(posted, 7, Verb.READ, 1000);
        // n = 4 (even): median = (delta[2] + delta[1]) / 2 in integer ns = (1002 + 1001) / 2 = 1001
        assertEquals(1.001, r.typical(), 1e-12);
        double avg = (1.0 + 1.001 + 1.002 + 2.8) / 4;
        assertEquals(avg, r.avg(), 1e-12);
        // deviations 0.45.., 0.45.., 0.45.., -1.3.. truncate to 0, 0, 0, -1 -> sqrt(1/4)
        assertEquals(0.5, r.stdev(), 1e-12);
        assertEquals(8.0, r.tMax()); // delta[4] = 8000
        assertEquals(8.0, r.p99()); // ceil(3.96) = 4
    }

    @Test
    void with1000IterationsThe999thPercentileIsTMax() {
        Random rnd = new Random(7);
        long[] posted = new long[1000];
        for (int i = 1; i < posted.length; i++) {
            posted[i] = posted[i - 1] + 1000 + rnd.nextInt(5000);
        }
        long[] sorted = new long[999];
        for (int i = 0; i < 999; i++) {
            sorted[i] = posted[i + 1] - posted[i];
        }
        java.util.Arrays.sort(sorted);
        LatencyResult r = LatencyArithmetic.iterations(posted, 1000, Verb.SEND, 1000);
        // n = 997: p99 index ceil(987.03) = 988; p99.9 index ceil(996.003) = 997 = the t_max index
        assertEquals(sorted[988] / 2000.0, r.p99());
        assertEquals(sorted[997] / 2000.0, r.tMax());
        assertEquals(sorted[997] / 2000.0, r.p999());
        assertEquals(r.tMax(), r.p999());
        assertEquals(sorted[0] / 2000.0, r.tMin());
        assertEquals(sorted[498] / 2000.0, r.typical()); // n odd: delta[n / 2]
    }

    @Test
    void latencyDurationMode() {
        DurationLatency d = LatencyArithmetic.duration(0, 1_000_000_000L, 1000, Verb.SEND, 1000);
        assertEquals(500.0, d.avgUsec(), 1e-9); // 1 s / 1000 round trips / 2
        assertEquals(1000.0, d.tps(), 1e-9);
        DurationLatency r = LatencyArithmetic.duration(0, 1_000_000_000L, 1000, Verb.READ, 1000);
        assertEquals(1000.0, r.avgUsec(), 1e-9);
    }
}
