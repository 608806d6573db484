package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.report.BuildInfo;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The matrix's JSON: reading the tools' {@code --out_json} documents, and writing the matrix document (schema
 * {@value #SCHEMA}) through the project's {@link JsonWriter}. Apart from {@link DoctorNics} (which reads the
 * hosts' doctor reports for the discovery stage) the only class of the package that knows JSON.
 *
 * <pre>
 * { "schema": "rdma-ffm.matrix/1", "tool_version", "tool_commit", "tool_dirty" (the build, as in a run document),
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
        return compact(m);
    }

    /**
     * Writes the whole document through one streaming {@link JsonWriter}: plan, summary, hosts and pairs from
     * {@code o}, then the spooled attempts, one line at a time, so the raw outputs never sit in memory together.
     * Each pair and each attempt is one compact line of the pretty document.
     */
    public static void write(Writer out, MatrixOutcome o, BufferedReader spool) throws IOException {
        write(out, o, spool, BuildInfo.CURRENT);
    }

    /** As {@link #write(Writer, MatrixOutcome, BufferedReader)}, naming {@code build} as the tool that wrote it. */
    public static void write(Writer out, MatrixOutcome o, BufferedReader spool, BuildInfo build) throws IOException {
        JsonWriter w = JsonWriter.pretty(out).beginObject();
        w.name("schema").value(SCHEMA);
        build.writeJson(w);
        w.name("plan").any(plan(o.plan()));
        w.name("summary").any(summary(o));
        w.name("hosts").any(hosts(o));
        w.name("pairs").beginArray();
        OutlierRules rules = OutlierRules.of(o.plan());
        for (PairResult r : o.results()) {
            w.json(compact(pair(r, o, rules)));
            w.flush();
        }
        w.endArray().name("attempts").beginArray();
        String line;
        while (spool != null && (line = spool.readLine()) != null) {
            if (!line.isBlank()) {
                w.json(line);
                w.flush();
            }
        }
        w.endArray().endObject().flush();
        out.write('\n');
    }

    private static String compact(Object value) {
        return JsonWriter.compact().any(value).toString();
    }

    private static Map<String, Object> plan(MatrixPlan p) {
        MatrixRequest o = p.request();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("hosts", p.hosts().names());
        m.put("source", p.hosts().source());
        m.put("devices", p.devices());
        m.put("mode", o.mode().name());
        m.put("launcher", o.launcher().name().toLowerCase(java.util.Locale.ROOT));
        m.put("peer", o.peer().name().toLowerCase(java.util.Locale.ROOT));
        m.put("tools", o.tools());
        m.put("toolArgs", o.toolArgs());
        m.put("rounds", p.rounds().size());
        m.put("perTestSeconds", o.perTest().toMillis() / 1000.0);
        m.put("estimateSeconds", p.estimate().toMillis() / 1000.0);
        Map<String, Object> rules = new LinkedHashMap<>();
        rules.put("bwFractionOfBest", o.bwFractionOfBest());
        rules.put("latFactorOfBest", o.latFactorOfBest());
        rules.put("minPercentOfLink", o.minPercentOfLink());
        rules.put("linkGbps", p.discovered().linkGbps());
        rules.put("retest", o.retest());
        m.put("rules", rules);
        m.put("notes", p.notes());
        m.put("hostInfo", hostInfo(p.discovered().answers()));
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
