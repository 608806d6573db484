package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.jvm.ProcessActivity;
import io.rdmaffm.perftest.jvm.WindowActivity;
import org.HdrHistogram.Histogram;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;

/**
 * The parts of the run document that perftest's own JSON does not have (docs/run-json.md, schema
 * {@value #SCHEMA}): environment, device, and per row the measured window, the latency histogram and the time
 * series. {@link JsonReport} writes perftest's keys and calls these.
 */
final class RunDocumentParts {
    static final String SCHEMA = "rdma-ffm.run/1";

    private RunDocumentParts() {
    }

    static void environment(JsonWriter w, Environment e) {
        w.name("environment");
        if (e == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        w.name("host").value(e.host());
        w.name("kernel").value(e.kernel());
        w.name("cpu_model").value(e.cpuModel());
        w.name("cpus").value(e.cpus());
        w.name("java_version").value(e.javaVersion());
        w.name("jvm").value(e.jvm());
        w.name("jvm_flags").beginArray();
        for (String f : e.jvmFlags()) {
            w.value(f);
        }
        w.endArray();
        w.name("tool_version").value(e.toolVersion());
        w.name("tool_commit").value(e.toolCommit());
        w.name("tool_dirty");
        if (e.toolDirty() == null) {
            w.nullValue();
        } else {
            w.value(e.toolDirty().booleanValue());
        }
        w.name("date").value(e.date().toString());
        w.name("clock").value(e.clock());
        w.endObject();
    }

    static void device(JsonWriter w, DeviceProvenance d) {
        w.name("device");
        if (d == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        w.name("name").value(d.name());
        w.name("port").value(d.port());
        w.name("virtual").value(d.virtual());
        w.name("fw_ver").value(d.fwVer());
        w.name("link_layer").value(d.linkLayer());
        w.name("port_state").value(d.portState());
        w.name("port_rate").value(d.portRate());
        w.name("port_rate_gbps").value(d.portRateGbps());
        w.name("active_mtu").value(d.activeMtu());
        w.name("gid_index").value(d.gidIndex());
        w.name("gid").value(d.gid());
        w.name("netdev").value(d.netdev());
        w.name("numa_node").value(d.numaNode());
        w.name("pcie");
        DeviceProvenance.Pcie p = d.pcie();
        if (p == null) {
            w.nullValue();
        } else {
            w.beginObject();
            w.name("function").value(p.function());
            w.name("link").value(p.link());
            w.name("model_gbps").value(p.modelGbps());
            w.name("path").value(p.path());
            w.endObject();
        }
        w.endObject();
    }

    /** {@code "measured_window": {...}} or null. */
    static void window(JsonWriter w, WindowActivity a) {
        w.name("measured_window");
        if (a == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        w.name("compilations").value(a.compilations());
        w.name("osr_compilations").value(a.osrCompilations());
        w.name("deoptimizations").value(a.deoptimizations());
        w.name("gcs").value(a.gcs());
        w.name("gc_pause_ms").fixed(a.gcPauseNanos() / 1e6, 2);
        w.name("safepoints").value(a.safepoints());
        w.name("safepoint_ms").fixed(a.safepointNanos() / 1e6, 2);
        ProcessActivity os = a.process();
        count(w, "minor_faults", os.minorFaults());
        count(w, "major_faults", os.majorFaults());
        millis(w, "loop_thread_cpu_ms", os.loopRunNanos());
        millis(w, "loop_thread_runqueue_ms", os.loopWaitNanos());
        millis(w, "other_threads_cpu_ms", os.otherThreadsNanos());
        w.name("other_threads").value(os.otherThreads());
        w.name("details").beginArray();
        for (String s : a.details()) {
            w.value(s);
        }
        w.endArray();
        w.endObject();
    }

    private static void count(JsonWriter w, String name, long n) {
        w.name(name);
        if (n < 0) {
            w.nullValue();
        } else {
            w.value(n);
        }
    }

    private static void millis(JsonWriter w, String name, long nanos) {
        w.name(name);
        if (nanos < 0) {
            w.nullValue();
        } else {
            w.fixed(nanos / 1e6, 3);
        }
    }

    /** The window of size number {@code index}, or null when none was recorded. */
    static WindowActivity windowOf(List<WindowActivity> windows, RowExtras x) {
        if (windows == null || x == null || x.window() < 0 || x.window() >= windows.size()) {
            return null;
        }
        return windows.get(x.window());
    }

    /** The sum of every recorded window, or null when none was. */
    static WindowActivity total(List<WindowActivity> windows) {
        WindowActivity sum = null;
        if (windows != null) {
            for (WindowActivity a : windows) {
                if (a != null) {
                    sum = sum == null ? a : sum.plus(a);
                }
            }
        }
        return sum;
    }

    /** A row's own keys after perftest's: measured window, then (latency) histogram, then time series. */
    static void rowExtras(JsonWriter w, RowExtras x, List<WindowActivity> windows, boolean latency) {
        window(w, windowOf(windows, x));
        if (latency) {
            w.name("latency_histogram");
            histogram(w, x == null ? null : x.histogram());
        }
        w.name("time_series");
        TimeSeries t = x == null ? null : x.series();
        if (t == null) {
            w.nullValue();
            return;
        }
        w.beginObject();
        w.name("interval_ms").value(t.intervalMs());
        w.name("unit").value(t.unit());
        w.name("start_offset_ms").value(t.startOffsetMs());
        w.name("values").beginArray();
        for (double v : t.values()) {
            if (Double.isNaN(v)) {
                w.nullValue();
            } else {
                w.fixed(v, 2);
            }
        }
        w.endArray();
        w.endObject();
    }

    private static void histogram(JsonWriter w, Histogram h) {
        if (h == null) {
            w.nullValue();
            return;
        }
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int n = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[n];
        buf.flip();
        buf.get(bytes);
        w.beginObject();
        w.name("unit").value("ns");
        w.name("significant_digits").value(h.getNumberOfSignificantValueDigits());
        w.name("encoding").value("HdrHistogram-V2-compressed-base64");
        w.name("data").value(Base64.getEncoder().encodeToString(bytes));
        w.name("count").value(h.getTotalCount());
        w.name("max_ns").value(h.getMaxValue());
        w.endObject();
    }
}
