package io.rdmaffm.benchmarks;

import io.rdmaffm.verbs.internal.Lifetime;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import static io.rdmaffm.benchmarks.PostPollBenchmark.C_LOOP;
import static io.rdmaffm.benchmarks.PostPollBenchmark.NATIVE_ACCESS;

/**
 * The parts that a Java data-path call adds to C's, each alone, so that what a latency loop pays per message
 * can be put together from them: the critical {@code ibv_poll_cq} downcall of an empty CQ without the object's
 * lifetime guard ({@link EmptyPollBenchmark#ffm} is the same call with it), the guard alone (two atomic adds),
 * and the clock: {@code System.nanoTime} against the same clock read in C and against the time-stamp counter
 * that C perftest reads on x86.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = NATIVE_ACCESS)
public class CallPartsBenchmark {

    /** A live object with nothing behind it: its guard is the one every verbs-ffm call on a verbs object takes. */
    @State(Scope.Thread)
    public static class Guarded {
        final Lifetime life = new Lifetime(null, "benchmark object", MemorySegment.NULL) {
            @Override
            protected void destroy(MemorySegment handle) {
                // nothing native behind it
            }
        };
    }

    @Benchmark
    public int downcallWithoutGuard(LoopbackQp s) {
        return s.unguardedPoll();
    }

    /**
     * The same downcall with its pointers passed as segments: set against {@link #downcallWithoutGuard} (pointers
     * as {@code long}, as verbs-ffm passes them), what the linker's handling of segment arguments (keep-alive of
     * their arenas, checks) costs per call.
     */
    @Benchmark
    public int downcallWithSegments(LoopbackQp s) {
        return s.segmentPoll();
    }

    /**
     * The same downcall inside a guard of its own: set against {@link #downcallWithoutGuard} plus {@link #guard},
     * it says whether the two cost more together (atomics around a native call) than apart.
     */
    @Benchmark
    public int guardedDowncall(LoopbackQp s, Guarded g) {
        g.life.enter();
        try {
            return s.unguardedPoll();
        } finally {
            g.life.exit();
        }
    }

    @Benchmark
    public MemorySegment guard(Guarded g) {
        MemorySegment h = g.life.enter();
        g.life.exit();
        return h;
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cClock() {
        return JniVerbs.clockLoop(C_LOOP);
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long cTsc() {
        long sum = JniVerbs.tscLoop(C_LOOP);
        if (sum < 0) {
            throw new UnsupportedOperationException("no time-stamp counter read on this architecture");
        }
        return sum;
    }
}
