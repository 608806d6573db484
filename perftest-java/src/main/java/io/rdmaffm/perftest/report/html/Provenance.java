package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.DeviceInfo;
import io.rdmaffm.perftest.report.model.Environment;
import io.rdmaffm.perftest.report.model.MeasuredWindow;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.TestInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where a run came from, as a definition list: host, device, firmware, link, PCIe path, NUMA node, GID, MTU,
 * tool and flags, JDK and JVM flags, date, and what the JVM did during the measured windows. A fact the file
 * does not hold says "not recorded"; a version-0 file says which facts only schema 1 carries.
 */
public final class Provenance {
    static final String NOT_RECORDED = "not recorded";

    private Provenance() {
    }

    /** One {@code <dt>}/{@code <dd>} pair. */
    public record Entry(String term, String value) {
    }

    /** The entries for a run, in display order. */
    public static List<Entry> entries(RunDocument run) {
        List<Entry> e = new ArrayList<>();
        e.add(new Entry("File", run.source()));
        e.add(new Entry("Schema", run.schemaVersion() == 0
                ? "version 0 (no schema key): banner, parameters and rows only; environment, device, histograms "
                        + "and JVM activity were not recorded"
                : "rdma-ffm.run/" + run.schemaVersion()));
        e.add(new Entry("Test", run.testName()));
        environment(e, run.environment());
        device(e, run);
        e.add(new Entry("Tool and flags", flags(run)));
        Environment env = run.environment();
        e.add(new Entry("JDK", env == null ? NOT_RECORDED : join(env.javaVersion(), env.jvm())));
        e.add(new Entry("JVM flags", env == null ? NOT_RECORDED
                : env.jvmFlags().isEmpty() ? "none" : String.join(" ", env.jvmFlags())));
        e.add(new Entry("perftest-java", env == null ? NOT_RECORDED : or(env.toolVersion())
                + (env == null || env.toolCommit() == null ? "" : ", commit " + env.toolCommit()
                        + (Boolean.TRUE.equals(env.toolDirty()) ? " (dirty tree)" : ""))));
        e.add(new Entry("Date", env == null ? NOT_RECORDED : or(env.date())));
        e.add(new Entry("Loop clock", env == null ? NOT_RECORDED : or(env.clock())));
        e.add(new Entry("Measured window", window(run)));
        return e;
    }

    private static void environment(List<Entry> e, Environment env) {
        if (env == null) {
            e.add(new Entry("Host", NOT_RECORDED));
            return;
        }
        String cpu = env.cpuModel() == null ? "" : env.cpuModel();
        if (env.cpus() != null) {
            cpu = cpu.isEmpty() ? env.cpus() + " CPUs" : cpu + " × " + env.cpus();
        }
        e.add(new Entry("Host", join(or(env.host()), env.kernel() == null ? null : "kernel " + env.kernel(),
                cpu.isEmpty() ? null : cpu)));
    }

    private static void device(List<Entry> e, RunDocument run) {
        DeviceInfo d = run.device();
        TestInfo t = run.testInfo();
        if (d == null) {
            e.add(new Entry("Device", t.device() == null ? NOT_RECORDED : t.device() + " (from the banner)"));
            e.add(new Entry("Link layer", t.linkType() == null ? NOT_RECORDED : t.linkType() + " (from the banner)"));
            e.add(new Entry("GID", t.gidIndex() == null ? NOT_RECORDED : "index " + t.gidIndex()));
            e.add(new Entry("MTU", t.mtu() == null ? NOT_RECORDED : t.mtu() + " (test)"));
            for (String k : List.of("Firmware", "Port rate", "PCIe", "NUMA node")) {
                e.add(new Entry(k, NOT_RECORDED));
            }
            return;
        }
        e.add(new Entry("Device", or(d.name()) + (d.port() == null ? "" : " port " + d.port())
                + (d.virtual() ? " (virtual: no PCIe expectation)" : "")
                + (d.netdev() == null ? "" : ", netdev " + d.netdev())));
        e.add(new Entry("Firmware", or(d.fwVersion())));
        e.add(new Entry("Link layer", join(or(d.linkLayer()), d.portState())));
        e.add(new Entry("Port rate", d.portRate() != null ? d.portRate()
                : d.portRateGbps() != null ? Html.figure(d.portRateGbps()) + " Gb/s" : NOT_RECORDED));
        DeviceInfo.Pcie p = d.pcie();
        e.add(new Entry("PCIe", p == null ? (d.virtual() ? "none (virtual device)" : NOT_RECORDED)
                : join(p.link(), p.function() == null ? null : "function " + p.function(),
                        p.path() == null ? null : "path " + p.path(),
                        p.modelGbps() == null ? null : "model " + Html.figure(p.modelGbps()) + " Gb/s")));
        e.add(new Entry("NUMA node", d.numaNode() == null ? NOT_RECORDED : d.numaNode().toString()));
        String gid = d.gidIndex() == null ? NOT_RECORDED : d.gidIndex() < 0 ? "none (index -1)"
                : "index " + d.gidIndex() + (d.gid() == null ? "" : ", " + d.gid());
        e.add(new Entry("GID", gid));
        e.add(new Entry("MTU", join(d.activeMtu() == null ? null : d.activeMtu() + " (active)",
                t.mtu() == null ? null : t.mtu() + " (test)")));
    }

    private static String flags(RunDocument run) {
        StringBuilder b = new StringBuilder();
        String tool = run.parameters().tool();
        b.append(tool == null ? "tool not recorded" : tool);
        for (Map.Entry<String, Object> p : run.parameters().entries().entrySet()) {
            if (p.getKey().equals("tool")) {
                continue;
            }
            Object v = p.getValue();
            String shown = v instanceof Double d ? Html.figure(d) : String.valueOf(v);
            b.append(' ').append(p.getKey()).append('=').append(shown);
        }
        return b.toString();
    }

    private static String window(RunDocument run) {
        List<String> lines = new ArrayList<>();
        MeasuredWindow all = run.measuredWindow();
        if (all != null) {
            lines.add((all.quiet() ? "quiet: " : "") + all.summary());
            if (all.cpuSummary() != null) {
                lines.add(all.cpuSummary());
            }
            lines.addAll(all.details());
        }
        for (Row r : run.rows()) {
            MeasuredWindow w = r.window();
            if (w != null && !w.quiet()) {
                lines.add(Html.size(r.size()) + " B row: " + w.summary());
            }
        }
        if (lines.isEmpty()) {
            return NOT_RECORDED;
        }
        return String.join("\n", lines);
    }

    private static String or(String s) {
        return s == null ? NOT_RECORDED : s;
    }

    /** The non-null parts, comma-separated; "not recorded" when there are none. */
    private static String join(String... parts) {
        List<String> p = new ArrayList<>();
        for (String s : parts) {
            if (s != null && !s.isEmpty()) {
                p.add(s);
            }
        }
        return p.isEmpty() ? NOT_RECORDED : String.join(", ", p);
    }

    /** The run's provenance as {@code <dl class="provenance">}. */
    public static String html(RunDocument run) {
        StringBuilder b = new StringBuilder("<dl class=\"provenance\">\n");
        for (Entry e : entries(run)) {
            String cls = e.value().equals(NOT_RECORDED) ? " class=\"missing\"" : "";
            b.append("<dt>").append(Html.esc(e.term())).append("</dt><dd").append(cls).append('>')
                    .append(Html.esc(e.value()).replace("\n", "<br>")).append("</dd>\n");
        }
        return b.append("</dl>\n").toString();
    }
}
