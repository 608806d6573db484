package io.rdmaffm.perftest.health;

import io.rdmaffm.perftest.report.Exposition;

/**
 * The report in Prometheus' text exposition format (version 0.0.4), for node_exporter's textfile collector: one
 * gauge per HCA and check, the bandwidth measured and its threshold per HCA, and the node's verdict. Written with
 * {@link Exposition}, the writer {@code matrix} uses too.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** @return the exposition text, ending in a newline */
    public static String render(HealthReport r) {
        String type = r.nodeType();
        Exposition e = new Exposition();
        e.gauge("rdmaffm_health_check", "Whether a health check passed on an HCA (1) or failed (0); hca=\"node\" "
                + "for the node's own checks.");
        for (HcaResult h : r.results()) {
            for (CheckOutcome c : h.checks()) {
                e.sample("rdmaffm_health_check", c.passed() ? 1 : 0, "node_type", type, "hca", h.hca(), "check",
                        c.check());
            }
        }
        e.gauge("rdmaffm_health_bandwidth_gbps", "Best loopback ib_write_bw bandwidth measured on the HCA, Gb/s "
                + "(absent when none could be measured).");
        for (HcaResult h : r.results()) {
            if (h.bandwidthGbps() != null) {
                e.sample("rdmaffm_health_bandwidth_gbps", (double) h.bandwidthGbps(), "node_type", type, "hca",
                        h.hca());
            }
        }
        e.gauge("rdmaffm_health_min_bandwidth_gbps", "The node type's minimum loopback bandwidth for the HCA, Gb/s.");
        for (HcaResult h : r.results()) {
            if (h.minGbps() != null) {
                e.sample("rdmaffm_health_min_bandwidth_gbps", (double) h.minGbps(), "node_type", type, "hca",
                        h.hca());
            }
        }
        e.gauge("rdmaffm_health_loopback_runs", "Loopback runs made on the HCA in this health run (1 + retries used).");
        for (HcaResult h : r.results()) {
            if (!h.hca().equals(CheckOutcome.NODE)) {
                e.sample("rdmaffm_health_loopback_runs", (double) h.runs(), "node_type", type, "hca", h.hca());
            }
        }
        e.gauge("rdmaffm_health_run_passed", "Whether every check of this health run passed (before hysteresis).");
        e.sample("rdmaffm_health_run_passed", r.rawPassed() ? 1 : 0, "node_type", type);
        e.gauge("rdmaffm_health_node_healthy", "The node's verdict after hysteresis: 1 PASS, 0 FAIL.");
        e.sample("rdmaffm_health_node_healthy", r.passed() ? 1 : 0, "node_type", type);
        e.gauge("rdmaffm_health_last_run_timestamp_seconds", "When this health run ended, seconds since the epoch.");
        e.sample("rdmaffm_health_last_run_timestamp_seconds", r.timeSeconds(), "node_type", type);
        return e.text();
    }
}
