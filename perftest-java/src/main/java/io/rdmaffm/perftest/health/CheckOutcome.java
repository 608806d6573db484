package io.rdmaffm.perftest.health;

/**
 * One check on one HCA (or on the node): passed or not, and why. There is no "could not tell": a check that could
 * not measure has failed, its reason saying what was missing.
 *
 * @param hca    the HCA, or {@value #NODE} for the node-level checks
 * @param check  {@code bandwidth}, {@code rate}, {@code pcie}, {@code present}, or a doctor check id
 * @param passed whether it passed
 * @param reason one line
 */
public record CheckOutcome(String hca, String check, boolean passed, String reason) {
    /** The {@code hca} of checks about the node as a whole (no RDMA device at all, for one). */
    public static final String NODE = "node";

    /** @return {@code hca check: reason}, as the NHC line and Slurm's drain reason give it */
    public String line() {
        return hca + " " + check + ": " + reason;
    }
}
