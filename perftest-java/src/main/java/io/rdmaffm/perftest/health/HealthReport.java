package io.rdmaffm.perftest.health;

import java.util.ArrayList;
import java.util.List;

/**
 * One {@code health} run, judged: what was found per HCA, this run's own result and the node's state after
 * hysteresis, which is what the exit status, the NHC line and {@code --drain} go by.
 *
 * @param node        the node's name
 * @param nodeType    the node type judged against
 * @param results     the node-level result, then one per HCA
 * @param state       the node's state after this run (with {@code k} = 1, this run's own result)
 * @param k           consecutive disagreeing runs that change the state
 * @param timeSeconds when the run ended, seconds since the epoch
 */
public record HealthReport(String node, String nodeType, List<HcaResult> results, Hysteresis state, int k,
                           long timeSeconds) {
    /**
     * @param node        node
     * @param nodeType    type
     * @param results     results
     * @param state       state after this run
     * @param k           k
     * @param timeSeconds time
     */
    public HealthReport {
        results = List.copyOf(results);
    }

    /** @return whether every check of this run passed (before hysteresis) */
    public boolean rawPassed() {
        for (HcaResult r : results) {
            if (!r.passed()) {
                return false;
            }
        }
        return true;
    }

    /** @return the node's verdict: PASS or FAIL, after hysteresis */
    public boolean passed() {
        return state.passing();
    }

    /** @return the failed checks, in order */
    public List<CheckOutcome> failures() {
        List<CheckOutcome> out = new ArrayList<>();
        for (HcaResult r : results) {
            for (CheckOutcome c : r.checks()) {
                if (!c.passed()) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    /** @return how many HCAs were checked (the node-level result not counted) */
    public int hcaCount() {
        return results.size() - 1;
    }

    /** @return the hysteresis in words, or null when this run's result is the state */
    public String pending() {
        if (state.streak() == 0) {
            return null;
        }
        return (rawPassed() ? "this run passed" : "this run failed") + ": " + state.streak() + " of " + k
                + " in a row before the node " + (state.passing() ? "FAILs" : "PASSes");
    }

    /** @return exit status: 0 PASS, 1 FAIL */
    public int exitCode() {
        return passed() ? 0 : 1;
    }
}
