package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.doctor.Verdict;

/**
 * Where a measured bandwidth stops being OK: at or above {@code okPercent} of the expectation it is
 * {@link Verdict#OK}, at or above {@code warnPercent} {@link Verdict#WARN}, below that {@link Verdict#FAIL}.
 *
 * @param okPercent   default {@value #DEFAULT_OK}
 * @param warnPercent default {@value #DEFAULT_WARN}
 */
public record Thresholds(double okPercent, double warnPercent) {
    /** Default OK threshold, percent of expected: a healthy NIC's loopback write reaches 90-97% of min(port, PCIe). */
    public static final double DEFAULT_OK = 90;
    /** Default WARN threshold, percent of expected. */
    public static final double DEFAULT_WARN = 70;
    /** The defaults. */
    public static final Thresholds DEFAULTS = new Thresholds(DEFAULT_OK, DEFAULT_WARN);

    /**
     * @throws IllegalArgumentException unless 0 &lt; warn &le; ok &le; 200
     */
    public Thresholds {
        if (!(warnPercent > 0 && warnPercent <= okPercent && okPercent <= 200)) {
            throw new IllegalArgumentException("thresholds must satisfy 0 < --warn-at <= --ok-at <= 200, got --ok-at "
                    + ValidateText.gbps(okPercent) + " --warn-at " + ValidateText.gbps(warnPercent));
        }
    }

    /**
     * @param measuredGbps what the run measured
     * @param expectedGbps what the port should carry, or null when nothing is known
     * @return the verdict; {@link Verdict#NA} when there is nothing to compare with
     */
    public Verdict judge(double measuredGbps, Double expectedGbps) {
        if (expectedGbps == null || expectedGbps <= 0) {
            return Verdict.NA;
        }
        double percent = 100 * measuredGbps / expectedGbps;
        return percent >= okPercent ? Verdict.OK : percent >= warnPercent ? Verdict.WARN : Verdict.FAIL;
    }
}
