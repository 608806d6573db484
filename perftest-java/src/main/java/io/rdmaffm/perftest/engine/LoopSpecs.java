package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.RateLimit;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.SendOpcode;

/** The loops' inputs for a run (or a warm-up) of given parameters and plan: perftest's rules in one place. */
final class LoopSpecs {
    private LoopSpecs() {
    }

    /** The send opcode of the measured verb ({@code -A} chooses the atomic). */
    static SendOpcode opcode(RunParameters p) {
        return switch (p.verb()) {
            case SEND -> SendOpcode.SEND;
            case WRITE -> SendOpcode.RDMA_WRITE;
            case READ -> SendOpcode.RDMA_READ;
            case ATOMIC -> p.workload().compareAndSwap() ? SendOpcode.ATOMIC_CMP_AND_SWP
                    : SendOpcode.ATOMIC_FETCH_AND_ADD;
        };
    }

    /** What goes on the wire per work request: atomics always move 8 bytes. */
    static long wireSize(RunParameters p, long size) {
        return p.verb() == Verb.ATOMIC ? 8 : size;
    }

    /** Whether messages of {@code size} go inline (never for read and atomic). */
    static boolean inline(RunParameters p, RunPlan plan, long size) {
        return p.verb() != Verb.READ && p.verb() != Verb.ATOMIC && size <= plan.inlineSize() && plan.inlineSize() > 0;
    }

    /** The stall limit, {@code --timeout}. */
    static long stallNanos(RunParameters p) {
        return p.limits().timeoutSeconds() * 1_000_000_000L;
    }

    /**
     * A bandwidth loop over {@code iters} iterations of {@code size}-byte messages; with {@code timed} and
     * {@code -D}, a duration run instead.
     */
    static BwSpec bandwidth(RunParameters p, RunPlan plan, long size, long iters, boolean timed) {
        RunParameters.Workload w = p.workload();
        int tx = Math.max(1, Math.min(plan.txDepth(), (int) Math.max(1, iters)));
        int cqMod = Math.max(1, Math.min(plan.cqMod(), tx));
        boolean noPeak = p.on(Flag.NO_PEAK) || w.duration() || iters > 20_000;
        boolean duration = timed && w.duration();
        if (timed && p.on(Flag.RUN_INFINITELY)) {
            // no end, no peak; the duration is the interval of the rows (-D, else perftest's 5 s)
            return new BwSpec(Long.MAX_VALUE, tx, cqMod, Math.max(1, w.postList()), inline(p, plan, size), true,
                    infiniteIntervalSeconds(p) * 1_000_000_000L, 0, stallNanos(p), 0, 0);
        }
        // SW rate limit: only the measured run is paced (a warm-up is not traffic the user asked to limit).
        RateLimit rate = timed ? RateLimit.of(p) : null;
        boolean paced = rate != null && rate.type() == RateLimit.Type.SW;
        return new BwSpec(iters, tx, cqMod, Math.max(1, w.postList()), inline(p, plan, size), noPeak,
                duration ? w.durationSeconds() * 1_000_000_000L : 0,
                duration ? w.marginSeconds() * 1_000_000_000L : 0, stallNanos(p), paced ? rate.burst() : 0,
                paced ? rate.burstGapNanos(wireSize(p, size)) : 0);
    }

    /** {@code --run_infinitely}: seconds between rows, -D or perftest's DEF_DURATION. */
    static int infiniteIntervalSeconds(RunParameters p) {
        return p.workload().duration() ? p.workload().durationSeconds() : 5;
    }

    /** A latency loop over {@code size}-byte messages on the side that is {@code server} or not. */
    static LatencySpec latency(RunParameters p, RunPlan plan, long size, long iters, int rxDepth, boolean server,
            boolean timed) {
        RunParameters.Workload w = p.workload();
        boolean duration = timed && w.duration();
        return new LatencySpec(size, iters, rxDepth, server, size <= plan.inlineSize() && plan.inlineSize() > 0,
                duration ? w.durationSeconds() * 1_000_000_000L : 0,
                duration ? w.marginSeconds() * 1_000_000_000L : 0, stallNanos(p),
                timed ? ((Integer) p.value(Flag.LATENCY_GAP)) * 1_000L : 0);
    }
}
