package io.rdmaffm.verbs.topology;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One reading of a device's counters: {@code hw_counters/*} of the device and of each port, and the
 * port's PMA {@code counters/*}. Keys are {@code "hw_counters/<name>"} for device-level counters and
 * {@code "<port>/hw_counters/<name>"} or {@code "<port>/counters/<name>"} for port counters.
 *
 * @param device   the device name
 * @param values   counter values by key
 * @param problems files that could not be read or were not numbers ({@code "N/A (no PMA)"})
 */
public record CounterSnapshot(String device, Map<String, Long> values, List<String> problems) {

    /**
     * @param device   name
     * @param values   values
     * @param problems problems
     */
    public CounterSnapshot {
        values = Map.copyOf(values);
        problems = List.copyOf(problems);
    }

    /**
     * Reads all counters of a device now.
     *
     * @param fs     where to read
     * @param device the device
     * @return the snapshot
     */
    public static CounterSnapshot take(Sysfs fs, SysfsRdmaDevice device) {
        Map<String, Long> values = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        readDir(fs, device.dir().resolve("hw_counters"), "hw_counters/", values, problems);
        for (RdmaPort p : device.ports().orElse(List.of())) {
            readDir(fs, p.dir().resolve("hw_counters"), p.number() + "/hw_counters/", values, problems);
            readDir(fs, p.dir().resolve("counters"), p.number() + "/counters/", values, problems);
        }
        return new CounterSnapshot(device.name(), values, problems);
    }

    private static void readDir(Sysfs fs, Path dir, String prefix, Map<String, Long> values, List<String> problems) {
        if (!fs.exists(dir)) {
            return;
        }
        for (String n : fs.list(dir).orElse(List.of())) {
            if (n.equals("lifespan")) {
                continue;
            }
            Reading<Long> v = fs.text(dir.resolve(n)).flatMap(TopologyReader::decimal);
            if (v.known()) {
                values.put(prefix + n, v.value());
            } else {
                problems.add(v.problem());
            }
        }
    }
}
