package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.counters.CounterReport;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.jvm.WindowActivity;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Verb;

import java.util.List;
import java.util.Map;

/**
 * The {@code --out_json} document: valid JSON (perftest 4.5's has unquoted keys and trailing commas) with the
 * same key names as perftest's, plus every parameter and every row.
 * Schema {@code rdma-ffm.run/1} (docs/run-json.md) adds environment, device, and per row the measured window,
 * latency histogram and time series; readers of perftest's keys are not disturbed.
 * <pre>
 * { "schema": "rdma-ffm.run/1", "test_info": { "test": "RDMA_Write_BW_Test", "Dual_port": "OFF", ... },
 *   "parameters": { ...what the command line resolved to... },
 *   "results": { ...the last row, as perftest keeps it... },
 *   "all_results": [ ...every row (several with -a)... ] }
 * </pre>
 * perftest's figures carry the decimals the table shows; each row's {@code exact} object ({@link ExactFigures})
 * has them at full precision with the counts, bytes and seconds they come from.
 */
public final class JsonReport {
    private JsonReport() {
    }

    /**
     * What the run document adds to perftest's keys (docs/run-json.md): where it ran, on which device, and what
     * the JVM did in each measured window (indexed by message size number; null where none was recorded).
     */
    public record Provenance(Environment environment, DeviceProvenance device, List<WindowActivity> windows,
                             WarmupFacts warmup, CounterReport counters) {
        /** Nothing known beyond perftest's keys. */
        public static final Provenance NONE = new Provenance(null, null, null, null);

        /** Without {@code -W} counters. */
        public Provenance(Environment environment, DeviceProvenance device, List<WindowActivity> windows,
                WarmupFacts warmup) {
            this(environment, device, windows, warmup, null);
        }
    }

    /**
     * What the warm-up did before the windows: rounds run, seconds taken, and whether its last round compiled
     * nothing ({@code quiet}).
     */
    public record WarmupFacts(int rounds, double seconds, boolean quiet) {
    }

    /** The document of a BW run, without anything beyond perftest's keys. */
    public static String bandwidth(BannerInfo info, Map<String, ?> parameters, BwUnit unit, List<BwReport> rows) {
        return bandwidth(info, parameters, unit, rows, List.of(), Provenance.NONE);
    }

    /**
     * The document of a BW run; {@code extras.get(i)} belongs to {@code rows.get(i)} (missing or null: a row
     * this side did not measure, such as the client's row a server prints).
     */
    public static String bandwidth(BannerInfo info, Map<String, ?> parameters, BwUnit unit, List<BwReport> rows,
            List<RowExtras> extras, Provenance prov) {
        JsonWriter w = start(info, parameters, prov);
        if (!rows.isEmpty()) {
            w.name("results");
            bwRow(w, rows.get(rows.size() - 1), unit, info.bidirectional(), extra(extras, rows.size() - 1), prov,
                    false);
        }
        w.name("all_results").beginArray();
        for (int i = 0; i < rows.size(); i++) {
            bwRow(w, rows.get(i), unit, info.bidirectional(), extra(extras, i), prov, true);
        }
        w.endArray();
        return end(w, prov);
    }

    /** The document of a latency run, without anything beyond perftest's keys. */
    public static String latency(BannerInfo info, Map<String, ?> parameters, List<LatencyRow> rows) {
        return latency(info, parameters, rows, List.of(), Provenance.NONE);
    }

    /** The document of a latency run; {@code extras.get(i)} belongs to {@code rows.get(i)}. */
    public static String latency(BannerInfo info, Map<String, ?> parameters, List<LatencyRow> rows,
            List<RowExtras> extras, Provenance prov) {
        JsonWriter w = start(info, parameters, prov);
        if (!rows.isEmpty()) {
            w.name("results");
            latRow(w, rows.get(rows.size() - 1), extra(extras, rows.size() - 1), prov, false);
        }
        w.name("all_results").beginArray();
        for (int i = 0; i < rows.size(); i++) {
            latRow(w, rows.get(i), extra(extras, i), prov, true);
        }
        w.endArray();
        return end(w, prov);
    }

    /** A duration-mode ({@code -D}) latency run, without anything beyond perftest's keys. */
    public static String latencyDuration(BannerInfo info, Map<String, ?> parameters, long size, long iters,
            DurationLatency d) {
        return latencyDuration(info, parameters, size, iters, d, null, Provenance.NONE);
    }

    /** A duration-mode ({@code -D}) latency run: size, round trips in the sample window, t_avg, tps. */
    public static String latencyDuration(BannerInfo info, Map<String, ?> parameters, long size, long iters,
            DurationLatency d, RowExtras extras, Provenance prov) {
        JsonWriter w = start(info, parameters, prov);
        w.name("results").beginObject();
        w.name("MsgSize").value(size);
        w.name("n_iterations").value(iters);
        w.name("t_avg").fixed(d.avgUsec(), 2);
        w.name("tps_average").fixed(d.tps(), 2);
        w.name("unit").value("usec");
        ExactFigures.latencyDuration(w, iters, d);
        RunDocumentParts.window(w, RunDocumentParts.windowOf(prov.windows(), extras));
        w.endObject();
        return end(w, prov);
    }

    private static RowExtras extra(List<RowExtras> extras, int i) {
        return i < extras.size() ? extras.get(i) : null;
    }

