package io.rdmaffm.perftest.health;

import java.util.List;

/**
 * Everything {@code health} found on one HCA.
 *
 * @param hca           the HCA ({@link CheckOutcome#NODE} for node-level checks)
 * @param checks        its checks, in order
 * @param bandwidthGbps the best loopback bandwidth measured, or null when none was
 * @param minGbps       the threshold it was held to, or null (node-level)
 * @param runs          loopback runs made (1 + the retries used)
 */
public record HcaResult(String hca, List<CheckOutcome> checks, Double bandwidthGbps, Double minGbps, int runs) {
    /**
     * @param hca           hca
     * @param checks        checks
     * @param bandwidthGbps bandwidth or null
     * @param minGbps       threshold or null
     * @param runs          runs
     */
    public HcaResult {
        checks = List.copyOf(checks);
    }

    /** @return whether every check passed */
    public boolean passed() {
        for (CheckOutcome c : checks) {
            if (!c.passed()) {
                return false;
            }
        }
        return true;
    }
}
