package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.doctor.Verdict;
import io.rdmaffm.perftest.json.JsonWriter;

import java.util.List;
import java.util.Locale;

/** Renders {@code validate}'s results for people, or as JSON (schema {@value #SCHEMA}, docs/validate.md). */
public final class ValidateText {
    /** The {@code schema} of the JSON document. */
    public static final String SCHEMA = "rdma-ffm.validate/1";

    private ValidateText() {
    }

    /** A figure with one decimal. */
    static String gbps(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** The text report, ending with a summary line. */
    public static String human(Settings s, List<PortResult> results) {
        StringBuilder b = new StringBuilder();
        Thresholds t = s.thresholds();
        b.append("validate: loopback ib_write_bw, ").append(s.sizeBytes()).append(" B messages, ")
                .append(s.durationSeconds()).append(" s per run; OK >= ").append(gbps(t.okPercent()))
                .append("%, WARN >= ").append(gbps(t.warnPercent())).append("% of min(port rate, PCIe model)\n");
        for (PortResult r : results) {
            Expectation e = r.port();
            b.append('\n').append(e.device()).append(" port ").append(e.port()).append("  ")
                    .append(e.linkLayer() == null ? "?" : e.linkLayer()).append("  ").append(expectation(e))
                    .append('\n');
            for (PortResult.Test x : r.tests()) {
                b.append(String.format(Locale.ROOT, "  %-5s %-12s %s%n", x.verdict().label(), x.name(),
                        figures(s, e, x)));
            }
            if (r.note() != null) {
                b.append("  ").append(r.note()).append('\n');
            }
            b.append("  verdict ").append(r.verdict().label()).append(e.virtual() ? " (virtual)" : "").append('\n');
        }
        b.append("\nsummary: ").append(count(results, Verdict.OK)).append(" OK, ").append(count(results, Verdict.WARN))
                .append(" WARN, ").append(count(results, Verdict.FAIL)).append(" FAIL, ")
                .append(count(results, Verdict.NA)).append(" N/A; worst ").append(Validator.worst(results).label())
                .append(" (exit ").append(Validator.worst(results).exitCode()).append(")\n");
        return b.toString();
    }

    private static String expectation(Expectation e) {
        String rate = e.portRateGbps() == null ? "rate ?" : "rate " + gbps(e.portRateGbps()) + " Gb/s";
        if (e.virtual()) {
            return rate + ", virtual (" + e.virtualReason() + "): no PCIe, nothing expected";
        }
        String pcie = e.pcieModelGbps() == null ? "PCIe model ?"
                : "PCIe " + e.pcieLink() + " modelled " + gbps(e.pcieModelGbps()) + " Gb/s";
        Double x = e.expectedGbps();
        return rate + ", " + pcie + (x == null ? "" : " -> expected " + gbps(x) + " Gb/s (" + e.limitedBy() + ")");
    }

    private static String figures(Settings s, Expectation e, PortResult.Test x) {
        String qps = s.qpsFor(e) + " QPs";
        if (x.error() != null) {
            return qps + ", failed: " + x.error();
        }
        String m = gbps(x.measured().gbps()) + " Gb/s, " + qps;
        return x.percent() == null ? m : m + ", " + gbps(x.percent()) + "% of " + gbps(e.expectedGbps());
    }

    private static long count(List<PortResult> results, Verdict v) {
        return results.stream().filter(r -> r.verdict() == v).count();
    }

    /** The JSON document. */
    public static String json(Settings s, List<PortResult> results) {
        JsonWriter w = JsonWriter.pretty().beginObject();
        w.name("schema").value(SCHEMA);
        w.name("settings").beginObject().name("test").value("ib_write_bw").name("sizeBytes").value(s.sizeBytes())
                .name("qps").value(s.qps()).name("durationSeconds").value(s.durationSeconds())
                .name("okPercent").value(s.thresholds().okPercent())
                .name("warnPercent").value(s.thresholds().warnPercent()).endObject();
        w.name("ports").beginArray();
        for (PortResult r : results) {
            Expectation e = r.port();
            w.beginObject().name("device").value(e.device()).name("port").value(e.port())
                    .name("linkLayer").value(e.linkLayer()).name("virtual").value(e.virtual())
                    .name("virtualReason").value(e.virtualReason()).name("portRateGbps").value(e.portRateGbps())
                    .name("pcieLink").value(e.pcieLink()).name("pcieModelGbps").value(e.pcieModelGbps())
                    .name("expectedGbps").value(e.expectedGbps()).name("limitedBy").value(e.limitedBy())
                    .name("verdict").value(r.verdict().label()).name("note").value(r.note());
            w.name("tests").beginArray();
            for (PortResult.Test x : r.tests()) {
                w.beginObject().name("name").value(x.name()).name("bidirectional").value(x.bidirectional())
                        .name("qps").value(s.qpsFor(e))
                        .name("measuredGbps").value(x.measured() == null ? null : round(x.measured().gbps()))
                        .name("percentOfExpected").value(x.percent() == null ? null : round(x.percent()))
                        .name("verdict").value(x.verdict().label()).name("error").value(x.error()).endObject();
            }
            w.endArray().endObject();
        }
        w.endArray();
        Verdict worst = Validator.worst(results);
        w.name("summary").beginObject();
        for (Verdict v : new Verdict[] {Verdict.OK, Verdict.WARN, Verdict.FAIL, Verdict.NA}) {
            w.name(v.label()).value(count(results, v));
        }
        w.name("worst").value(worst.label()).name("exitCode").value(worst.exitCode()).endObject();
        return w.endObject() + "\n";
    }

    private static Double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
