package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Failure;
import io.rdmaffm.perftest.json.JsonWriter;
import java.util.Map;

/**
 * The fabric run as one JSON document: the request, the plan, every figure with where it came from, the
 * verdicts, and every rank's result object embedded as the worker wrote it (docs/fabric-contract.md).
 */
public final class FabricJson {
    /** What {@code report} recognizes the document by (report.model.FabricDocument). */
    public static final String SCHEMA = "rdma-ffm.fabric/1";

    private FabricJson() {
    }

    /** The document. */
    public static String write(FabricOutcome o) {
        FabricPlan plan = o.plan();
        FabricRequest q = plan.request();
        Pattern p = q.pattern();
        JsonWriter w = JsonWriter.pretty();
        w.beginObject();
        w.name("schema").value(SCHEMA);
        w.name("command").value("fabric");
        w.name("pattern").value(p.cli());
        w.name("request").beginObject()
                .name("hosts").any(plan.hosts())
                .name("host_source").value(plan.discovered().hosts().source())
                .name("bytes").value(plan.bytes())
                .name("sweep");
        if (q.sweep() == null) {
            w.nullValue();
        } else {
            w.beginObject().name("minbytes").value(q.sweep().min()).name("maxbytes").value(q.sweep().max())
                    .name("stepfactor").value(q.sweep().factor()).endObject();
        }
        w.name("target").value(plan.rotates() ? null : q.receiver())
                .name("iters").value(q.iters())
                .name("warmup").value(q.warmup())
                .name("reduce").value(q.reduce())
                .name("threads").value(q.threads())
                .name("expect").value(q.expect().cli())
                .name("priority").value(q.priority())
                .name("min_percent").value(Double.isNaN(q.minPercent()) ? null : q.minPercent())
                .name("slow_link_factor").value(q.slowLinkFactor())
                .name("rate_Gbps").value(q.rate() == null ? null : q.rate().gbps())
                .name("port").value(q.port())
                .name("launcher").value(q.hosts().launcher().name().toLowerCase(java.util.Locale.ROOT))
                .endObject();
        w.name("plan").beginObject()
                .name("summary").value(plan.summary())
                .name("rails").value(plan.rails())
                .name("ranks_per_rail").value(plan.n())
                .name("steps_per_rank").value(plan.steps())
                .name("sizes").any(plan.sizes())
                .name("rotates").value(plan.rotates())
                .name("deadline_s").value(plan.deadline().toSeconds())
                .name("notes").any(plan.notes())
                .endObject();
        w.name("figures").beginArray();
        for (RailFigures f : o.figures()) {
            w.beginObject()
                    .name("rail").value(f.rail())
                    .name("n").value(f.n())
                    .name("bytes").value(f.bytes())
                    .name("target").value(f.target())
                    .name("alg_bytes").value(f.algBytes())
                    .name("time_us").value(f.timeUs())
                    .name("slowest_rank").value(f.slowest())
                    .name("algbw_GBps").value(f.algbwGBps())
                    .name("bus_factor").value(f.factor())
                    .name("busbw_GBps").value(f.busbwGBps())
                    .name("wrong").value(f.wrong())
                    .name("expected_busbw_GBps").value(f.expectedGBps())
                    .name("provenance").beginObject()
                    .name("time_us").value("max over the rail's ranks of their time_us.mean (timed iterations only,"
                            + " each on its own clock)")
                    .name("alg_bytes").value(p.algBytesText())
                    .name("algbw_GBps").value("alg_bytes / time_us / 1000 (GB = 1e9 B, as nccl-tests)")
                    .name("busbw_GBps").value("algbw x " + p.busFactorText() + " (nccl-tests' factor for "
                            + p.cli() + ")")
                    .name("wrong").value("sum over ranks of their wrong elements")
                    .name("expected_busbw_GBps").value(f.expectedFrom())
                    .endObject()
                    .endObject();
        }
        w.endArray();
        w.name("links").beginArray();
        for (LinkFigure l : o.links()) {
            w.beginObject()
                    .name("rail").value(l.rail())
                    .name("from_rank").value(l.from())
                    .name("to_rank").value(l.to())
                    .name("from").value(l.fromWhere())
                    .name("to").value(l.toWhere())
                    .name("send_us").value(l.sendUs())
                    .name("writes").value(l.writes())
                    .name("wait_us").value(l.waitUs())
                    .name("provenance").value("send_us: the writer's link_send mean_us (post to completion, timed"
                            + " iterations); wait_us: ring patterns, the receiver's mean step_wait_us")
                    .endObject();
        }
        w.endArray();
        w.name("verdicts").beginArray();
        for (Verdict v : o.verdicts()) {
            w.beginObject().name("level").value(v.level().name()).name("rule").value(v.rule()).name("host")
                    .value(v.host()).name("message").value(v.message()).endObject();
        }
        w.endArray();
        w.name("localize").value(o.localize());
        w.name("exit_code").value(o.exitCode());
        w.name("discovery").beginObject();
        for (Map.Entry<String, Double> e : plan.discovered().linkGbps().entrySet()) {
            w.name(e.getKey()).value(e.getValue());
        }
        w.endObject();
        w.name("ranks").beginArray();
        for (RankResult r : o.ranks()) {
            w.beginObject()
                    .name("rail").value(r.rank().rail())
                    .name("rank").value(r.rank().rank())
                    .name("host").value(r.rank().host())
                    .name("device").value(r.rank().device())
                    .name("exit_code").value(r.exitCode());
            Failure f = r.failure();
            w.name("failure");
            if (f == null) {
                w.nullValue();
            } else {
                w.beginObject().name("kind").value(f.kind().name()).name("host").value(f.host()).name("message")
                        .value(f.message()).endObject();
            }
            w.name("result").any(r.result());
            w.name("stderr_tail").value(r.ok() ? null : r.stderr());
            w.endObject();
        }
        w.endArray();
        w.endObject();
        return w + "\n";
    }
}
