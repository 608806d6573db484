package io.rdmaffm.perftest.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code --threads}: every pattern run by in-memory ranks (each rank a thread, its lanes {@link LaneThreads}' own
 * threads, the same {@link PeerLane} and {@link RingRank} code as on RDMA, the worker's plan and lane shares) with
 * T = 1 and T = 2 and 3: every rank's memory afterwards byte for byte the same, the same bytes written, and the
 * merged result ({@link FabricResult#merge}) the same sums, byte counts and {@code #wrong} 0.
 */
class FabricLanesTest {
    private static final int WARMUP = 1;
    private static final int ITERS = 3;

    /** What one run left: each rank's memory, the bytes each rank wrote, the merged results. */
    record Outcome(byte[][] memory, long[] written, long[] timedWrites, long[] bytesSent, long[] bytesReceived,
            Long[] wrong) {
    }

    private static FabricOptions opts(FabricPattern p, int rank, int ranks, long bytes, int threads) {
        return new FabricOptions(p, rank, ranks, "h", 1, null, 1, -1, bytes, ITERS, WARMUP, true, 1, 60, 10, threads)
                .validate();
    }


    /** Runs the pattern on n in-memory ranks with T threads each. */
    static Outcome run(FabricPattern p, int n, long bytes, int threads) throws Exception {
        FabricWorker.Plan[] plans = new FabricWorker.Plan[n];
        FabricOptions[] os = new FabricOptions[n];
        for (int r = 0; r < n; r++) {
            os[r] = opts(p, r, n, bytes, threads);
            plans[r] = FabricWorker.plan(os[r]);
        }
        try (Arena arena = Arena.ofShared(); ExecutorService pool = Executors.newFixedThreadPool(n)) {
            MemorySegment[] mem = new MemorySegment[n];
            for (int r = 0; r < n; r++) {
                mem[r] = arena.allocate(Math.max(plans[r].regionBytes, 4), 4);
                // non-ring: the send slot (offset 0) holds bytes only this rank has
                if (!p.ring()) {
                    for (long i = 0; i < bytes; i++) {
                        mem[r].set(ValueLayout.JAVA_BYTE, i, (byte) (r * 37 + i * 11 + 1));
                    }
                }
            }
            InMemoryFabric fabric = new InMemoryFabric(plans, mem, threads);
            FabricResult[] results = new FabricResult[n];
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                long[] share = FabricWorker.laneShares(os[r], plans[r]);
                LaneWork[] work = new LaneWork[threads];
                for (int t = 0; t < threads; t++) {
                    if (p.ring()) {
                        RingRank ring = new RingRank(r, p, true, plans[r].layout, mem[r], fabric.ring(r, t), share[t],
                                share[t + 1] - share[t]);
                        ring.fillInput();
                        work[t] = ring;
                    } else {
                        work[t] = new PeerLane(plans[r], fabric.peer(r, t), share[t], share[t + 1] - share[t]);
                    }
                }
                results[r] = new FabricResult(os[r], "h" + r);
                LaneGate gate = new LaneGate(threads, WARMUP + ITERS + (p.ring() ? 1 : 0),
                        TimeUnit.SECONDS.toNanos(10), null);
                done.add(pool.submit(() -> {
                    long[] times = LaneThreads.run(work, gate, WARMUP, ITERS, p.ring());
                    assertEquals(ITERS, times.length);
                    for (long t : times) {
                        assertTrue(t >= 0, "an iteration's time");
                    }
                    results[rank].merge(work);
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
            byte[][] memory = new byte[n][];
            long[] w = new long[n];
            long[] tw = new long[n];
            long[] sent = new long[n];
            long[] received = new long[n];
            Long[] wrong = new Long[n];
            for (int r = 0; r < n; r++) {
                memory[r] = mem[r].toArray(ValueLayout.JAVA_BYTE);
                for (int t = 0; t < threads; t++) {
                    w[r] += fabric.written[r][t];
                    tw[r] += fabric.timedWrites[r][t];
                }
                sent[r] = results[r].bytesSent;
                received[r] = results[r].bytesReceived;
                wrong[r] = results[r].wrong;
            }
            return new Outcome(memory, w, tw, sent, received, wrong);
        }
    }

    @ParameterizedTest
    @EnumSource(FabricPattern.class)
    void twoAndThreeThreadsGiveWhatOneGives(FabricPattern p) throws Exception {
        int n = p == FabricPattern.BISECTION ? 4 : 3;
        // uneven shares: 7 bytes per link; ring chunks of 5 float32 elements
        long bytes = p.ring() ? 4L * n * 5 : 7;
        Outcome one = run(p, n, bytes, 1);
        for (int threads = 2; threads <= 3; threads++) {
            Outcome more = run(p, n, bytes, threads);
            for (int r = 0; r < n; r++) {
                String at = p.id() + " T=" + threads + " rank " + r;
                assertArrayEquals(one.memory()[r], more.memory()[r], at + ": memory after the run");
                assertEquals(one.written()[r], more.written()[r], at + ": bytes written");
                assertEquals(threads * one.timedWrites()[r], more.timedWrites()[r],
                        at + ": timed writes (each transfer one write per lane)");
                assertEquals(one.bytesSent()[r], more.bytesSent()[r], at + ": merged bytes_sent");
                assertEquals(one.bytesReceived()[r], more.bytesReceived()[r], at + ": merged bytes_received");
                assertEquals(one.wrong()[r], more.wrong()[r], at + ": merged #wrong");
            }
        }
        for (int r = 0; r < n; r++) {
            FabricWorker.Plan plan = FabricWorker.plan(opts(p, r, n, bytes, 1));
            if (p.ring()) {
                assertEquals(0L, one.wrong()[r], p.id() + " rank " + r + " #wrong");
                long perIteration = p.steps(n) * bytes / n;
                assertEquals(perIteration * ITERS, one.bytesSent()[r]);
                assertEquals(perIteration * (WARMUP + ITERS + 1), one.written()[r], "warm-up, timed, check");
                assertEquals((long) p.steps(n) * ITERS, one.timedWrites()[r], "timed writes: not warm-up or check");
            } else {
                assertEquals(plan.sendsPerIteration * bytes * ITERS, one.bytesSent()[r]);
                assertEquals(plan.receivesPerIteration * bytes * ITERS, one.bytesReceived()[r]);
                assertEquals(plan.sendsPerIteration * bytes * (WARMUP + ITERS), one.written()[r]);
                assertEquals(plan.sendsPerIteration * ITERS, one.timedWrites()[r], "timed writes: not warm-up");
                // every slot written into holds its sender's bytes
                for (int i = 0; i < plan.peers.length; i++) {
                    if (plan.receives[i]) {
                        int q = plan.peers[i];
                        for (int b = 0; b < bytes; b++) {
                            assertEquals((byte) (q * 37 + b * 11 + 1), one.memory()[r][(int) plan.offsets[i] + b],
                                    p.id() + " rank " + r + " slot from rank " + q + " byte " + b);
                        }
                    }
                }
            }
        }
    }

    /**
     * A sweep, and a rotating incast, through the worker's own per-case code ({@link FabricWorker#caseWork}): n
     * in-memory ranks keep one set of links (each rank's plan laid out for the largest size) and run every case in
     * turn, meeting between cases as the worker's barrier makes them; each case's result is kept as the worker keeps
     * it ({@link FabricResult#addCase}).
     */
    static FabricResult[] runCases(FabricPattern p, int n, long[] sizes, boolean rotate, int threads,
            MemorySegment[] memOut) throws Exception {
        FabricWorker.Plan[] plans = new FabricWorker.Plan[n];
        FabricOptions[] os = new FabricOptions[n];
        long max = sizes[sizes.length - 1];
        for (int r = 0; r < n; r++) {
            os[r] = new FabricOptions(p, r, n, "h", 1, null, 1, -1, max, ITERS, WARMUP, true, 0, 60, 10, threads,
                    sizes, rotate, null).validate();
            plans[r] = FabricWorker.plan(os[r]);
        }
        Arena arena = Arena.ofShared();
        MemorySegment[] mem = memOut;
        for (int r = 0; r < n; r++) {
            mem[r] = arena.allocate(Math.max(plans[r].regionBytes, 4), 4);
            if (!p.ring()) {
                for (long i = 0; i < plans[r].regionBytes; i++) {
                    mem[r].set(ValueLayout.JAVA_BYTE, i, (byte) (r * 37 + i * 11 + 1));
                }
            }
        }
        InMemoryFabric fabric = new InMemoryFabric(plans, mem, threads);
        java.util.concurrent.CyclicBarrier between = new java.util.concurrent.CyclicBarrier(n);
        FabricResult[] results = new FabricResult[n];
        try (ExecutorService pool = Executors.newFixedThreadPool(n)) {
            List<Future<?>> done = new ArrayList<>();
            for (int r = 0; r < n; r++) {
                int rank = r;
                FabricWorker.Plan me = plans[r];
                RingLinks[] ring = new RingLinks[threads];
                PeerLinks[] peer = new PeerLinks[threads];
                for (int t = 0; t < threads; t++) {
                    ring[t] = fabric.ring(r, t);
                    peer[t] = fabric.peer(r, t);
                }
                results[r] = new FabricResult(os[r], "h" + r);
                LaneGate gate = new LaneGate(threads, WARMUP + ITERS + 1, TimeUnit.SECONDS.toNanos(10), null);
                done.add(pool.submit(() -> {
                    RingRank[] previous = new RingRank[threads];
                    for (long size : sizes) {
                        for (int target : os[rank].targets()) {
                            LaneWork[] work = FabricWorker.caseWork(os[rank], me, size, target, mem[rank],
                                    t -> ring[t], t -> peer[t], previous);
                            between.await(10, TimeUnit.SECONDS);
                            long[] times = LaneThreads.run(work, gate, WARMUP, ITERS, p.ring());
                            results[rank].addCase(size, target, me.forTarget(rank, target).role, times, work,
                                    me.peers, null);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        return results;
    }

    @ParameterizedTest
    @EnumSource(value = FabricPattern.class, names = {"ALLREDUCE", "REDUCESCATTER", "ALLGATHER", "ALLTOALL"})
    void aSweepRunsEverySizeOverOneSetOfLinksWithTheSumsRight(FabricPattern p) throws Exception {
        int n = 3;
        // ring: 24, 48, 96 bytes (chunks of 2, 4, 8 elements; the carried credits cross sizes); others 7, 14, 28
        long[] sizes = p.ring() ? new long[] {24, 48, 96} : new long[] {7, 14, 28};
        MemorySegment[] mem = new MemorySegment[n];
        FabricResult[] res = runCases(p, n, sizes, false, 2, mem);
        for (int r = 0; r < n; r++) {
            assertEquals(sizes.length, res[r].cases.size(), "a case per size");
            long total = 0;
            for (int i = 0; i < sizes.length; i++) {
                FabricResult.Case c = res[r].cases.get(i);
                assertEquals(sizes[i], c.bytes());
                assertEquals(-1, c.target());
                assertEquals(ITERS, c.iterationNanos().length);
                long perIteration = p.ring() ? p.steps(n) * sizes[i] / n : (n - 1) * sizes[i];
                assertEquals(perIteration * ITERS, c.bytesSent(), p.id() + " rank " + r + " size " + sizes[i]);
                total += c.bytesSent();
                if (p.ring()) {
                    assertEquals(0L, c.wrong(), p.id() + " rank " + r + " size " + sizes[i] + " #wrong");
                }
            }
            assertEquals(total, res[r].bytesSent, "the run's bytes: every case's");
            assertEquals(p.ring() ? Long.valueOf(0) : null, res[r].wrong);
        }
    }

    @Test
    void aRotatingIncastMakesEveryRankTheTargetOnceOverOneSetOfLinks() throws Exception {
        int n = 3;
        long m = 9;
        MemorySegment[] mem = new MemorySegment[n];
        FabricResult[] res = runCases(FabricPattern.INCAST, n, new long[] {5, m}, true, 2, mem);
        for (int r = 0; r < n; r++) {
            FabricWorker.Plan plan = FabricWorker.plan(new FabricOptions(FabricPattern.INCAST, r, n, "h", 1, null,
                    1, -1, m, ITERS, WARMUP, true, 0, 60, 10, 2, new long[] {5, m}, true, null));
            assertEquals(n - 1, plan.peers.length, "a link to every other rank");
            assertEquals(2 * n, res[r].cases.size(), "a case per size and target");
            for (int i = 0; i < res[r].cases.size(); i++) {
                FabricResult.Case c = res[r].cases.get(i);
                long size = i < n ? 5 : m;
                assertEquals(size, c.bytes());
                assertEquals(i % n, c.target(), "the targets in rank order, per size");
                boolean target = c.target() == r;
                assertEquals(target ? "receiver" : "sender", c.role());
                assertEquals(target ? 0 : size * ITERS, c.bytesSent(), "rank " + r + " case " + i);
                assertEquals(target ? (n - 1) * size * ITERS : 0, c.bytesReceived(), "rank " + r + " case " + i);
            }
            // The last case's target (rank n-1) holds every sender's bytes in its slots; the sender wrote from its
            // own region's start, which its own turn as the target (the case before) had filled from its peers.
            if (r == n - 1) {
                for (int i = 0; i < plan.peers.length; i++) {
                    int q = plan.peers[i];
                    for (int b = 0; b < m; b++) {
                        assertNotEquals(mem[r].get(ValueLayout.JAVA_BYTE, plan.offsets[i] + b),
                                (byte) (r * 37 + (plan.offsets[i] + b) * 11 + 1), "slot from rank " + q
                                + " byte " + b + " was written");
                    }
                }
            }
        }
    }

    @Test
    void sharesCutBytesAndChunksAsQpSharesCutsQps() {
        FabricOptions o = opts(FabricPattern.ALLTOALL, 0, 3, 7, 2);
        assertArrayEquals(new long[] {0, 3, 7}, FabricWorker.laneShares(o, FabricWorker.plan(o)));
        FabricOptions ring = opts(FabricPattern.ALLREDUCE, 0, 3, 4 * 3 * 5, 2);
        assertArrayEquals(new long[] {0, 8, 20}, FabricWorker.laneShares(ring, FabricWorker.plan(ring)),
                "whole float32 elements: 2 and 3 of a chunk's 5");
    }

    @Test
    void laneNamesMatchFromBothEnds() {
        FabricWorker.Plan a = FabricWorker.plan(opts(FabricPattern.ALLTOALL, 0, 3, 8, 2));
        FabricWorker.Plan b = FabricWorker.plan(opts(FabricPattern.ALLTOALL, 2, 3, 8, 2));
        assertEquals("pair-0-2", a.laneName(1, 0, 1), "one lane: the link's own name, as before");
        assertEquals("pair-0-2/1", a.laneName(1, 1, 2));
        assertEquals(1 * 2 + 0, b.lane(0, a.laneName(1, 1, 2), 2), "lane 1 of rank 2's link 0");
        assertEquals(-1, b.lane(0, "pair-0-2/2", 2));
    }

    @Test
    void aFailingLaneStopsTheOthersAndIsNamed() {
        LaneWork ok = new LaneWork() {
            @Override
            public void iteration(int seq) {
            }

            @Override
            public void timed(boolean on) {
            }
        };
        LaneWork failing = new LaneWork() {
            @Override
            public void iteration(int seq) {
                if (seq == 2) {
                    throw new FabricFailure("boom");
                }
            }

            @Override
            public void timed(boolean on) {
            }
        };
        LaneGate gate = new LaneGate(3, 10, TimeUnit.SECONDS.toNanos(5), null);
        long t0 = System.nanoTime();
        FabricFailure f = assertThrows(FabricFailure.class,
                () -> LaneThreads.run(new LaneWork[] {ok, failing, ok}, gate, 2, 8, false));
        assertEquals("thread 1 of 3: boom", f.getMessage());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(4), "the others did not wait for the deadline");
    }

    @Test
    void tooManyThreadsAreRefusedWithOneLine() {
        assertEquals("--threads 8: each thread takes a share of the 7 bytes (-s) every link carries",
                FabricOptions.threadsProblem(false, 3, 7, 8));
        assertEquals("--threads 6: each thread takes a share of every chunk's float32 elements, and -s 60 over 3"
                + " ranks has 5 per chunk", FabricOptions.threadsProblem(true, 3, 60, 6));
        assertEquals(null, FabricOptions.threadsProblem(true, 3, 60, 5));
        assertEquals("--threads 65 is above 64 (threads per rank)", FabricOptions.threadsProblem(false, 3, 1 << 20,
                65));
        assertNotEquals(null, FabricOptions.threadsProblem(false, 3, 7, 0));
        assertThrows(IllegalArgumentException.class, () -> opts(FabricPattern.BISECTION, 0, 2, 1, 2));
    }
}
