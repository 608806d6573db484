package io.rdmaffm.perftest.counters;

import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code -W/--report-counters}: the named port counters read when the run starts and after each result row, and
 * each row's change printed as C perftest 4.5 prints it (a tab, {@code name=delta} per counter, then an empty line).
 * Every counter is read once at {@link #open}, so a name the port lacks is refused before the run.
 */
public final class CounterReport {
    private final Sysfs fs;
    private final String device;
    private final int port;
    private final List<String> names;
    private final Path[] files;
    private final long[] last;
    private final List<long[]> rows = new ArrayList<>();

    private CounterReport(Sysfs fs, String device, int port, List<String> names, Path[] files, long[] first) {
        this.fs = fs;
        this.device = device;
        this.port = port;
        this.names = names;
        this.files = files;
        this.last = first;
    }

    /**
     * Reads every named counter once (the baseline of the first row).
     *
     * @param fs     where sysfs is
     * @param device the run's RDMA device
     * @param port   its port
     * @param list   the comma-separated names, as given to {@code -W}
     * @return the report
     * @throws IllegalArgumentException naming the first counter that cannot be read, and why
     */
    public static CounterReport open(Sysfs fs, String device, int port, String list) {
        List<String> names = List.of(list.split(","));
        Path dir = fs.path("sys/class/infiniband/" + device + "/ports/" + port);
        Path[] files = new Path[names.size()];
        long[] first = new long[names.size()];
        for (int i = 0; i < files.length; i++) {
            files[i] = dir.resolve(names.get(i));
            Reading<Long> v = read(fs, files[i]);
            if (!v.known()) {
                throw new IllegalArgumentException("-W: cannot read counter " + names.get(i) + " of " + device
                        + " port " + port + ": " + (fs.exists(files[i]) ? v.problem() : "the port has no such counter"));
            }
            first[i] = v.value();
        }
        return new CounterReport(fs, device, port, names, files, first);
    }

    private static Reading<Long> read(Sysfs fs, Path f) {
        return fs.text(f).flatMap(t -> {
            String s = t.strip();
            try {
                return s.matches("\\d{1,20}") ? Reading.of(Long.parseUnsignedLong(s))
                        : Reading.unknown("not a number: " + Sysfs.quote(t));
            } catch (NumberFormatException e) {
                return Reading.unknown("above 2^64: " + Sysfs.quote(t));
            }
        });
    }

    /**
     * Reads the counters now and returns the lines of the row just printed: each counter's change since the
     * previous reading. A counter that cannot be read any more keeps its last value (change 0, as C's read does).
     *
     * @return {@code "\tNAME=DELTA\n"} per counter, then {@code "\n"}
     */
    public String next() {
        long[] delta = new long[last.length];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < last.length; i++) {
            Reading<Long> v = read(fs, files[i]);
            long now = v.known() ? v.value() : last[i];
            delta[i] = now - last[i];
            last[i] = now;
            sb.append('\t').append(names.get(i)).append('=').append(Long.toUnsignedString(delta[i])).append('\n');
        }
        rows.add(delta);
        return sb.append('\n').toString();
    }

    /**
     * The run document's {@code "counters"}: the device, port, names and each row's changes, in row order.
     *
     * @param w where to write the object
     */
    public void json(JsonWriter w) {
        w.beginObject();
        w.name("device").value(device);
        w.name("port").value(port);
        w.name("names").beginArray();
        names.forEach(w::value);
        w.endArray();
        w.name("deltas").beginArray();
        for (long[] r : rows) {
            w.beginObject();
            for (int i = 0; i < r.length; i++) {
                w.name(names.get(i)).value(r[i]);
            }
            w.endObject();
        }
        w.endArray();
        w.endObject();
    }

    /** @return each row's changes so far, in the order of {@link #names()} (copies) */
    public List<long[]> deltas() {
        return rows.stream().map(r -> Arrays.copyOf(r, r.length)).toList();
    }

    /** @return the counters, as given */
    public List<String> names() {
        return names;
    }
}
