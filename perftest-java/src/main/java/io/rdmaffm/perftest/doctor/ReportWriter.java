package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.RdmaPort;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            b.append("\ncounters over ").append(Doctor.fmt(cd.seconds())).append(" s (").append(cd.sampled())
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
                .append(" N/A; worst ").append(r.worst().label()).append(" (exit ").append(r.exitCode()).append(")\n");
        return b.toString();
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
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("schema", SCHEMA);
        root.put("sysfsRoot", r.topology().root().toString());
        List<Object> devices = new ArrayList<>();
        for (SysfsRdmaDevice d : r.devices()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", d.name());
            m.put("virtual", d.virtual());
            m.put("virtualReason", d.virtual() ? d.virtualReason() : null);
            m.put("nodeType", d.nodeType().known() ? d.nodeType().value().toString() : null);
            m.put("fwVer", d.fwVer().orElse(null));
            m.put("pci", d.pci().known() ? d.pci().value().endpoint().address() : null);
            m.put("pciPath", d.pci().known() ? d.pci().value().describe() : null);
            m.put("numaNode", d.pci().known() ? d.pci().value().endpoint().numaNode().orElse(null) : null);
            List<Object> ports = new ArrayList<>();
            for (RdmaPort p : d.ports().orElse(List.of())) {
                Map<String, Object> pm = new LinkedHashMap<>();
                pm.put("port", p.number());
                pm.put("linkLayer", p.linkLayer().orElse(null));
                pm.put("state", p.state().known() ? p.state().value().name() : null);
                pm.put("physState", p.physState().known() ? p.physState().value().name() : null);
                pm.put("rate", p.rate().known() ? p.rate().value().raw() : null);
                pm.put("rateGbps", p.rate().known() ? p.rate().value().gbps() : null);
                String nd = null;
                for (CheckResult c : r.results()) {
                    if (d.name().equals(c.device()) && Objects.equals(c.port(), p.number())
                            && c.numbers().get("netdev") instanceof String s) {
                        nd = s;
                    }
                }
                pm.put("netdev", nd);
                Integer mtu = nd == null ? null : r.topology().netdev(nd).map(NetDevice::mtu)
                        .map(x -> x.orElse(null)).orElse(null);
                pm.put("netdevMtu", mtu);
                ports.add(pm);
            }
            m.put("ports", ports);
            devices.add(m);
        }
        root.put("devices", devices);
        List<Object> gpus = new ArrayList<>();
        for (Doctor.GpuChoice g : r.gpus()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("pci", g.pci());
            m.put("model", g.model());
            m.put("maxLink", g.maxLink());
            m.put("nic", g.nic());
            m.put("path", g.path() == null ? null : g.path().name());
            gpus.add(m);
        }
        root.put("gpus", gpus);
        List<Object> checks = new ArrayList<>();
        for (CheckResult c : r.results()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c.check().id());
            m.put("device", c.device());
            m.put("port", c.port());
            m.put("verdict", c.verdict().label());
            m.put("advisory", c.advisory());
            m.put("reason", c.reason());
            m.put("numbers", c.numbers());
            checks.add(m);
        }
        root.put("checks", checks);
        if (r.counters() == null) {
            root.put("counters", null);
        } else {
            Map<String, Object> cm = new LinkedHashMap<>();
            cm.put("seconds", r.counters().seconds());
            cm.put("sampled", r.counters().sampled());
            List<Object> ds = new ArrayList<>();
            for (CounterDeltas.Delta d : r.counters().deltas()) {
                Map<String, Object> dm = new LinkedHashMap<>();
                dm.put("device", d.device());
                dm.put("counter", d.counter());
                dm.put("delta", d.delta());
                ds.add(dm);
            }
            cm.put("deltas", ds);
            cm.put("problems", r.counters().problems());
            root.put("counters", cm);
        }
        root.put("problems", r.problems());
        Map<String, Object> s = new LinkedHashMap<>();
        for (Verdict v : new Verdict[] {Verdict.OK, Verdict.WARN, Verdict.FAIL, Verdict.NA}) {
            s.put(v.label(), r.count(v));
        }
        s.put("worst", r.worst().label());
        s.put("exitCode", r.exitCode());
        root.put("summary", s);
        return Json.pretty(root) + "\n";
    }
}
