package io.rdmaffm.perftest.cluster;

import java.util.List;

/**
 * The verdict on one rail test after the retest.
 *
 * @param first  the first attempt
 * @param retest the retest, or null when none was needed (or retests are off)
 * @param flags  the outlier rules the final attempt broke (empty when it failed: a failure is not an outlier)
 * @param status the verdict
 */
public record PairResult(Attempt first, Attempt retest, List<OutlierRules.Flag> flags, Status status) {

    /** The verdict on a rail test. */
    public enum Status {
        /** Within every rule at the first attempt. */
        OK,
        /** Flagged or failed at first, within every rule on the retest. */
        OK_ON_RETEST,
        /** Outside a rule (after the retest, when there was one). */
        FLAGGED,
        /** No figures (after the retest, when there was one). */
        FAILED
    }

    /** The attempt that decides: the retest when there was one. */
    public Attempt last() {
        return retest != null ? retest : first;
    }

    /** The rail test. */
    public RailTest test() {
        return first.test();
    }

    /** Flagged or failed in the end. */
    public boolean bad() {
        return status == Status.FLAGGED || status == Status.FAILED;
    }
}
