package io.rdmaffm.benchmarks;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One operation = post one signaled 8-byte RDMA WRITE on an RC QP connected to itself, then poll its CQ until
 * the completion is there (a spin without pause, as a latency loop does). The same QP, memory and work
 * request ({@link LoopbackQp}) through four paths: verbs-ffm's public API with the critical poll downcall (its
 * default) and without, Java → JNI → the C verbs, and all of it as a loop in C, whose per-operation figure is
 * C's own cost. Each path runs in its own fork. Iteration counts suit a real host; lab/run.sh jmh sizes
 * them for the Soft-RoCE VM.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = PostPollBenchmark.NATIVE_ACCESS)
public class PostPollBenchmark {
    static final String NATIVE_ACCESS = "--enable-native-access=ALL-UNNAMED";
    static final String NO_CRITICAL_POLL = "-Drdmaffm.criticalPoll=false";
    /** The QP and CQ confined to the benchmark's thread ({@link LoopbackQp}): calls check the thread, no atomics. */
    static final String CONFINED = "-D" + LoopbackQp.CONFINED_PROPERTY + "=true";
    /** Operations per call of a C loop: enough that the one JNI call per loop is noise. */
    static final int C_LOOP = 1000;

    @Benchmark
    public int ffm(LoopbackQp s) {
        return s.ffmPostPoll();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {NATIVE_ACCESS, CONFINED})
    public int ffmConfined(LoopbackQp s) {
        return s.ffmPostPoll();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {NATIVE_ACCESS, NO_CRITICAL_POLL})
    public int ffmNoCriticalPoll(LoopbackQp s) {
        return s.ffmPostPoll();
    }

    @Benchmark
    public int jni(LoopbackQp s) {
        return s.jniPostPoll();
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long c(LoopbackQp s) {
        return s.cPostPolls(C_LOOP);
    }
}
