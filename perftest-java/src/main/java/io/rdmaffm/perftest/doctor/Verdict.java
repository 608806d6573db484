package io.rdmaffm.perftest.doctor;

/** The outcome of one check, ordered by how bad it is for the exit status. */
public enum Verdict {
    /** The check could not be made or does not apply; the reason says which. Counts as fine. */
    NA("N/A"),
    /** Nothing wrong found. */
    OK("OK"),
    /** Works, but below what the hardware could do, or at risk. */
    WARN("WARN"),
    /** Cannot reach the rated speed or cannot work as configured. */
    FAIL("FAIL");

    private final String label;

    Verdict(String label) {
        this.label = label;
    }

    /** @return the label used in output and JSON: {@code OK}, {@code WARN}, {@code FAIL}, {@code N/A} */
    public String label() {
        return label;
    }

    /** @return the exit status this verdict asks for: 2 FAIL, 1 WARN, else 0 */
    public int exitCode() {
        return this == FAIL ? 2 : this == WARN ? 1 : 0;
    }
}
