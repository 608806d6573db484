package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Verb;

import java.util.List;
import java.util.Map;

/**
 * The {@code --out_json} document: valid JSON (perftest 4.5's has unquoted keys and trailing commas) with the
 * same key names as perftest's, plus every parameter and every row.
 * <pre>
 * { "test_info": { "test": "RDMA_Write_BW_Test", "Dual_port": "OFF", ... },
 *   "parameters": { ...what the command line resolved to... },
 *   "results": { ...the last row, as perftest keeps it... },
 *   "all_results": [ ...every row (several with -a)... ] }
 * </pre>
 * Numbers carry the decimals the table shows.
 */
public final class JsonReport {
    private JsonReport() {
    }

    /** The document of a BW run. */
    public static String bandwidth(BannerInfo info, Map<String, ?> parameters, BwUnit unit, List<BwReport> rows) {
        JsonWriter w = start(info, parameters);
        if (!rows.isEmpty()) {
            w.name("results");
            bwRow(w, rows.get(rows.size() - 1), unit);
        }
        w.name("all_results").beginArray();
        for (BwReport r : rows) {
            bwRow(w, r, unit);
        }
        return w.endArray().endObject().toString() + "\n";
    }

    /** The document of a latency run. */
    public static String latency(BannerInfo info, Map<String, ?> parameters, List<LatencyRow> rows) {
        JsonWriter w = start(info, parameters);
        if (!rows.isEmpty()) {
            w.name("results");
            latRow(w, rows.get(rows.size() - 1));
        }
        w.name("all_results").beginArray();
        for (LatencyRow r : rows) {
            latRow(w, r);
        }
        return w.endArray().endObject().toString() + "\n";
    }

    /** A duration-mode ({@code -D}) latency run: size, round trips in the sample window, t_avg, tps. */
    public static String latencyDuration(BannerInfo info, Map<String, ?> parameters, long size, long iters,
            DurationLatency d) {
        JsonWriter w = start(info, parameters);
        w.name("results").beginObject();
        w.name("MsgSize").value(size);
        w.name("n_iterations").value(iters);
        w.name("t_avg").fixed(d.avgUsec(), 2);
        w.name("tps_average").fixed(d.tps(), 2);
        w.name("unit").value("usec");
        w.endObject();
        return w.endObject().toString() + "\n";
    }

    private static JsonWriter start(BannerInfo i, Map<String, ?> parameters) {
        JsonWriter w = JsonWriter.pretty().beginObject();
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

    private static void bwRow(JsonWriter w, BwReport r, BwUnit unit) {
        boolean ext = unit == BwUnit.GB_PER_SEC && r.bwAvg() < 0.1;
        w.beginObject();
        w.name("MsgSize").value(r.size());
        w.name("n_iterations").value(r.iters());
        w.name("BW_peak").fixed(r.bwPeak(), ext ? 6 : 2);
        w.name("BW_average").fixed(r.bwAvg(), ext ? 6 : 2);
        w.name("MsgRate").fixed(r.msgRate(), 6);
        w.name("BW_unit").value(unit.label());
        w.endObject();
    }

    private static void latRow(JsonWriter w, LatencyRow row) {
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
        w.endObject();
    }

    private static String onOff(boolean v) {
        return v ? "ON" : "OFF";
    }
}
