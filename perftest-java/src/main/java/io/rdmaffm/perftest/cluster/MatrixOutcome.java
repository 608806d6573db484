package io.rdmaffm.perftest.cluster;

import java.util.List;

/**
 * A finished matrix.
 *
 * @param plan    the plan it ran
 * @param results every rail test's verdict, in schedule order
 * @param best    the best figures (what the relative rules compared with)
 * @param rollup  per-host verdicts and bad pairs' causes
 */
public record MatrixOutcome(MatrixPlan plan, List<PairResult> results, OutlierRules.Best best,
        HostRollup.Rollup rollup) {

    /** How many results have {@code status}. */
    public long count(PairResult.Status status) {
        return results.stream().filter(r -> r.status() == status).count();
    }

    /** As doctor's: 2 when any rail test failed, 1 when any is flagged, else 0 (passing on retest is passing). */
    public int exitCode() {
        if (count(PairResult.Status.FAILED) > 0) {
            return 2;
        }
        return count(PairResult.Status.FLAGGED) > 0 ? 1 : 0;
    }
}
