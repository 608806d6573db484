package io.rdmaffm.perftest.fabric.driver;

import java.util.Arrays;
import java.util.Locale;

/**
 * The traffic a fabric run offers, with what the figures of docs/fabric-design.md §5 need to know about it:
 * whether {@code -s} is the whole float32 array (ring patterns) or the bytes per peer, and nccl-tests' busbw
 * factor.
 */
public enum Pattern {
    /** Ring all-reduce: reduce-scatter then all-gather, 2(n − 1) steps. */
    ALLREDUCE(true),
    /** Ring all-gather, n − 1 steps. */
    ALLGATHER(true),
    /** Ring reduce-scatter, n − 1 steps. */
    REDUCESCATTER(true),
    /** Every rank but the receiver writes to the receiver at once. */
    INCAST(false),
    /** Every rank writes to every other at once. */
    ALLTOALL(false),
    /** The hosts in two halves, rank i with i + n/2, both directions at once. */
    BISECTION(false);

    private final boolean ring;

    Pattern(boolean ring) {
        this.ring = ring;
    }

    /** The name on the command line and in the worker's {@code --pattern}. */
    public String cli() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether {@code -s} is the whole array of float32 (so a multiple of 4n). */
    public boolean ring() {
        return ring;
    }

    /** The fewest ranks the pattern has any traffic with. */
    public int minRanks() {
        return 2;
    }

    /**
     * S of nccl-tests, the bytes the algorithm bandwidth divides by t: the array for ring patterns; n·m for
     * all-to-all (nccl-tests counts the rank's own slot); f·m for incast (all that reaches the receiver, f
     * senders); m for bisection (per rank, each direction).
     *
     * @param bytes   {@code -s}
     * @param n       ranks taking part
     * @param senders incast's fan-in f
     */
    public double algBytes(long bytes, int n, int senders) {
        return switch (this) {
            case ALLREDUCE, ALLGATHER, REDUCESCATTER, BISECTION -> bytes;
            case ALLTOALL -> (double) n * bytes;
            case INCAST -> (double) senders * bytes;
        };
    }

    /** nccl-tests' busbw factor: 2(n − 1)/n all-reduce; (n − 1)/n all-gather, reduce-scatter, all-to-all; else 1. */
    public double busFactor(int n) {
        return switch (this) {
            case ALLREDUCE -> 2.0 * (n - 1) / n;
            case ALLGATHER, REDUCESCATTER, ALLTOALL -> (double) (n - 1) / n;
            case INCAST, BISECTION -> 1.0;
        };
    }

    /**
     * The busbw in Gb/s that senders each capped at {@code rateGbps} ({@code --rate}) can give at most: incast f x
     * rate (all of it reaches the receiver); all-to-all and bisection the rate (busbw there is one rank's send rate:
     * (n − 1)·m per iteration, or m); NaN for the ring patterns, which take no cap.
     */
    public double cappedBusGbps(double rateGbps, int senders) {
        return switch (this) {
            case INCAST -> senders * rateGbps;
            case ALLTOALL, BISECTION -> rateGbps;
            default -> Double.NaN;
        };
    }

    /** The factor as the report writes it, for the figures' provenance. */
    public String busFactorText() {
        return switch (this) {
            case ALLREDUCE -> "2(n-1)/n";
            case ALLGATHER, REDUCESCATTER, ALLTOALL -> "(n-1)/n";
            case INCAST, BISECTION -> "1";
        };
    }

    /** What S is, for the provenance. */
    public String algBytesText() {
        return switch (this) {
            case ALLREDUCE, ALLGATHER, REDUCESCATTER -> "S = -s (the whole float32 array)";
            case ALLTOALL -> "S = n * m (m = -s per peer)";
            case INCAST -> "S = f * m (f senders, m = -s each)";
            case BISECTION -> "S = m (= -s, per rank and direction)";
        };
    }

    /** Whether the pattern offers congestion on purpose (many to one). */
    public boolean congests() {
        return this == INCAST;
    }

    /** The pattern of a command-line name, or null. */
    public static Pattern of(String name) {
        return Arrays.stream(values()).filter(p -> p.cli().equals(name)).findFirst().orElse(null);
    }

    /** The names, for messages. */
    public static String names() {
        return String.join("|", Arrays.stream(values()).map(Pattern::cli).toList());
    }
}
