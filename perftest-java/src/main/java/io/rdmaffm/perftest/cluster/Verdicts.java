package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The verdict stage, pure: every rail test judged on its last attempt against the best figures of all last
 * attempts, then rolled up per host end. {@link MatrixRun} calls it once, after the retests.
 *
 * @param results every rail test's verdict, in the order of the first attempts
 * @param best    the best figures of the last attempts (what the relative rules compared with)
 * @param rollup  per-host verdicts and bad pairs' causes
 */
public record Verdicts(List<PairResult> results, OutlierRules.Best best, HostRollup.Rollup rollup) {

    /**
     * @param hosts   the hosts, in plan order
     * @param rules   the outlier rules
     * @param firsts  each rail test's first attempt
     * @param retests the retest of a rail test, where there was one
     * @return the verdicts
     */
    public static Verdicts judge(List<String> hosts, OutlierRules rules, List<Attempt> firsts,
            Map<RailTest, Attempt> retests) {
        List<Attempt> finals = new ArrayList<>();
        for (Attempt a : firsts) {
            finals.add(retests.getOrDefault(a.test(), a));
        }
        OutlierRules.Best best = OutlierRules.best(finals);
        List<PairResult> results = new ArrayList<>();
        for (Attempt a : firsts) {
            Attempt again = retests.get(a.test());
            Attempt last = again != null ? again : a;
            List<OutlierRules.Flag> flags = rules.flags(last, best);
            // Passing on the retest is passing, but says so: the first run's trouble may come back.
            PairResult.Status status = !last.ok() ? PairResult.Status.FAILED
                    : !flags.isEmpty() ? PairResult.Status.FLAGGED
                    : again != null ? PairResult.Status.OK_ON_RETEST : PairResult.Status.OK;
            results.add(new PairResult(a, again, List.copyOf(flags), status));
        }
        return new Verdicts(List.copyOf(results), best, HostRollup.of(hosts, results));
    }
}
