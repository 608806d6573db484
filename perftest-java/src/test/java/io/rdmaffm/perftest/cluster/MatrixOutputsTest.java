package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.report.PrometheusParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The matrix's verdicts for operators' tools, on a fixed outcome (MatrixJsonTest's: a good pair, a stalled one and
 * a slow one among hosts a, b, c): the Prometheus text per host end and per pair, read back by Prometheus' Python
 * client's own parser, and NHC's one line.
 */
class MatrixOutputsTest {
    private static final long TIME = 1_765_000_000L;

    /** Every rail test of {@code outcome()} ok at 100 Gb/s, 2 us: a matrix with nothing to report. */
    private static MatrixOutcome allGood(boolean oneOnRetest) {
        MatrixOutcome bad = MatrixJsonTest.outcome();
        List<Attempt> firsts = new ArrayList<>();
        Map<RailTest, Attempt> retests = new java.util.HashMap<>();
        for (PairResult r : bad.results()) {
            firsts.add(new Attempt(r.test(), 1, null, 100, 2, List.of()));
        }
        if (oneOnRetest) {
            RailTest t = firsts.getFirst().test();
            firsts.set(0, new Attempt(t, 1, new Failure(Failure.Kind.STALLED, t.client(), "late"), Double.NaN,
                    Double.NaN, List.of()));
            retests.put(t, new Attempt(t, 2, null, 100, 2, List.of()));
        }
        Verdicts v = Verdicts.judge(bad.plan().hosts().names(), OutlierRules.of(bad.plan()), firsts, retests);
        return new MatrixOutcome(bad.plan(), v.results(), v.best(), v.rollup());
    }

