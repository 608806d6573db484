package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.vocab.Verb;

import java.util.Arrays;

/**
 * perftest 4.5-0.17's latency figures from the post timestamps of a latency run, computed after the loop.
 * <p>
 * A sample is the time between two consecutive posts (one round trip), divided by 2 for send and write
 * (ping-pong) and by 1 for read and atomic. Quirks copied on purpose: the two largest samples are dropped,
 * "t_max" is then the second-largest sample, the median averages two samples in integer ticks, each deviation
 * in the standard deviation is truncated to whole microseconds before squaring, and the 99.9% index equals
 * the "t_max" index for 1000 iterations.
 */
public final class LatencyArithmetic {
    /** Samples perftest drops from the top before computing anything. */
    public static final int MEASURE_TAIL = 2;

    private LatencyArithmetic() {
    }

    /**
     * Iteration-mode figures.
     *
     * @param tposted       post timestamps; the first {@code iters} are used
     * @param iters         iterations ({@code -n}), at least 4
     * @param verb          decides the round-trip factor
     * @param ticksPerMicro clock ticks per microsecond (1000 for {@link System#nanoTime})
     */
    public static LatencyResult iterations(long[] tposted, int iters, Verb verb, double ticksPerMicro) {
        if (iters < MEASURE_TAIL + 2) {
            throw new IllegalArgumentException("need at least 4 iterations, got " + iters);
        }
        int samples = iters - 1;
        long[] delta = new long[samples];
        for (int i = 0; i < samples; i++) {
            delta[i] = tposted[i + 1] - tposted[i];
        }
        Arrays.sort(delta);
        int n = samples - MEASURE_TAIL;
        double q = ticksPerMicro * verb.latencyRttFactor();

        long median = (n - 1) % 2 != 0 ? (delta[n / 2] + delta[n / 2 - 1]) / 2 : delta[n / 2];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            sum += delta[i] / q;
        }
        double avg = sum / n;
        double squares = 0;
        for (int i = 0; i < n; i++) {
            // C: int temp = average - x; int pow_var = pow(temp, 2). The cast truncates toward zero.
            long dev = (long) (avg - delta[i] / q);
            squares += (double) (dev * dev);
        }
        double stdev = Math.sqrt(squares / n);
        int i99 = (int) Math.ceil(n * 0.99);
        int i999 = (int) Math.ceil(n * 0.999);
        return new LatencyResult(delta[0] / q, delta[n] / q, median / q, avg, stdev, delta[i99] / q,
                delta[i999] / q);
    }

    /**
     * Duration-mode ({@code -D}) figures: average latency in µs and transactions per second over the sampling
     * window, {@code iters} being the iterations counted inside it.
     *
     */
    public static DurationLatency duration(long sampleStart, long sampleEnd, long iters, Verb verb, double ticksPerMicro) {
        long ticks = sampleEnd - sampleStart;
        double latency = ((ticks / ticksPerMicro) / verb.latencyRttFactor()) / iters;
        double tps = iters / (ticks / (ticksPerMicro * 1_000_000));
        return new DurationLatency(latency, tps);
    }
}
