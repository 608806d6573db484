package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.doctor.Verdict;

import java.util.List;

/**
 * The verdict on one port.
 *
 * @param port    the port and its expectation
 * @param tests   each loopback test (unidirectional, bidirectional); empty when the port was not measured
 * @param verdict the worst of the tests' verdicts; {@link Verdict#NA} when not measured
 * @param note    why it was not measured, or null
 */
public record PortResult(Expectation port, List<Test> tests, Verdict verdict, String note) {

    public PortResult {
        tests = List.copyOf(tests);
    }

    /**
     * One loopback test.
     *
     * @param name          {@code write_bw} or {@code write_bw -b}
     * @param bidirectional whether both directions ran at once
     * @param measured      what it measured, or null when it failed
     * @param percent       measured as percent of expected, or null when nothing was expected or it failed
     * @param verdict       OK / WARN / FAIL (a failed run is FAIL; a virtual port that ran is OK)
     * @param error         the failure's one line, or null
     */
    public record Test(String name, boolean bidirectional, Measured measured, Double percent, Verdict verdict,
                       String error) {
    }
}
