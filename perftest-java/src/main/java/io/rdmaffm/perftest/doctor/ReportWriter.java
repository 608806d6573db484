package io.rdmaffm.perftest.doctor;

import io.rdmaffm.perftest.exchange.Untrusted;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.report.BuildInfo;
import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Renders a {@link DoctorReport} for people or as the documented JSON (docs/doctor.md). */
public final class ReportWriter {

    /** The {@code schema} value of the JSON document; bumped on incompatible changes. */
    public static final String SCHEMA = "rdma-ffm.doctor/1";

    private ReportWriter() {
    }

    /**
     * @param r the report
     * @return the human-readable report, ending with a summary line
     */
    public static String human(DoctorReport r) {
        StringBuilder b = new StringBuilder();
        b.append("doctor: sysfs root ").append(r.topology().root()).append('\n');
        for (String p : r.problems()) {
            b.append("  note: ").append(p).append('\n');
        }
        for (SysfsRdmaDevice d : r.devices()) {
            b.append('\n').append(d.name()).append("  ").append(deviceLine(d)).append('\n');
            for (CheckResult c : r.results()) {
                if (d.name().equals(c.device()) && c.port() == null) {
                    line(b, "  ", c);
                }
            }
            for (RdmaPort p : d.ports().orElse(List.of())) {
                b.append("  port ").append(p.number()).append("  ").append(p.linkLayer().orElse("?")).append("  ")
                        .append(p.state().known() ? p.state().value().name() : "?").append('/')
                        .append(p.physState().known() ? p.physState().value().name() : "?").append("  ")
                        .append(p.rate().known() ? p.rate().value().raw() : "rate ?").append('\n');
                for (CheckResult c : r.results()) {
                    if (d.name().equals(c.device()) && Objects.equals(c.port(), p.number())) {
                        line(b, "    ", c);
                    }
                }
            }
        }
        if (!r.gpus().isEmpty()) {
            b.append("\nGPUs (judged by max link: GPUs downtrain when idle)\n");
            for (Doctor.GpuChoice g : r.gpus()) {
                b.append("  ").append(g.pci()).append("  ").append(g.model()).append("  max ").append(g.maxLink())
                        .append("  -> use ").append(g.nic() == null ? "(no NIC with a PCI path)"
                                : g.nic() + " (" + g.path() + ")").append('\n');
            }
        }
        b.append("\nhost\n");
        for (CheckResult c : r.results()) {
            if (c.device() == null) {
                line(b, "  ", c);
            }
        }
        if (r.counters() != null) {
            CounterDeltas cd = r.counters();
            b.append("\ncounters over ").append(Fmt.fmt(cd.seconds())).append(" s (").append(cd.sampled())
                    .append(" sampled)\n");
            if (cd.deltas().isEmpty()) {
                b.append("  no trouble counter moved\n");
            }
            for (CounterDeltas.Delta d : cd.deltas()) {
                b.append("  ").append(d.device()).append(' ').append(d.counter()).append(" +").append(d.delta())
                        .append('\n');
            }
            if (!cd.problems().isEmpty()) {
                b.append("  ").append(cd.problems().size()).append(" counter file(s) unreadable, e.g. ")
                        .append(cd.problems().getFirst()).append('\n');
            }
        }
        b.append("\nsummary: ").append(r.count(Verdict.OK)).append(" OK, ").append(r.count(Verdict.WARN))
                .append(" WARN, ").append(r.count(Verdict.FAIL)).append(" FAIL, ").append(r.count(Verdict.NA))
                .append(" N/A; ").append(uncheckedNote(r)).append("worst ").append(r.worst().label()).append(" (exit ").append(r.exitCode()).append(")\n");
        return printable(b);
    }

    /** {@code not checked: a, b (every check N/A); } or nothing. */
    private static String uncheckedNote(DoctorReport r) {
        List<String> u = r.unchecked();
        return u.isEmpty() ? "" : "not checked: " + String.join(", ", u) + " (every check N/A); ";
    }

    /**
     * Every line made safe for a terminal: names and reasons come from files (and file names) in the sysfs
     * tree, which a captured or broken tree can fill with control sequences.
     */
    private static String printable(CharSequence text) {
        StringBuilder out = new StringBuilder(text.length());
        for (String l : text.toString().split("\n", -1)) {
            if (!out.isEmpty()) {
                out.append('\n');
            }
            out.append(Untrusted.line(l));
        }
        return out.toString();
    }

    private static String deviceLine(SysfsRdmaDevice d) {
        List<String> parts = new ArrayList<>();
        parts.add(d.nodeType().known() ? d.nodeType().value().toString() : "node type ?");
        d.fwVer().map(v -> parts.add("fw " + v));
        if (d.virtual()) {
            parts.add("virtual: " + d.virtualReason());
        } else if (d.pci().known()) {
            PciPath p = d.pci().value();
            parts.add("PCI " + p.endpoint().address());
            parts.add("path " + p.describe());
        } else {
            parts.add("PCI unknown (" + d.pci().problem() + ")");
        }
        return String.join(", ", parts);
    }

    private static void line(StringBuilder b, String indent, CheckResult c) {
        b.append(indent).append(String.format("%-5s %-17s %s", c.verdict().label(), c.check().id(), c.reason()))
                .append('\n');
    }

