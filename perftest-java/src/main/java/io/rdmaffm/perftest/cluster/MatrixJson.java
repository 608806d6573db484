package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.doctor.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The matrix's JSON: reading the tools' {@code --out_json} documents, and writing the matrix document (schema
 * {@value #SCHEMA}). The only class of the package that knows a JSON library (today doctor's reader/writer, which
 * also reads), so switching to a shared writer is a change here only.
 *
 * <pre>
 * { "schema": "rdma-ffm.matrix/1",
 *   "plan":     { hosts, source, devices, mode, launcher, peer, tools, toolArgs, rounds, estimateSeconds, rules },
 *   "summary":  { railTests, ok, okOnRetest, flagged, failed, bestBwGbps, bestLatUsec, exitCode },
 *   "hosts":    [ { host, rail, device, verdict, peers, badPeers, reason } ],
 *   "pairs":    [ { server, serverDevice, client, clientDevice, rail, status, bwGbps, latUsec, expectedGbps,
 *                   flags: [ {rule, message} ], failure: {kind, host, message}, cause, first, retest } ],
 *   "attempts": [ { server, client, rail, round, port, attempt, bwGbps, latUsec, failure,
 *                   tools: [ { tool, exitCode, result: (the tool's --out_json document), output } ] } ] }
 * </pre>
 * {@code pairs} and {@code attempts} have one element per line. {@code attempts} holds every run in the order they
 * finished, with the tools' full documents (perftest-java) or text (C perftest); it is streamed to a side file
 * during the run and copied in at the end.
 */
public final class MatrixJson {
    /** The document's schema name. */
    public static final String SCHEMA = "rdma-ffm.matrix/1";

    private MatrixJson() {
    }

    /** The {@code results} object of a tool's {@code --out_json} document, or null when it has none. */
    @SuppressWarnings("unchecked")
    static Map<String, Object> results(String toolJson) {
        try {
            Object doc = Json.parse(toolJson);
            if (doc instanceof Map<?, ?> m && m.get("results") instanceof Map<?, ?> r) {
                return (Map<String, Object>) r;
            }
        } catch (IllegalArgumentException e) {
            // not JSON: no figures
        }
        return null;
    }

    /** One attempt as one line of JSON (the spool's format), raw tool output included. */
    public static String attemptLine(Attempt a) {
        Map<String, Object> m = test(a.test());
        m.put("round", a.test().round());
        m.put("port", a.test().port());
        m.put("attempt", a.number());
        figures(m, a);
        List<Object> tools = new ArrayList<>();
        for (Attempt.ToolRun r : a.runs()) {
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("tool", r.tool());
            t.put("exitCode", r.exitCode());
            Object parsed = null;
            if (r.json() != null) {
                try {
                    parsed = Json.parse(r.json());
                } catch (IllegalArgumentException e) {
                    parsed = r.json();
                }
            }
            t.put("result", parsed);
            t.put("output", r.output());
            tools.add(t);
        }
        m.put("tools", tools);
        return Json.write(m);
    }

    /**
     * Writes the whole document: plan, summary, hosts and pairs from {@code o}, then the spooled attempts, one
     * line at a time, so the raw outputs never sit in memory together.
     */
    public static void write(Writer out, MatrixOutcome o, BufferedReader spool) throws IOException {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", SCHEMA);
        doc.put("plan", plan(o.plan()));
        doc.put("summary", summary(o));
        doc.put("hosts", hosts(o));
        String head = Json.pretty(doc);
        // Re-open the closing brace: pairs and attempts follow one line each, never a whole list in memory.
        out.write(head, 0, head.lastIndexOf('}'));
        out.write(",\n  \"pairs\": [");
        OutlierRules rules = OutlierRules.of(o.plan().options());
        boolean first = true;
        for (PairResult r : o.results()) {
            out.write(first ? "\n    " : ",\n    ");
            out.write(Json.write(pair(r, o, rules)));
            first = false;
        }
        out.write(first ? "],\n" : "\n  ],\n");
        out.write("  \"attempts\": [");
        String line;
        first = true;
        while (spool != null && (line = spool.readLine()) != null) {
            if (!line.isBlank()) {
                out.write(first ? "\n    " : ",\n    ");
                out.write(line);
                first = false;
            }
        }
        out.write(first ? "]\n}\n" : "\n  ]\n}\n");
    }

    private static Map<String, Object> plan(MatrixPlan p) {
        MatrixOptions o = p.options();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hosts", p.hosts().names());
        m.put("source", p.hosts().source());
        m.put("devices", p.devices());
        m.put("mode", o.mode.name());
        m.put("launcher", o.launcher.name().toLowerCase(java.util.Locale.ROOT));
        m.put("peer", o.peer.name().toLowerCase(java.util.Locale.ROOT));
        m.put("tools", o.tools);
        m.put("toolArgs", o.toolArgs);
        m.put("rounds", p.rounds().size());
        m.put("perTestSeconds", o.perTest.toMillis() / 1000.0);
        m.put("estimateSeconds", p.estimate().toMillis() / 1000.0);
        Map<String, Object> rules = new LinkedHashMap<>();
        rules.put("bwFractionOfBest", o.bwFractionOfBest);
        rules.put("latFactorOfBest", o.latFactorOfBest);
        rules.put("minPercentOfLink", o.minPercentOfLink);
        rules.put("linkGbps", o.linkGbps);
        rules.put("retest", o.retest);
        m.put("rules", rules);
        m.put("notes", p.notes());
        m.put("hostInfo", hostInfo(o.discovered));
        return m;
    }

    private static Map<String, Object> hostInfo(Map<String, HostDiscovery.HostInfo> found) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (HostDiscovery.HostInfo h : found.values()) {
            Map<String, Object> hm = new LinkedHashMap<>();
            hm.put("source", h.source());
            hm.put("problem", h.problem());
            List<Object> nics = new ArrayList<>();
            for (HostDiscovery.Nic n : h.nics()) {
                Map<String, Object> nm = new LinkedHashMap<>();
                nm.put("device", n.device());
                nm.put("state", n.state());
                nm.put("portGbps", n.portGbps());
                nm.put("pcieGbps", n.pcieGbps());
                nm.put("expectedGbps", n.expectedGbps());
                nm.put("pci", n.pci());
                nm.put("firmware", n.firmware());
                nics.add(nm);
            }
            hm.put("nics", nics);
            m.put(h.host(), hm);
        }
        return m;
    }

    /**
     * The devices of a host's {@code rdma-perftest doctor --json} report (schema rdma-ffm.doctor/1): port 1's
     * state and rate, and the port's share of the {@code pcie-bandwidth} check's modelled throughput (the link's
     * modelGbps times this port's part of the link's demandGbps, all active ports on it sharing it as the matrix
     * runs every rail at once).
     *
     * @return the devices in the report's (name) order, or null when {@code doc} is not such a report
     */
    static List<HostDiscovery.Nic> doctorNics(String doc) {
        Object parsed;
        try {
            parsed = Json.parse(doc);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!(parsed instanceof Map<?, ?> report) || !(report.get("devices") instanceof List<?> devices)) {
            return null;
        }
        Map<String, Map<?, ?>> pcie = new LinkedHashMap<>();
        if (report.get("checks") instanceof List<?> checks) {
            for (Object c : checks) {
                if (c instanceof Map<?, ?> cm && "pcie-bandwidth".equals(cm.get("id"))
                        && cm.get("device") instanceof String d && cm.get("numbers") instanceof Map<?, ?> n) {
                    pcie.put(d, n);
                }
            }
        }
        List<HostDiscovery.Nic> nics = new ArrayList<>();
        for (Object o : devices) {
            if (!(o instanceof Map<?, ?> d) || !(d.get("name") instanceof String name)) {
                continue;
            }
            Map<?, ?> port1 = null;
            if (d.get("ports") instanceof List<?> ports) {
                for (Object p : ports) {
                    if (p instanceof Map<?, ?> pm && number(pm.get("port")) == 1.0) {
                        port1 = pm;
                    }
                }
            }
            Double rate = port1 == null ? null : positive(port1.get("rateGbps"));
            Map<?, ?> n = pcie.get(name);
            Double share = null;
            if (n != null && positive(n.get("modelGbps")) != null) {
                double model = positive(n.get("modelGbps"));
                Double demand = positive(n.get("demandGbps"));
                share = rate == null || demand == null || demand <= rate ? model : model * rate / demand;
            }
            nics.add(new HostDiscovery.Nic(name, port1 != null && port1.get("state") instanceof String s ? s : null,
                    rate, share, d.get("pci") instanceof String pci ? pci : null,
                    d.get("fwVer") instanceof String fw ? fw : null));
        }
        return List.copyOf(nics);
    }

    private static double number(Object o) {
        return o instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    private static Double positive(Object o) {
        double v = number(o);
        return v > 0 ? v : null;
    }

    private static Map<String, Object> summary(MatrixOutcome o) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("railTests", o.results().size());
        m.put("ok", o.count(PairResult.Status.OK));
        m.put("okOnRetest", o.count(PairResult.Status.OK_ON_RETEST));
        m.put("flagged", o.count(PairResult.Status.FLAGGED));
        m.put("failed", o.count(PairResult.Status.FAILED));
        m.put("bestBwGbps", o.best().bwGbps());
        m.put("bestLatUsec", o.best().latUsec());
        m.put("exitCode", o.exitCode());
        return m;
    }

    private static List<Object> hosts(MatrixOutcome o) {
        List<Object> l = new ArrayList<>();
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("host", v.host());
            m.put("rail", v.rail());
            m.put("device", v.device());
            m.put("verdict", v.verdict().name());
            m.put("peers", v.peers());
            m.put("badPeers", v.badPeers());
            m.put("reason", v.reason());
            l.add(m);
        }
        return l;
    }

    private static Map<String, Object> pair(PairResult r, MatrixOutcome o, OutlierRules rules) {
        Map<String, Object> m = test(r.test());
        m.put("status", r.status().name());
        figures(m, r.last());
        m.put("expectedGbps", rules.expectedGbps(r.test()));
        List<Object> flags = new ArrayList<>();
        for (OutlierRules.Flag f : r.flags()) {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("rule", f.rule().name());
            fm.put("message", f.message());
            flags.add(fm);
        }
        m.put("flags", flags);
        m.put("cause", o.rollup().causes().get(r.test()));
        m.put("first", brief(r.first()));
        m.put("retest", r.retest() == null ? null : brief(r.retest()));
        return m;
    }

    private static Map<String, Object> brief(Attempt a) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("round", a.test().round());
        figures(m, a);
        return m;
    }

    private static Map<String, Object> test(RailTest t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("server", t.server());
        m.put("serverDevice", t.serverDevice());
        m.put("client", t.client());
        m.put("clientDevice", t.clientDevice());
        m.put("rail", t.rail());
        return m;
    }

    private static void figures(Map<String, Object> m, Attempt a) {
        m.put("bwGbps", a.bwGbps());
        m.put("latUsec", a.latUsec());
        Failure f = a.failure();
        if (f == null) {
            m.put("failure", null);
        } else {
            Map<String, Object> fm = new LinkedHashMap<>();
            fm.put("kind", f.kind().name());
            fm.put("host", f.host());
            fm.put("message", f.message());
            m.put("failure", fm);
        }
    }
}
