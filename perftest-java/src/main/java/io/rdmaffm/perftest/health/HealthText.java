package io.rdmaffm.perftest.health;

import io.rdmaffm.perftest.json.JsonWriter;

import java.util.List;

/** {@code health}'s report for people, as JSON (schema {@value #SCHEMA}) and as NHC's one line. */
public final class HealthText {
    /** The JSON schema id. */
    public static final String SCHEMA = "rdma-ffm.health/1";

    private HealthText() {
    }

    /** @return the report for people: each HCA and its checks, then the verdict */
    public static String human(HealthReport r) {
        StringBuilder b = new StringBuilder();
        b.append("health: node ").append(r.node()).append(", type ").append(r.nodeType()).append(", ")
                .append(r.hcaCount()).append(r.hcaCount() == 1 ? " HCA\n" : " HCAs\n");
        for (HcaResult h : r.results()) {
            if (h.hca().equals(CheckOutcome.NODE) && h.checks().isEmpty()) {
                continue;
            }
            b.append("  ").append(h.hca()).append("  ").append(h.passed() ? "PASS" : "FAIL").append('\n');
            for (CheckOutcome c : h.checks()) {
                b.append(String.format("    %-4s  %-16s %s%n", c.passed() ? "ok" : "FAIL", c.check(), c.reason()));
            }
        }
        b.append("verdict ").append(r.passed() ? "PASS" : "FAIL");
        String pending = r.pending();
        if (pending != null) {
            b.append(" (").append(pending).append(')');
        }
        return b.append(" (exit ").append(r.exitCode()).append(")\n").toString();
    }

    /**
     * NHC's convention, for Slurm's HealthCheckProgram: one line, {@code OK ...} or {@code ERROR: ...} with the
     * first failure (the drain reason), and the exit status.
     */
    public static String nhc(HealthReport r) {
        String pending = r.pending() == null ? "" : " (" + r.pending() + ")";
        if (r.passed()) {
            return "OK: rdma-ffm health: " + r.node() + " [" + r.nodeType() + "] " + r.hcaCount() + " HCA(s) passed"
                    + pending + "\n";
        }
        return "ERROR: " + reason(r) + pending + "\n";
    }

    /** @return the drain reason: the first failure, and how many more (failures are only listed when FAIL) */
    public static String reason(HealthReport r) {
        List<CheckOutcome> failed = r.failures();
        if (failed.isEmpty()) {
            return "rdma-ffm health: failing (hysteresis: this run passed)";
        }
        String more = failed.size() > 1 ? " (+" + (failed.size() - 1) + " more)" : "";
        return "rdma-ffm health: " + failed.getFirst().line() + more;
    }

    /** @return the report as JSON (docs/health.md) */
    public static String json(HealthReport r) {
        JsonWriter w = JsonWriter.pretty().beginObject().name("schema").value(SCHEMA).name("node").value(r.node())
                .name("nodeType").value(r.nodeType()).name("verdict").value(r.passed() ? "PASS" : "FAIL")
                .name("thisRun").value(r.rawPassed() ? "PASS" : "FAIL").name("hysteresis").beginObject()
                .name("k").value(r.k()).name("streak").value(r.state().streak()).endObject()
                .name("time").value(r.timeSeconds()).name("hcas").beginArray();
        for (HcaResult h : r.results()) {
            w.beginObject().name("hca").value(h.hca()).name("passed").value(h.passed())
                    .name("bandwidthGbps").value(h.bandwidthGbps()).name("minGbps").value(h.minGbps())
                    .name("runs").value(h.runs()).name("checks").beginArray();
            for (CheckOutcome c : h.checks()) {
                w.beginObject().name("check").value(c.check()).name("passed").value(c.passed())
                        .name("reason").value(c.reason()).endObject();
            }
            w.endArray().endObject();
        }
        return w.endArray().endObject().toString() + "\n";
    }
}
