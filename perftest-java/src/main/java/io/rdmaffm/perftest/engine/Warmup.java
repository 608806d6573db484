package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.jvm.CompilerThreads;
import io.rdmaffm.perftest.jvm.JitCounters;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Makes the measured window quiet: before the peer is involved, runs the loops this side will measure on a QP
 * connected to itself (a warm-up with the peer would change the iteration counts it expects) until the JIT has
 * nothing left to compile for them. A round is many short invocations of every loop the run calls (its duration
 * variant too, with {@code -D}), then a wait for the compiler to go idle; rounds repeat until one compiled
 * nothing at all (the JVM's own count of finished compilations, {@link JitCounters}), at most {@link #LIMIT}.
 * Branches the warm-up never takes (the empty poll: on a self-connected QP the completion is there at the first
 * poll) are compiled too because the launcher runs the JVM without uncommon traps ({@code -XX:PerMethodTrapLimit=0}).
 */
public final class Warmup {
    /**
     * How long a peer may spend in its warm-up between connecting and sending its first control message: the
     * first message's time limit on the other side allows for it. {@link #LIMIT} plus what the first round
     * costs on an emulated CPU.
     */
    public static final Duration PEER_ALLOWANCE = Duration.ofSeconds(60);
    /** The warm-up gives up on a quiet compiler after this long (the run then goes on, and says so). */
    static final Duration LIMIT = Duration.ofSeconds(30);
    /** The compiler counts as idle after finishing nothing for this long. */
    private static final long IDLE_NANOS = 200_000_000L;
    /** Before each measured window: idle this long, waiting at most the limit (the peer waits at the barrier). */
    private static final long SETTLE_IDLE_NANOS = 100_000_000L;
    private static final long SETTLE_LIMIT_NANOS = 3_000_000_000L;
    /** The longest wait for the compiler to go idle after one round. */
    private static final long IDLE_WAIT_NANOS = 3_000_000_000L;
    /**
     * Invocations in a first round: past the JIT's thresholds for compiling a loop method as a whole. Tiered C2
     * asks for 600 invocations with enough loop iterations; bin/rdma-perftest scales the thresholds of this
     * project's methods to a fiftieth (a round trip on a QP connected to itself took 1.4 ms on the emulated CPU of
     * the CI machine: 20,000 of them outlasted the warm-up's limit), so 12 do, and 250 leave a margin for the
     * helpers a loop calls once per completion (100 invocations for C2 at that scale).
     */
    static final int MIN_INVOCATIONS = 250;

    /**
     * What the warm-up did.
     *
     * @param quiet  whether its last round compiled nothing (false also when no counter could tell)
     * @param rounds rounds run
     * @param nanos  time spent
     */
    public record Outcome(boolean quiet, int rounds, long nanos) {
        static final Outcome NONE = new Outcome(true, 0, 0);

        /** The line to print when the warm-up could not reach quiet, or null. */
        public String complaint() {
            return quiet || rounds == 0 ? null : "warm-up: the JIT compiler was still busy after " + rounds
                    + " rounds (" + nanos / 1_000_000_000L + " s); the measured window may contain compilations";
        }
    }

    /** Where the clock exercise leaves its result, so that nothing of it can be dropped. */
    private static volatile long clockSink;

    private Warmup() {
    }

    /** Whether {@link #run} has anything to warm up: a warm-up asked for, and a loop on this side to run. */
    public static boolean wanted(RunParameters p) {
        return p.limits().warmupIterations() > 0 && WarmupLoops.kind(p) != WarmupLoops.Kind.NONE;
    }

    /** Warms up the loops {@code p} will run on {@code dev} ({@code --warmup 0}: nothing). */
    public static Outcome run(RunParameters p, RunPlan plan, OpenDevice dev) {
        WarmupLoops.Kind kind = WarmupLoops.kind(p);
        if (p.limits().warmupIterations() <= 0 || kind == WarmupLoops.Kind.NONE) {
            // The passive server of write/read/atomic runs no loop at all.
            return Outcome.NONE;
        }
        int perInvocation = kind == WarmupLoops.Kind.LATENCY ? WarmupLoops.LATENCY_ITERATIONS
                : WarmupLoops.BANDWIDTH_ITERATIONS;
        int invocations = Math.max(MIN_INVOCATIONS, p.limits().warmupIterations() / perInvocation);
        long start = System.nanoTime();
        long deadline = start + LIMIT.toNanos();
        try (JitCounters jit = JitCounters.open()) {
            int rounds = 0;
            boolean quiet = false;
            while (!quiet && System.nanoTime() - deadline < 0) {
                // Fresh queues each round: over hundreds of short invocations a self-connected QP's send loops
                // with receives (-D latency, -b send) ran out of posted receives and waited on RNR for ever.
                try (WarmupLoops loops = new WarmupLoops(p, plan, dev, kind)) {
                    long before = compilations(jit);
                    for (int i = 0; i < invocations; i++) {
                        loops.once();
                    }
                    CompilerThreads.exerciseParser();
                    clockSink = WarmupLoops.exerciseClock(loops.dataPath());
                    awaitIdleCompiler(jit, IDLE_NANOS, IDLE_WAIT_NANOS);
                    quiet = jit != null && compilations(jit) == before;
                }
                rounds++;
                // Later rounds only look for what is still compiling: fewer invocations do.
                invocations = Math.max(MIN_INVOCATIONS / 4, invocations / 4);
            }
            return new Outcome(quiet, rounds, System.nanoTime() - start);
        }
    }

    /**
     * Before a measured window: the connection set-up and the exchange ran code the warm-up did not, and the
     * compiler may still be busy with it; waits until it has finished nothing for {@link #SETTLE_IDLE_NANOS},
     * at most {@link #SETTLE_LIMIT_NANOS}.
     */
    public static void settleCompiler() {
        try (JitCounters jit = JitCounters.open()) {
            awaitIdleCompiler(jit, SETTLE_IDLE_NANOS, SETTLE_LIMIT_NANOS);
        }
    }

    private static long compilations(JitCounters jit) {
        return jit == null ? ManagementFactory.getCompilationMXBean().getTotalCompilationTime() : jit.compilations();
    }

    /**
     * Until the compiler has finished nothing and used no CPU for {@code idleNanos} (one C2 compile can take
     * seconds on an emulated CPU and finishes nothing meanwhile), at most {@code limitNanos}.
     */
    private static void awaitIdleCompiler(JitCounters jit, long idleNanos, long limitNanos) {
        long deadline = System.nanoTime() + limitNanos;
        long last = compilations(jit);
        long lastTicks = CompilerThreads.cpuTicks();
        long since = System.nanoTime();
        while (System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(20_000_000L);
            long now = compilations(jit);
            long ticks = CompilerThreads.cpuTicks();
            if (now != last || ticks != lastTicks) {
                last = now;
                lastTicks = ticks;
                since = System.nanoTime();
            } else if (System.nanoTime() - since >= idleNanos) {
                return;
            }
        }
    }
}
