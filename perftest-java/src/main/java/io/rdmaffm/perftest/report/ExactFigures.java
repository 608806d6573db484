package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;

/**
 * A row's {@code exact} object (docs/run-json.md): the figures at full double precision beside perftest's keys,
 * which carry the table's decimals. A 2 B write_bw row prints {@code 0.04} MB/sec; comparing two such rounded
 * figures measures the rounding, so {@code report} and {@code compare} read these instead.
 */
final class ExactFigures {
    static final String KEY = "exact";

    private ExactFigures() {
    }

    /**
     * @param bidirectional the figures add this side's and the peer's, each timed on its own clock: the run has
     *                      no single duration, so {@code seconds} is null
     */
    static void bandwidth(JsonWriter w, BwReport r, BwUnit unit, boolean bidirectional) {
        w.name(KEY).beginObject();
        w.name("messages").value(r.iters());
        w.name("bytes").value(r.size() * r.iters());
        // msgRate = messages / seconds / 1e6 (BwArithmetic), so this is the measured duration to double precision.
        double seconds = r.iters() / (r.msgRate() * 1e6);
        w.name("seconds").value(bidirectional || !(r.msgRate() > 0) ? Double.NaN : seconds);
        w.name("bytes_per_second").value(r.bwAvg() * unit.bytesPerUnit());
        w.name("BW_peak").value(r.bwPeak());
        w.name("BW_average").value(r.bwAvg());
        w.name("MsgRate").value(r.msgRate());
        w.endObject();
    }

    static void latency(JsonWriter w, LatencyRow row) {
        LatencyResult r = row.figures();
        w.name(KEY).beginObject();
        w.name("samples").value(Math.max(0, row.iters() - 1));
        w.name("samples_used").value(Math.max(0, row.iters() - 1 - LatencyArithmetic.MEASURE_TAIL));
        w.name("t_min").value(r.tMin());
        w.name("t_max").value(r.tMax());
        w.name("t_typical").value(r.typical());
        w.name("t_avg").value(r.avg());
        w.name("t_stdev").value(r.stdev());
        w.name("percentile_99").value(r.p99());
        w.name("percentile_99.9").value(r.p999());
        w.endObject();
    }

    static void latencyDuration(JsonWriter w, long iters, DurationLatency d) {
        w.name(KEY).beginObject();
        w.name("round_trips").value(iters);
        w.name("seconds").value(d.tps() > 0 ? iters / d.tps() : Double.NaN);
        w.name("t_avg").value(d.avgUsec());
        w.name("tps_average").value(d.tps());
        w.endObject();
    }
}
