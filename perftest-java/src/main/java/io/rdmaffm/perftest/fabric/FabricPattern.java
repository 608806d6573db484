package io.rdmaffm.perftest.fabric;

import java.util.Arrays;
import java.util.Locale;

/** The traffic a fabric worker runs (docs/fabric-design.md §5, §6); named as on the command line. */
public enum FabricPattern {
    /** Ring all-reduce: reduce-scatter then all-gather, float32 sum. */
    ALLREDUCE(true, true),
    /** Ring all-gather: the second half of the all-reduce. */
    ALLGATHER(false, true),
    /** Ring reduce-scatter: the first half of the all-reduce. */
    REDUCESCATTER(true, false),
    /** Every rank but the receiver writes into the receiver. */
    INCAST(false, false),
    /** Every rank writes to every other, all at once. */
    ALLTOALL(false, false),
    /** Rank i and i + N/2 write to each other. */
    BISECTION(false, false);

    private final boolean reduceScatter;
    private final boolean allGather;

    FabricPattern(boolean reduceScatter, boolean allGather) {
        this.reduceScatter = reduceScatter;
        this.allGather = allGather;
    }

    /** The name on the command line and in the result. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Whether it is one of the ring patterns (float32 arrays, S a multiple of 4N). */
    public boolean ring() {
        return reduceScatter || allGather;
    }

    /** Whether the ring pattern has the reduce-scatter half. */
    public boolean reduceScatter() {
        return reduceScatter;
    }

    /** Whether the ring pattern has the all-gather half. */
    public boolean allGather() {
        return allGather;
    }

    /** Transfers per rank per iteration: 2(N-1) all-reduce, N-1 for a half, 1 for the others (the contract). */
    public int steps(int ranks) {
        if (!ring()) {
            return 1;
        }
        return (reduceScatter && allGather ? 2 : 1) * (ranks - 1);
    }

    /**
     * @param id a name as given on the command line
     * @return the pattern
     * @throws IllegalArgumentException naming the valid ones
     */
    public static FabricPattern of(String id) {
        for (FabricPattern p : values()) {
            if (p.id().equals(id)) {
                return p;
            }
        }
        throw new IllegalArgumentException("--pattern: no pattern '" + id + "' (one of "
                + String.join(", ", Arrays.stream(values()).map(FabricPattern::id).toList()) + ")");
    }
}
