package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

/** {@code --threads}: the shares' measurements merged into the run's, by hand and after real loops on fakes. */
class ShareMergeTest {

    private static Measurement share(int qps, int samples) {
        Measurement m = new Measurement(qps, samples);
        m.clearStamps();
        return m;
    }

    @Test
    void completionsMergeInTimeAndEachCountGetsTheTimeItWasFirstReached() {
        Measurement a = share(1, 8);
        Measurement b = share(1, 6);
        a.tcompleted[3] = 10; // a reached 4 at 10, 8 at 30
        a.tcompleted[7] = 30;
        b.tcompleted[3] = 20; // b reached 4 at 20, 6 at 25 (a tail step of 2)
        b.tcompleted[5] = 25;
        a.tposted[0] = 1;
        a.tposted[4] = 5;
        b.tposted[0] = 2;
        b.tposted[4] = 3;
        Measurement into = new Measurement(2, 14);
        ShareMerge.timestamps(new Measurement[] {a, b}, new int[] {8, 6}, 4, false, into);
        assertArrayEquals(new long[] {10, 10, 10, 10, 20, 20, 20, 20, 25, 25, 30, 30, 30, 30}, into.tcompleted);
        assertArrayEquals(new long[] {1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 5, 5}, into.tposted,
                "the k-th post of the run is the k-th earliest of any share, one per post list of 4");
    }

    @Test
    void completionsThatDoNotAddUpFail() {
        Measurement a = share(1, 4);
        a.tcompleted[1] = 10; // reached only 2 of 4
        Measurement into = new Measurement(1, 4);
        assertThrows(RunFailure.class,
                () -> ShareMerge.timestamps(new Measurement[] {a}, new int[] {4}, 1, false, into));
    }

    @Test
    void withoutPeakTheRunIsFromTheEarliestPostToTheLatestCompletion() {
        Measurement a = share(1, 2);
        Measurement b = share(1, 2);
        a.tposted[0] = 100;
        a.tcompleted[0] = 900;
        b.tposted[0] = 90;
        b.tcompleted[0] = 800;
        Measurement into = new Measurement(2, 2);
        ShareMerge.timestamps(new Measurement[] {a, b}, new int[] {5, 5}, 1, true, into);
        assertEquals(90, into.tposted[0]);
        assertEquals(900, into.tcompleted[0]);
    }

    @Test
    void windowsSpanEveryShareAndCountsAdd() {
        Measurement a = share(1, 1);
        Measurement b = share(1, 1);
        a.windowStart = 10;
        a.windowEnd = 50;
        a.counted = 7;
        b.windowStart = 12;
        b.windowEnd = 55;
        b.counted = 9;
        Measurement into = new Measurement(2, 1);
        ShareMerge.windows(new Measurement[] {a, b}, into);
        assertEquals(10, into.windowStart);
        assertEquals(55, into.windowEnd);
        assertEquals(16, into.counted);
    }

    @Test
    void twoThreadsOnFakeDevicesCompleteExactlyAndMergeToOneConsistentRun() {
        QpShares s = new QpShares(5, 2);
        long iters = 200;
        int postList = 2;
        BwSpec b = new BwSpec(iters, 16, 4, postList, false, false, 0, 0, 5_000_000L, 0, 0);
        DataPath[] sides = new DataPath[2];
        Measurement[] ms = new Measurement[2];
        int[] counts = new int[2];
        for (int t = 0; t < 2; t++) {
            FakeDataPath d = new FakeDataPath(s.size(t), 16, 1);
            d.executedPerPoll = 3 + t; // the shares progress at different speeds
            sides[t] = d;
            counts[t] = (int) (iters * s.size(t));
            ms[t] = share(s.size(t), counts[t] + postList);
        }
        BwThreads.run(BwThreads.Loop.CLIENT, sides, ms, b, false, 1);
        Measurement into = new Measurement(5, 5 * 200 + postList);
        ShareMerge.counters(s, ms, into);
        for (int qp = 0; qp < 5; qp++) {
            assertEquals(iters, into.scnt[qp], "QP " + qp + " posted");
            assertEquals(iters, into.ccnt[qp], "QP " + qp + " completed");
        }
        ShareMerge.timestamps(ms, counts, postList, false, into);
        int n = 1000;
        for (int j = 1; j < n; j++) {
            assertTrue(into.tcompleted[j] >= into.tcompleted[j - 1], "completions in time order at " + j);
        }
        for (int k = postList; k < n; k += postList) {
            assertTrue(into.tposted[k] >= into.tposted[k - postList], "posts in time order at " + k);
        }
        long lastA = ms[0].tcompleted[counts[0] - 1];
        long lastB = ms[1].tcompleted[counts[1] - 1];
        assertEquals(Math.max(lastA, lastB), into.tcompleted[n - 1], "the run ends with the later share");
        assertEquals(Math.min(ms[0].tposted[0], ms[1].tposted[0]), into.tposted[0]);
        long[] posts = Arrays.copyOf(into.tposted, n);
        assertTrue(Arrays.stream(posts).noneMatch(v -> v == ShareMerge.UNSET), "every post slot filled");
    }

    @Test
    void aFailedShareFailsTheRunNamingItsThread() {
        QpShares s = new QpShares(2, 2);
        BwSpec b = new BwSpec(50, 8, 1, 1, false, true, 0, 0, 5_000_000L, 0, 0);
        FakeDataPath ok = new FakeDataPath(1, 8, 1);
        FakeDataPath bad = new FakeDataPath(1, 8, 1);
        bad.failAt = 10;
        Measurement[] ms = {share(1, 52), share(1, 52)};
        RunFailure f = assertThrows(RunFailure.class, () -> BwThreads.run(BwThreads.Loop.CLIENT,
                new DataPath[] {ok, bad}, ms, b, false, 1));
        assertTrue(f.getMessage().startsWith("thread 1 of 2: completion with error"), f.getMessage());
        assertEquals(50, ms[0].ccnt[0], "the other share ran to its end");
        assertEquals(2, s.threads());
    }
}