    /**
     * @param r the report
     * @return the JSON document described in docs/doctor.md
     */
    public static String json(DoctorReport r) {
        return json(r, BuildInfo.CURRENT);
    }

    /**
     * As {@link #json(DoctorReport)}, naming {@code build} as the tool that wrote it ({@code tool_version},
     * {@code tool_commit}, {@code tool_dirty}: the run document's keys, from the same build-info resource).
     */
    public static String json(DoctorReport r, BuildInfo build) {
        JsonWriter w = JsonWriter.pretty().beginObject();
        w.name("schema").value(SCHEMA);
        build.writeJson(w);
        w.name("sysfsRoot").value(r.topology().root().toString());
        w.name("devices").beginArray();
        for (SysfsRdmaDevice d : r.devices()) {
            device(w, r, d);
        }
        w.endArray();
        w.name("gpus").beginArray();
        for (Doctor.GpuChoice g : r.gpus()) {
            w.beginObject().name("pci").value(g.pci()).name("model").value(g.model()).name("maxLink")
                    .value(g.maxLink()).name("nic").value(g.nic())
                    .name("path").value(g.path() == null ? null : g.path().name()).endObject();
        }
        w.endArray();
        w.name("checks").beginArray();
        for (CheckResult c : r.results()) {
            w.beginObject();
            w.name("id").value(c.check().id());
            w.name("device").value(c.device());
            w.name("port").value(c.port());
            w.name("verdict").value(c.verdict().label());
            w.name("advisory").value(c.advisory());
            w.name("reason").value(c.reason());
            numbers(w.name("numbers"), c.numbers());
            w.endObject();
        }
        w.endArray();
        counters(w.name("counters"), r.counters());
        w.name("problems").any(r.problems());
        w.name("summary").beginObject();
        for (Verdict v : new Verdict[] {Verdict.OK, Verdict.WARN, Verdict.FAIL, Verdict.NA}) {
            w.name(v.label()).value(r.count(v));
        }
        w.name("unchecked").any(r.unchecked());
        w.name("worst").value(r.worst().label());
        w.name("exitCode").value(r.exitCode());
        w.endObject();
        return w.endObject() + "\n";
    }

    private static void device(JsonWriter w, DoctorReport r, SysfsRdmaDevice d) {
        Reading<PciPath> pci = d.pci();
        w.beginObject();
        w.name("name").value(d.name());
        w.name("virtual").value(d.virtual());
        w.name("virtualReason").value(d.virtual() ? d.virtualReason() : null);
        w.name("nodeType").value(d.nodeType().known() ? d.nodeType().value().toString() : null);
        w.name("fwVer").value(d.fwVer().orElse(null));
        w.name("pci").value(pci.known() ? pci.value().endpoint().address() : null);
        w.name("pciPath").value(pci.known() ? pci.value().describe() : null);
        w.name("numaNode").value(pci.known() ? pci.value().endpoint().numaNode().orElse(null) : null);
        w.name("ports").beginArray();
        for (RdmaPort p : d.ports().orElse(List.of())) {
            w.beginObject();
            w.name("port").value(p.number());
            w.name("linkLayer").value(p.linkLayer().orElse(null));
            w.name("state").value(p.state().known() ? p.state().value().name() : null);
            w.name("physState").value(p.physState().known() ? p.physState().value().name() : null);
            w.name("rate").value(p.rate().known() ? p.rate().value().raw() : null);
            w.name("rateGbps").value(p.rate().known() ? p.rate().value().gbps() : null);
            String nd = netdevOf(r, d, p);
            w.name("netdev").value(nd);
            w.name("netdevMtu").value(nd == null ? null : r.topology().netdev(nd).map(NetDevice::mtu)
                    .map(x -> x.orElse(null)).orElse(null));
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }

    private static void numbers(JsonWriter w, Numbers numbers) {
        w.beginObject();
        for (Numbers.Figure f : numbers.figures()) {
            w.name(f.name());
            switch (f) {
                case Numbers.Text t -> w.value(t.value());
                case Numbers.Whole x -> w.value(x.value());
                case Numbers.Real x -> w.value(x.value());
                case Numbers.Flag x -> w.value(x.value().booleanValue());
            }
        }
        w.endObject();
    }

    /** The netdev a port's checks found; the last one that names it wins. */
    private static String netdevOf(DoctorReport r, SysfsRdmaDevice d, RdmaPort p) {
        String nd = null;
        for (CheckResult c : r.results()) {
            if (d.name().equals(c.device()) && Objects.equals(c.port(), p.number())
                    && c.numbers().get("netdev") instanceof String s) {
                nd = s;
            }
        }
        return nd;
    }

    private static void counters(JsonWriter w, CounterDeltas c) {
        if (c == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        w.name("seconds").value(c.seconds());
        w.name("sampled").value(c.sampled());
        w.name("deltas").beginArray();
        for (CounterDeltas.Delta d : c.deltas()) {
            w.beginObject().name("device").value(d.device()).name("counter").value(d.counter())
                    .name("delta").value(d.delta()).endObject();
        }
        w.endArray();
        w.name("problems").any(c.problems());
        w.endObject();
    }
}
