package io.rdmaffm.perftest.cluster;

import java.util.Comparator;
import java.util.List;

/**
 * A finished matrix as NHC's one line ({@code OK: ...} or {@code ERROR: ...}), to go with the matrix's exit status
 * (0 good, 1 flagged, 2 failed: anything but 0 is an error to NHC and to Slurm). The error names the worst host
 * end first (a host that failed the tests, then a node problem, then a suspect, then some bad pairs), so the line a
 * script drains or alerts on points at a host; an end that no peer could be measured with comes next (fail-closed:
 * not healthy, {@link MatrixPrometheus#healthy}); the count of the others follows.
 */
public final class MatrixNhc {
    /** The longest line: NHC's and scontrol's reasons are read by people, and a remote message can be long. */
    static final int MAX_REASON = 200;

    private MatrixNhc() {
    }

    /** @return the line, ending in a newline */
    public static String line(MatrixOutcome o) {
        int hosts = o.plan().hosts().names().size();
        if (o.exitCode() == 0 && !o.results().isEmpty()) {
            long retested = o.count(PairResult.Status.OK_ON_RETEST);
            return "OK: rdma-ffm matrix: " + hosts + " hosts, " + o.results().size() + " rail tests good"
                    + (retested == 0 ? "" : " (" + retested + " on retest)") + "\n";
        }
        if (o.results().isEmpty()) {
            return "ERROR: rdma-ffm matrix: no rail test was run\n";
        }
        List<HostRollup.EndVerdict> bad = o.rollup().ends().stream()
                .filter(v -> !MatrixPrometheus.healthy(v))
                .sorted(Comparator.comparingInt(MatrixNhc::severity)).toList();
        if (bad.isEmpty()) {
            return "ERROR: rdma-ffm matrix: " + MatrixReport.summary(o) + "\n";
        }
        HostRollup.EndVerdict worst = bad.getFirst();
        String more = bad.size() > 1 ? " (+" + (bad.size() - 1) + " more host ends)" : "";
        return "ERROR: rdma-ffm matrix: " + Names.printable(worst.host() + (worst.device() == null ? ""
                : "/" + worst.device()) + " " + worst.verdict() + ": " + worst.reason(), MAX_REASON) + more + "\n";
    }

    /** Lower is worse: the order an operator acts in. */
    private static int severity(HostRollup.EndVerdict v) {
        return switch (v.verdict()) {
            case HOST_FAILED -> 0;
            case NODE -> 1;
            case OK -> 2;
            case SUSPECT -> 3;
            case SOME_PAIRS -> 4;
        };
    }
}