    @Test
    void everyHostEndAndPairHasItsGaugesAndUnmeasuredFiguresAreAbsent() {
        MatrixOutcome o = MatrixJsonTest.outcome();
        String text = MatrixPrometheus.render(o, TIME);
        List<String> samples = text.lines().filter(l -> !l.startsWith("#")).toList();
        // One HELP and one TYPE gauge line per family, before its samples.
        List<String> families = text.lines().filter(l -> l.startsWith("# TYPE ")).map(l -> l.split(" ")[2]).toList();
        assertEquals(families.size(), families.stream().distinct().count(), text);
        assertTrue(text.lines().filter(l -> l.startsWith("# TYPE ")).allMatch(l -> l.endsWith(" gauge")), text);
        String current = null;
        for (String line : text.lines().toList()) {
            if (line.startsWith("# TYPE ")) {
                current = line.split(" ")[2];
            } else if (!line.startsWith("#")) {
                assertTrue(line.startsWith(current + "{") || line.startsWith(current + " "), "outside its family: "
                        + line);
            }
        }
        // Per host end: healthy, and exactly one verdict of the state set set to 1.
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            String end = "host=\"" + v.host() + "\",rail=\"0\",device=\"mlx5_0\"";
            assertTrue(samples.contains("rdmaffm_matrix_host_healthy{" + end + "} "
                    + (v.verdict() == HostRollup.Verdict.OK && v.peers() > 0 ? 1 : 0)), v + "\n" + text);
            assertEquals(1, samples.stream().filter(s -> s.startsWith("rdmaffm_matrix_host_verdict{" + end)
                    && s.endsWith(" 1")).count(), text);
            assertTrue(samples.contains("rdmaffm_matrix_host_verdict{" + end + ",verdict=\""
                    + v.verdict().name().toLowerCase(java.util.Locale.ROOT) + "\"} 1"), text);
            assertEquals(HostRollup.Verdict.values().length, samples.stream()
                    .filter(s -> s.startsWith("rdmaffm_matrix_host_verdict{" + end)).count(), text);
        }
        assertEquals(3, o.rollup().ends().size());
        // Per pair: its status, its figures only when measured.
        int failed = 0;
        for (PairResult r : o.results()) {
            RailTest t = r.test();
            String pair = "server=\"" + t.server() + "\",client=\"" + t.client()
                    + "\",rail=\"0\",server_device=\"mlx5_0\",client_device=\"mlx5_0\"";
            assertTrue(samples.contains("rdmaffm_matrix_pair_good{" + pair + "} " + (r.bad() ? 0 : 1)), text);
            assertTrue(samples.contains("rdmaffm_matrix_pair_status{" + pair + ",status=\""
                    + r.status().name().toLowerCase(java.util.Locale.ROOT) + "\"} 1"), text);
            boolean measured = samples.stream().anyMatch(s -> s.startsWith("rdmaffm_matrix_pair_bandwidth_gbps{"
                    + pair + "}"));
            assertEquals(r.status() != PairResult.Status.FAILED, measured, r + "\n" + text);
            failed += r.status() == PairResult.Status.FAILED ? 1 : 0;
        }
        assertEquals(1, failed, "the fixture has one failed pair");
        assertTrue(samples.stream().anyMatch(s -> s.startsWith("rdmaffm_matrix_pair_bandwidth_gbps{")
                && s.endsWith("} 97.250")), text);
        assertTrue(samples.stream().anyMatch(s -> s.startsWith("rdmaffm_matrix_pair_latency_usec{")
                && s.endsWith("} 4.500")), text);
        assertTrue(samples.contains("rdmaffm_matrix_rail_tests{status=\"failed\"} 1"), text);
        assertTrue(samples.contains("rdmaffm_matrix_rail_tests{status=\"ok\"} 1"), text);
        assertTrue(samples.contains("rdmaffm_matrix_best_bandwidth_gbps 97.250"), text);
        assertTrue(samples.contains("rdmaffm_matrix_exit_status 2"), text);
        assertTrue(samples.contains("rdmaffm_matrix_last_run_timestamp_seconds " + TIME), text);
        assertFalse(samples.stream().anyMatch(s -> s.contains("NaN")), "a figure not measured is absent: " + text);
        assertTrue(text.endsWith("\n"));
    }

    /** The Python client's parser (Debian's python3-prometheus-client) must read every family and sample back. */
    @Test
    void prometheusOwnParserReadsItBack() throws Exception {
        String text = MatrixPrometheus.render(MatrixJsonTest.outcome(), TIME);
        String parsed = PrometheusParser.parse(text);
        assertEquals(text.lines().filter(l -> !l.startsWith("#")).count(), parsed.lines().count(), parsed);
        assertTrue(parsed.lines().allMatch(l -> l.startsWith("gauge rdmaffm_matrix_")), parsed);
        assertTrue(parsed.contains("gauge rdmaffm_matrix_host_verdict device=mlx5_0,host=a,rail=0,verdict=ok "),
                parsed);
        assertTrue(parsed.contains("gauge rdmaffm_matrix_best_bandwidth_gbps  97.25\n"), parsed);
        assertTrue(parsed.contains("gauge rdmaffm_matrix_exit_status  2.0\n"), parsed);
    }

    @Test
    void nhcLineNamesTheWorstHostEndAndPassesOnlyAGoodMatrix() {
        MatrixOutcome bad = MatrixJsonTest.outcome();
        String line = MatrixNhc.line(bad);
        assertTrue(line.startsWith("ERROR: rdma-ffm matrix: "), line);
        assertTrue(line.endsWith("\n") && line.indexOf('\n') == line.length() - 1, "one line: " + line);
        // The stalled pair is blamed on its client host: that host's end failed, and it comes first.
        HostRollup.EndVerdict worst = bad.rollup().ends().stream()
                .filter(v -> v.verdict() == HostRollup.Verdict.HOST_FAILED).findFirst().orElseThrow();
        assertTrue(line.startsWith("ERROR: rdma-ffm matrix: " + worst.host() + "/mlx5_0 HOST_FAILED: stalled: "),
                line + bad.rollup());
        long others = bad.rollup().ends().stream()
                .filter(v -> v.verdict() != HostRollup.Verdict.OK || v.peers() == 0).count() - 1;
        assertTrue(others > 0 && line.endsWith(" (+" + others + " more host ends)\n"), line + bad.rollup());
        assertTrue(line.contains("no result \"in\" time"), line);

        assertEquals("OK: rdma-ffm matrix: 3 hosts, 3 rail tests good\n", MatrixNhc.line(allGood(false)));
        assertEquals(0, allGood(false).exitCode());
        assertEquals("OK: rdma-ffm matrix: 3 hosts, 3 rail tests good (1 on retest)\n",
                MatrixNhc.line(allGood(true)));
        MatrixOutcome none = new MatrixOutcome(bad.plan(), List.of(), bad.best(), HostRollup.of(List.of(), List.of()));
        assertEquals("ERROR: rdma-ffm matrix: no rail test was run\n", MatrixNhc.line(none), "nothing measured is"
                + " never a pass");
    }

    @Test
    void aReasonFromAHostIsOneLineAndCut() {
        MatrixOutcome bad = MatrixJsonTest.outcome();
        List<Attempt> firsts = new ArrayList<>();
        for (PairResult r : bad.results()) {
            RailTest t = r.test();
            firsts.add(new Attempt(t, 1, new Failure(Failure.Kind.STALLED, t.client(), "evil\n\u001b[2Jline"
                    + "x".repeat(500)), Double.NaN, Double.NaN, List.of()));
        }
        Verdicts v = Verdicts.judge(bad.plan().hosts().names(), OutlierRules.of(bad.plan()), firsts, Map.of());
        String line = MatrixNhc.line(new MatrixOutcome(bad.plan(), v.results(), v.best(), v.rollup()));
        assertTrue(line.indexOf('\n') == line.length() - 1 && line.indexOf('\u001b') < 0, line);
        assertTrue(line.contains("evil??[2Jline"), line);
        assertTrue(line.length() < MatrixNhc.MAX_REASON + 80, line.length() + ": " + line);
    }
}
