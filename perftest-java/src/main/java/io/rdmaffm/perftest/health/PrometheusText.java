package io.rdmaffm.perftest.health;

import java.util.Locale;

/**
 * The report in Prometheus' text exposition format (version 0.0.4), for node_exporter's textfile collector: one
 * gauge per HCA and check, the bandwidth measured and its threshold per HCA, and the node's verdict. Every family
 * has its HELP and TYPE lines and its samples together, as the format requires.
 */
public final class PrometheusText {
    private PrometheusText() {
    }

    /** @return the exposition text, ending in a newline */
    public static String render(HealthReport r) {
        String type = "node_type=\"" + escape(r.nodeType()) + "\"";
        StringBuilder b = new StringBuilder();
        family(b, "rdmaffm_health_check", "Whether a health check passed on an HCA (1) or failed (0); hca=\"node\" "
                + "for the node's own checks.");
        for (HcaResult h : r.results()) {
            for (CheckOutcome c : h.checks()) {
                b.append("rdmaffm_health_check{").append(type).append(",hca=\"").append(escape(h.hca()))
                        .append("\",check=\"").append(escape(c.check())).append("\"} ").append(c.passed() ? 1 : 0)
                        .append('\n');
            }
        }
        family(b, "rdmaffm_health_bandwidth_gbps", "Best loopback ib_write_bw bandwidth measured on the HCA, Gb/s "
                + "(absent when none could be measured).");
        for (HcaResult h : r.results()) {
            if (h.bandwidthGbps() != null) {
                sample(b, "rdmaffm_health_bandwidth_gbps", type, h.hca(), h.bandwidthGbps());
            }
        }
        family(b, "rdmaffm_health_min_bandwidth_gbps", "The node type's minimum loopback bandwidth for the HCA, Gb/s.");
        for (HcaResult h : r.results()) {
            if (h.minGbps() != null) {
                sample(b, "rdmaffm_health_min_bandwidth_gbps", type, h.hca(), h.minGbps());
            }
        }
        family(b, "rdmaffm_health_loopback_runs", "Loopback runs made on the HCA in this health run (1 + retries used).");
        for (HcaResult h : r.results()) {
            if (!h.hca().equals(CheckOutcome.NODE)) {
                sample(b, "rdmaffm_health_loopback_runs", type, h.hca(), h.runs());
            }
        }
        family(b, "rdmaffm_health_run_passed", "Whether every check of this health run passed (before hysteresis).");
        b.append("rdmaffm_health_run_passed{").append(type).append("} ").append(r.rawPassed() ? 1 : 0).append('\n');
        family(b, "rdmaffm_health_node_healthy", "The node's verdict after hysteresis: 1 PASS, 0 FAIL.");
        b.append("rdmaffm_health_node_healthy{").append(type).append("} ").append(r.passed() ? 1 : 0).append('\n');
        family(b, "rdmaffm_health_last_run_timestamp_seconds", "When this health run ended, seconds since the epoch.");
        b.append("rdmaffm_health_last_run_timestamp_seconds{").append(type).append("} ").append(r.timeSeconds())
                .append('\n');
        return b.toString();
    }

    private static void family(StringBuilder b, String name, String help) {
        b.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n"))
                .append("\n# TYPE ").append(name).append(" gauge\n");
    }

    private static void sample(StringBuilder b, String name, String type, String hca, double v) {
        b.append(name).append('{').append(type).append(",hca=\"").append(escape(hca)).append("\"} ")
                .append(String.format(Locale.ROOT, "%.3f", v)).append('\n');
    }

    /** A label value as the format wants it: backslash, double quote and line feed escaped. */
    static String escape(String v) {
        return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