    private static String end(JsonWriter w, Provenance prov) {
        RunDocumentParts.window(w, RunDocumentParts.total(prov.windows()));
        if (prov.warmup() != null) {
            w.name("warmup").beginObject();
            w.name("rounds").value(prov.warmup().rounds());
            w.name("seconds").fixed(prov.warmup().seconds(), 2);
            w.name("quiet").value(prov.warmup().quiet());
            w.endObject();
        }
        if (prov.counters() != null) {
            // -W: each result row's counter changes, in row order (docs/run-json.md)
            w.name("counters");
            prov.counters().json(w);
        }
        return w.endObject().toString() + "\n";
    }

    private static JsonWriter start(BannerInfo i, Map<String, ?> parameters, Provenance prov) {
        JsonWriter w = JsonWriter.pretty().beginObject();
        w.name("schema").value(RunDocumentParts.SCHEMA);
        w.name("test_info").beginObject();
        w.name("test").value(PerftestFormat.title(i).strip().replace(' ', '_'));
        w.name("Dual_port").value(onOff(i.dualPort()));
        w.name("Device").value(i.device());
        w.name("Number_of_qps").value(i.numQps());
        w.name("Transport_type").value(i.transportType());
        w.name("Connection_type").value(i.connectionType());
        w.name("Using_SRQ").value(onOff(i.useSrq()));
        w.name("PCIe_relax_order").value(i.pcieRelaxOrder());
        w.name("ibv_wr_API").value(onOff(i.wrApi()));
        w.name("TX_depth").value(i.txDepth());
        w.name("RX_depth").value(i.rxDepth());
        w.name("Post_List").value(i.postList());
        w.name("Recv_Post_List").value(i.recvPostList());
        w.name("CQ_Moderation").value(i.cqModeration());
        w.name("Mtu").value(i.mtuBytes());
        w.name("Link_type").value(i.linkType());
        w.name("GID_index").value(i.gidIndex());
        if (i.tool().verb() == Verb.SEND || i.tool().verb() == Verb.WRITE) {
            w.name("Max_inline_data").value(i.maxInline());
        } else {
            w.name("Outstand_reads").value(i.outstandingReads());
        }
        if (i.tool().verb() == Verb.ATOMIC) {
            w.name("Atomic_type").value(i.atomicType());
        }
        w.name("rdma_cm_QPs").value(onOff(i.rdmaCmQps()));
        w.name("Data_ex_method").value(i.rdmaCmExchange() ? "rdma_cm" : "Ethernet");
        w.name("Role").value(i.role().name().toLowerCase(java.util.Locale.ROOT));
        w.name("Bidirectional").value(i.bidirectional());
        w.endObject();
        w.name("parameters").beginObject();
        for (Map.Entry<String, ?> e : parameters.entrySet()) {
            parameter(w.name(e.getKey()), e.getValue());
        }
        w.endObject();
        RunDocumentParts.environment(w, prov.environment());
        RunDocumentParts.device(w, prov.device());
        return w;
    }

    /** A text, number or flag as itself; anything else (the parameters are flat) as its text. */
    private static void parameter(JsonWriter w, Object v) {
        if (v == null || v instanceof String || v instanceof Number || v instanceof Boolean) {
            w.any(v);
        } else {
            w.value(v.toString());
        }
    }

    private static void bwRow(JsonWriter w, BwReport r, BwUnit unit, boolean bidirectional, RowExtras x,
            Provenance prov, boolean all) {
        boolean ext = unit == BwUnit.GB_PER_SEC && r.bwAvg() < 0.1;
        w.beginObject();
        w.name("MsgSize").value(r.size());
        w.name("n_iterations").value(r.iters());
        w.name("BW_peak").fixed(r.bwPeak(), ext ? 6 : 2);
        w.name("BW_average").fixed(r.bwAvg(), ext ? 6 : 2);
        w.name("MsgRate").fixed(r.msgRate(), 6);
        w.name("BW_unit").value(unit.label());
        ExactFigures.bandwidth(w, r, unit, bidirectional);
        extras(w, x, prov, all, false);
        w.endObject();
    }

    private static void latRow(JsonWriter w, LatencyRow row, RowExtras x, Provenance prov, boolean all) {
        LatencyResult r = row.figures();
        w.beginObject();
        w.name("MsgSize").value(row.size());
        w.name("n_iterations").value(row.iters());
        w.name("t_min").fixed(r.tMin(), 2);
        w.name("t_max").fixed(r.tMax(), 2);
        w.name("t_typical").fixed(r.typical(), 2);
        w.name("t_avg").fixed(r.avg(), 2);
        w.name("t_stdev").fixed(r.stdev(), 2);
        w.name("percentile_99").fixed(r.p99(), 2);
        w.name("percentile_99.9").fixed(r.p999(), 2);
        w.name("unit").value("usec");
        ExactFigures.latency(w, row);
        extras(w, x, prov, all, true);
        w.endObject();
    }

    /** Every row gets its measured window; rows of all_results also the histogram and time series. */
    private static void extras(JsonWriter w, RowExtras x, Provenance prov, boolean all, boolean latency) {
        if (all) {
            RunDocumentParts.rowExtras(w, x, prov.windows(), latency);
        } else {
            RunDocumentParts.window(w, RunDocumentParts.windowOf(prov.windows(), x));
        }
    }

    private static String onOff(boolean v) {
        return v ? "ON" : "OFF";
    }
}
