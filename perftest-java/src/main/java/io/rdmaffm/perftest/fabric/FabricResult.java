package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.counters.CounterChange;
import io.rdmaffm.perftest.counters.PortCounters;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.verbs.topology.Reading;

import java.util.ArrayList;
import java.util.List;
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
    /** Ring patterns: per step, summed over the timed iterations (null for the others). */
    long[] stepWaitNanos;
    long[] stepSendNanos;
    /** Per link this rank wrote on in the timed iterations: the peer rank, writes and post-to-completion ns. */
    int[] sendPeers;
    long[] sendWrites;
    long[] sendNanos;
    Long bytesSent;
    Long bytesReceived;
    Long wrong;
    String role;
    String error;
    PortCounters before;
    PortCounters after;
    /** Every case of the run (a sweep's sizes, a rotating incast's targets), in the order they ran. */
    final List<Case> cases = new ArrayList<>();

    /**
     * One case's figures: its size, its incast target (-1 for other patterns), this rank's role in it, its timed
     * iterations' times, the bytes this rank sent and received in them, #wrong (null where not checked), and per
     * link written on the peer, writes and their post-to-completion ns.
     */
    record Case(long bytes, int target, String role, long[] iterationNanos, long bytesSent, long bytesReceived,
            Long wrong, long[] stepWaitNanos, long[] stepSendNanos, int[] sendPeers, long[] sendWrites,
            long[] sendNanos) {
    }

    /**
     * Keeps one case that ran to its end; the top-level figures become the last case's (times, per-step and per-link
     * figures: the largest size, as one size alone gave them) and the whole run's (bytes and #wrong summed, which
     * the counters, read before the first case and after the last, are set against).
     */
    void addCase(long size, int target, String caseRole, long[] times, LaneWork[] work, int[] peers,
            RdmaEndpoint[] lanes) {
        Long wrongBefore = cases.isEmpty() ? Long.valueOf(0) : wrong;
        long sentBefore = cases.isEmpty() ? 0 : bytesSent;
        long receivedBefore = cases.isEmpty() ? 0 : bytesReceived;
        stepWaitNanos = null;
        stepSendNanos = null;
        merge(work);
        iterationNanos = times;
        if (lanes != null) {
            linkSends(peers, lanes);
        }
        cases.add(new Case(size, target, caseRole, times, bytesSent, bytesReceived, wrong, stepWaitNanos,
                stepSendNanos, sendPeers, sendWrites, sendNanos));
        bytesSent += sentBefore;
        bytesReceived += receivedBefore;
        wrong = wrong == null || wrongBefore == null ? null : wrong + wrongBefore;
    }

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
        w.name("threads").value(o.threads());
        timeUs(w, iterationNanos);
        w.name("steps").value(o.pattern().steps(o.ranks()));
        perStep(w, "step_wait_us", stepWaitNanos);
        perStep(w, "step_send_us", stepSendNanos);
        linkSends(w, sendPeers, sendWrites, sendNanos, iterationNanos);
        w.name("bytes_sent").value(bytesSent);
        w.name("send_rate_Gbps").value(sendRateGbps());
        w.name("rate_cap_Gbps").value(o.rate() == null ? null : o.rate().gbps());
        w.name("bytes_received").value(bytesReceived);
        w.name("wrong").value(wrong);
        w.name("role").value(role);
        w.name("error").value(error);
        w.name("counters");
        counters(w);
        cases(w);
        w.endObject();
        return MARK + w;
    }

    /** "time_us": mean, min and max over the timed iterations, or null. */
    private static void timeUs(JsonWriter w, long[] iterationNanos) {
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
    }

    /**
     * What this rank sent per second of its timed iterations, in Gb/s: bytes_sent x 8 over the sum of the iteration
     * times (the time the driver's figures use), so that with {@code --rate} it shows the cap held; the last case's
     * (as the other top-level figures; each case carries its own); null when the rank sent nothing or has no times.
     */
    Double sendRateGbps() {
        if (!cases.isEmpty()) {
            Case last = cases.get(cases.size() - 1);
            return sendRateGbps(last.bytesSent(), last.iterationNanos());
        }
        return bytesSent == null ? null : sendRateGbps(bytesSent, iterationNanos);
    }

    /** {@code bytesSent} x 8 over the sum of {@code iterationNanos}, in Gb/s; null when nothing was sent or timed. */
    private static Double sendRateGbps(long bytesSent, long[] iterationNanos) {
        if (bytesSent == 0 || iterationNanos == null) {
            return null;
        }
        long sum = 0;
        for (long t : iterationNanos) {
            sum += t;
        }
        return sum <= 0 ? null : Math.round(bytesSent * 8.0 / sum * 1e6) / 1e6;
    }

    /**
     * Keeps the write times of the links that carried data, each link's lanes merged: their writes and their
     * post-to-completion nanoseconds added, so the mean is over every write the link carried, whichever thread
     * posted it.
     */
    void linkSends(int[] peers, RdmaEndpoint[] lanes) {
        int k = 0;
        for (int i = 0; i < peers.length; i++) {
            k += writes(lanes, i) > 0 ? 1 : 0;
        }
        sendPeers = new int[k];
        sendWrites = new long[k];
        sendNanos = new long[k];
        k = 0;
        for (int i = 0; i < peers.length; i++) {
            long w = writes(lanes, i);
            if (w > 0) {
                long ns = 0;
                for (RdmaEndpoint ep : lanes) {
                    ns += ep.writeNanos(i);
                }
                sendPeers[k] = peers[i];
                sendWrites[k] = w;
                sendNanos[k++] = ns;
            }
        }
    }

    private static long writes(RdmaEndpoint[] lanes, int link) {
        long w = 0;
        for (RdmaEndpoint ep : lanes) {
            w += ep.writes(link);
        }
        return w;
    }

    /**
     * The lanes' figures merged (docs/fabric-design.md §11): bytes and {@code #wrong} added (each lane owns its own
     * share of every slot, so nothing is counted twice), and for the ring patterns per step the slowest lane's
     * summed waits (the lanes run a step each on its own, and the iteration ends with the last of them).
     */
    void merge(LaneWork[] lanes) {
        long sent = 0;
        long received = 0;
        Long bad = 0L;
        for (LaneWork w : lanes) {
            if (w instanceof RingRank ring) {
                long b = ring.bytesPerIteration() * o.iters();
                sent += b;
                received += b;
                long wr = ring.wrong();
                bad = wr < 0 || bad == null ? null : bad + wr;
                stepWaitNanos = maxEach(stepWaitNanos, ring.waitNanos());
                stepSendNanos = maxEach(stepSendNanos, ring.sendNanos());
            } else if (w instanceof PeerLane peer) {
                sent += peer.bytesSentPerIteration() * o.iters();
                received += peer.bytesReceivedPerIteration() * o.iters();
                bad = null;
            }
        }
        bytesSent = sent;
        bytesReceived = received;
        wrong = bad;
    }

    private static long[] maxEach(long[] a, long[] b) {
        if (a == null) {
            return b;
        }
        for (int i = 0; i < a.length; i++) {
            a[i] = Math.max(a[i], b[i]);
        }
        return a;
    }

    /** "link_send": per link written on, the peer, the writes and their mean post-to-completion µs; null unknown. */
    private static void linkSends(JsonWriter w, int[] sendPeers, long[] sendWrites, long[] sendNanos,
            long[] iterationNanos) {
        w.name("link_send");
        if (sendPeers == null || iterationNanos == null) {
            w.nullValue();
            return;
        }
        w.beginArray();
        for (int i = 0; i < sendPeers.length; i++) {
            w.beginObject().name("peer").value(sendPeers[i]).name("writes").value(sendWrites[i]).name("mean_us")
                    .fixed(sendNanos[i] / 1e3 / sendWrites[i], 3).endObject();
        }
        w.endArray();
    }

    /** Per ring step, the mean over the timed iterations in µs; null where the pattern has no ring steps. */
    private void perStep(JsonWriter w, String name, long[] nanos) {
        w.name(name);
        if (nanos == null || iterationNanos == null) {
            w.nullValue();
            return;
        }
        w.beginArray();
        for (long t : nanos) {
            w.fixed(t / 1e3 / iterationNanos.length, 3);
        }
        w.endArray();
    }

    /**
     * "cases": one object per case that ran (docs/fabric-contract.md): bytes, target (incast; null otherwise), role,
     * time_us, bytes_sent, bytes_received, wrong, link_send; the top-level fields are the last case's, bytes and
     * #wrong the sums.
     */
    private void cases(JsonWriter w) {
        w.name("cases").beginArray();
        for (Case c : cases) {
            w.beginObject();
            w.name("bytes").value(c.bytes());
            w.name("target");
            if (c.target() < 0) {
                w.nullValue();
            } else {
                w.value(c.target());
            }
            w.name("role").value(c.role());
            timeUs(w, c.iterationNanos());
            w.name("bytes_sent").value(c.bytesSent());
            w.name("send_rate_Gbps").value(sendRateGbps(c.bytesSent(), c.iterationNanos()));
            w.name("bytes_received").value(c.bytesReceived());
            w.name("wrong").value(c.wrong());
            linkSends(w, c.sendPeers(), c.sendWrites(), c.sendNanos(), c.iterationNanos());
            w.endObject();
        }
        w.endArray();
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
