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

import static io.rdmaffm.benchmarks.PostPollBenchmark.CONFINED;
import static io.rdmaffm.benchmarks.PostPollBenchmark.C_LOOP;
import static io.rdmaffm.benchmarks.PostPollBenchmark.NATIVE_ACCESS;
import static io.rdmaffm.benchmarks.PostPollBenchmark.NO_CRITICAL_POLL;

/**
 * One operation = one {@code ibv_poll_cq} of the empty CQ of {@link LoopbackQp}: the call alone, which on
 * Soft-RoCE never enters the kernel, so the difference between the paths is the cost of reaching C. Post+poll
 * ({@link PostPollBenchmark}) is what an application pays; this is the part of it that the binding decides.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = NATIVE_ACCESS)
public class EmptyPollBenchmark {

    @Benchmark
    public int ffm(LoopbackQp s) {
        return s.ffmPoll();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {NATIVE_ACCESS, CONFINED})
    public int ffmConfined(LoopbackQp s) {
        return s.ffmPoll();
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {NATIVE_ACCESS, NO_CRITICAL_POLL})
    public int ffmNoCriticalPoll(LoopbackQp s) {
        return s.ffmPoll();
    }

    @Benchmark
    public int jni(LoopbackQp s) {
        return s.jniPoll();
    }

    @Benchmark
    @OperationsPerInvocation(C_LOOP)
    public long c(LoopbackQp s) {
        return s.cPolls(C_LOOP);
    }
}
