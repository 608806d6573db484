package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.counters.CounterChange;
import io.rdmaffm.perftest.counters.PortCounters;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.verbs.topology.Reading;

import java.util.Map;
import java.util.TreeMap;

/**
 * What a worker knows at its end, written as the contract's result line ({@code @rdma-fabric result {...}}):
 * null wherever a figure is unknown or absent, never 0.
 */
final class FabricResult {
    static final String MARK = "@rdma-fabric result ";

    final FabricOptions o;
    String host;
    String device;
    Integer port;
    String netdev;
    long[] iterationNanos;
    Long bytesSent;
    Long bytesReceived;
    Long wrong;
    String role;
    String error;
    PortCounters before;
    PortCounters after;

    FabricResult(FabricOptions o, String host) {
        this.o = o;
        this.host = host;
    }

    String line() {
        JsonWriter w = JsonWriter.compact();
        w.beginObject();
        w.name("rank").value(o.rank());
        w.name("ranks").value(o.ranks());
        w.name("host").value(host);
        w.name("device").value(device);
        w.name("port").value(port);
        w.name("netdev").value(netdev);
        w.name("pattern").value(o.pattern().id());
        w.name("bytes").value(o.bytes());
        w.name("iters").value(o.iters());
        w.name("warmup").value(o.warmup());
        w.name("reduce").value(o.reduce());
        w.name("time_us");
        if (iterationNanos == null) {
            w.nullValue();
        } else {
            long min = Long.MAX_VALUE;
            long max = 0;
            long sum = 0;
            for (long t : iterationNanos) {
                min = Math.min(min, t);
                max = Math.max(max, t);
                sum += t;
            }
            w.beginObject();
            w.name("mean").fixed(sum / 1e3 / iterationNanos.length, 3);
            w.name("min").fixed(min / 1e3, 3);
            w.name("max").fixed(max / 1e3, 3);
            w.endObject();
        }
        w.name("steps").value(o.pattern().steps(o.ranks()));
        w.name("bytes_sent").value(bytesSent);
        w.name("bytes_received").value(bytesReceived);
        w.name("wrong").value(wrong);
        w.name("role").value(role);
        w.name("error").value(error);
        w.name("counters");
        counters(w);
        w.endObject();
        return MARK + w;
    }

    private void counters(JsonWriter w) {
        if (before == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        values(w, "before", before);
        if (after == null) {
            w.name("after").nullValue();
            w.name("delta").nullValue();
            w.name("absent").beginObject();
            before.absent().forEach((k, v) -> w.name(k).value(v));
            w.endObject();
            w.endObject();
            return;
        }
        values(w, "after", after);
        Map<String, String> absent = new TreeMap<>(before.absent());
        absent.putAll(after.absent());
        w.name("delta").beginObject();
        for (CounterChange.Delta d : new CounterChange(before, after).deltas()) {
            Reading<Long> r = d.delta();
            w.name(d.key());
            if (r.known()) {
                w.value(r.value());
            } else {
                w.nullValue();
                absent.putIfAbsent(d.key(), r.problem());
            }
        }
        w.endObject();
        w.name("absent").beginObject();
        absent.forEach((k, v) -> w.name(k).value(v));
        w.endObject();
        w.endObject();
    }

    private static void values(JsonWriter w, String name, PortCounters c) {
        w.name(name).beginObject();
        c.values().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> w.name(e.getKey()).value(e.getValue()));
        w.endObject();
    }
}
