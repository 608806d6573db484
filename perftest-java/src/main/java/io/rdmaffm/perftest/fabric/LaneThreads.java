package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.engine.ParallelShares;

/**
 * Runs a rank's lanes (docs/fabric-design.md §11): lane 0 on the calling thread, the others each on a platform
 * thread of its own ({@code engine.ParallelShares}, as the bandwidth tools' shares). The threads live for the
 * whole run (warm-up, timed iterations, the check), meet at the {@link LaneGate} before every iteration, and share nothing else while they run. Once
 * all have ended, the first failure is thrown; otherwise the timed iterations' times are returned, each from the
 * moment the last lane was ready to the moment the last lane was done.
 */
final class LaneThreads {
    private LaneThreads() {
    }

    /**
     * @param check one more untimed iteration after {@link LaneWork#beforeCheck()} (ring patterns)
     * @return the timed iterations' nanoseconds
     */
    static long[] run(LaneWork[] lanes, LaneGate gate, int warmup, int iters, boolean check) {
        int n = lanes.length;
        int total = warmup + iters + (check ? 1 : 0);
        long[][] ends = new long[n][total];
        Throwable[] failures = ParallelShares.run("fabric-lane", n,
                lane -> guarded(lanes[lane], gate, lane, warmup, iters, check, ends[lane]));
        for (Throwable f : failures) {
            if (f instanceof Error e) {
                throw e;
            }
        }
        if (gate.failure() != null) {
            throw new FabricFailure(gate.failure());
        }
        long[] times = new long[iters];
        for (int i = 0; i < iters; i++) {
            long last = Long.MIN_VALUE;
            for (int t = 0; t < n; t++) {
                last = Math.max(last, ends[t][warmup + i]);
            }
            times[i] = last - gate.releasedAt(warmup + i);
        }
        return times;
    }

    /** One lane's whole run; its failure goes to the gate (named by thread when there are several) and back. */
    private static Throwable guarded(LaneWork w, LaneGate gate, int lane, int warmup, int iters, boolean check,
            long[] ends) {
        try {
            loop(w, gate, warmup, iters, check, ends);
            return null;
        } catch (RuntimeException e) {
            String m = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
                    : e.getMessage();
            gate.fail(gate.lanes() == 1 ? m : "thread " + lane + " of " + gate.lanes() + ": " + m);
            return e;
        } catch (Error e) {
            gate.fail("thread " + lane + " of " + gate.lanes() + ": " + e);
            return e;
        }
    }

    private static void loop(LaneWork w, LaneGate gate, int warmup, int iters, boolean check, long[] ends) {
        int i = 0;
        for (; i < warmup + iters; i++) {
            if (i == warmup) {
                w.timed(true);
            }
            gate.await(i);
            w.iteration(i);
            ends[i] = System.nanoTime();
        }
        w.timed(false);
        if (check) {
            w.beforeCheck();
            gate.await(i);
            w.iteration(i);
            ends[i] = System.nanoTime();
        }
    }
}
