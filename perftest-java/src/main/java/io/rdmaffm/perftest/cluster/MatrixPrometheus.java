package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.report.Exposition;

import java.util.Arrays;
import java.util.Locale;

/**
 * A finished matrix in Prometheus' text exposition format, for node_exporter's textfile collector on the host that
 * ran it: per host end (host, rail, device) its verdict as a state set and whether it is healthy; per rail test its
 * status as a state set, whether it is good, and its figures; then the run's counts and best figures. Written with
 * {@link Exposition}, the writer {@code health} uses too, so both read the same way in a dashboard.
 *
 * <p>Fail-closed: a figure that was not measured (a failed pair) has no sample, never 0, and an end none of whose
 * peers could be measured (they failed because of the peer host) is not healthy, whatever the roll-up's verdict
 * (which says OK, "no peer could be measured": nothing against it, nothing for it).
 */
public final class MatrixPrometheus {
    private MatrixPrometheus() {
    }

    /**
     * @param o           the finished matrix
     * @param timeSeconds when it ended, seconds since the epoch
     * @return the exposition text, ending in a newline
     */
    public static String render(MatrixOutcome o, long timeSeconds) {
        Exposition e = new Exposition();
        e.gauge("rdmaffm_matrix_host_healthy", "Whether a host end (host, rail, device) was measured with at least"
                + " one peer and is good with all of them (verdict ok): 1, else 0.");
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            e.sample("rdmaffm_matrix_host_healthy", healthy(v) ? 1 : 0, end(v));
        }
        e.gauge("rdmaffm_matrix_host_verdict", "A host end's verdict as a state set: 1 for its verdict, 0 for the"
                + " others (ok, some_pairs, suspect, node, host_failed).");
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            for (HostRollup.Verdict s : HostRollup.Verdict.values()) {
                e.sample("rdmaffm_matrix_host_verdict", v.verdict() == s ? 1 : 0, with(end(v), "verdict", lower(s)));
            }
        }
        e.gauge("rdmaffm_matrix_host_peers", "Peers counted for a host end's verdict.");
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            e.sample("rdmaffm_matrix_host_peers", v.peers(), end(v));
        }
        e.gauge("rdmaffm_matrix_host_bad_peers", "Of those peers, how many were flagged or failed with it.");
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            e.sample("rdmaffm_matrix_host_bad_peers", v.badPeers(), end(v));
        }
        e.gauge("rdmaffm_matrix_pair_good", "Whether a rail test is good in the end (ok, or ok on its retest): 1,"
                + " else 0.");
        for (PairResult r : o.results()) {
            e.sample("rdmaffm_matrix_pair_good", r.bad() ? 0 : 1, pair(r.test()));
        }
        e.gauge("rdmaffm_matrix_pair_status", "A rail test's status as a state set: 1 for its status, 0 for the"
                + " others (ok, ok_on_retest, flagged, failed).");
        for (PairResult r : o.results()) {
            for (PairResult.Status s : PairResult.Status.values()) {
                e.sample("rdmaffm_matrix_pair_status", r.status() == s ? 1 : 0, with(pair(r.test()), "status",
                        lower(s)));
            }
        }
        e.gauge("rdmaffm_matrix_pair_bandwidth_gbps", "A rail test's bandwidth (its last attempt), Gb/s; absent when"
                + " none was measured.");
        for (PairResult r : o.results()) {
            if (!Double.isNaN(r.last().bwGbps())) {
                e.sample("rdmaffm_matrix_pair_bandwidth_gbps", r.last().bwGbps(), pair(r.test()));
            }
        }
        e.gauge("rdmaffm_matrix_pair_latency_usec", "A rail test's latency (its last attempt, typical), us; absent"
                + " when none was measured.");
        for (PairResult r : o.results()) {
            if (!Double.isNaN(r.last().latUsec())) {
                e.sample("rdmaffm_matrix_pair_latency_usec", r.last().latUsec(), pair(r.test()));
            }
        }
        e.gauge("rdmaffm_matrix_rail_tests", "Rail tests of this matrix by status.");
        for (PairResult.Status s : PairResult.Status.values()) {
            e.sample("rdmaffm_matrix_rail_tests", o.count(s), "status", lower(s));
        }
        e.gauge("rdmaffm_matrix_best_bandwidth_gbps", "The best pair's bandwidth, Gb/s (what the relative rule"
                + " compared with); absent when none was measured.");
        if (!Double.isNaN(o.best().bwGbps())) {
            e.sample("rdmaffm_matrix_best_bandwidth_gbps", o.best().bwGbps());
        }
        e.gauge("rdmaffm_matrix_best_latency_usec", "The best pair's latency, us; absent when none was measured.");
        if (!Double.isNaN(o.best().latUsec())) {
            e.sample("rdmaffm_matrix_best_latency_usec", o.best().latUsec());
        }
        e.gauge("rdmaffm_matrix_exit_status", "The matrix's exit status: 0 all good, 1 a pair flagged, 2 a pair"
                + " failed.");
        e.sample("rdmaffm_matrix_exit_status", o.exitCode());
        e.gauge("rdmaffm_matrix_last_run_timestamp_seconds", "When this matrix ended, seconds since the epoch.");
        e.sample("rdmaffm_matrix_last_run_timestamp_seconds", timeSeconds);
        return e.text();
    }

    /** Good with every peer, and at least one peer measured: a check that could not measure is not a pass. */
    static boolean healthy(HostRollup.EndVerdict v) {
        return v.verdict() == HostRollup.Verdict.OK && v.peers() > 0;
    }

    private static String[] end(HostRollup.EndVerdict v) {
        return new String[] {"host", v.host(), "rail", Integer.toString(v.rail()), "device", device(v.device())};
    }

    private static String[] pair(RailTest t) {
        return new String[] {"server", t.server(), "client", t.client(), "rail", Integer.toString(t.rail()),
            "server_device", device(t.serverDevice()), "client_device", device(t.clientDevice())};
    }

    private static String[] with(String[] labels, String name, String value) {
        String[] all = Arrays.copyOf(labels, labels.length + 2);
        all[labels.length] = name;
        all[labels.length + 1] = value;
        return all;
    }

    /** The tool's default device has no name: an empty label, which Prometheus reads as no label. */
    private static String device(String d) {
        return d == null ? "" : d;
    }

    private static String lower(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
