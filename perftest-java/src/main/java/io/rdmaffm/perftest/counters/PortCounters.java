package io.rdmaffm.perftest.counters;

import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Sysfs;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One reading of an RDMA port's counters. Keys name the counter as C perftest's {@code -W} does, relative to
 * the port's sysfs directory: {@code hw_counters/NAME} (the port's, e.g. mlx5's {@code out_of_sequence}, rxe's
 * {@code rcvd_pkts}) and {@code counters/NAME} (PMA, e.g. {@code port_xmit_wait}); plus
 * {@code device/hw_counters/NAME} for the device-wide ones and {@code ethtool/NAME} for the netdev's
 * {@code ethtool -S} statistics (e.g. {@code rx_prio3_pause}).
 *
 * @param device  the RDMA device
 * @param port    its port number
 * @param values  counter values by key (unsigned 64-bit, as read)
 * @param absent  why a group or a single counter could not be read, by key or group prefix
 *                ({@code "counters/"}: "no counters/ directory"; {@code "counters/port_xmit_data"}: "not a number")
 */
public record PortCounters(String device, int port, Map<String, Long> values, Map<String, String> absent) {

    /** The group prefixes of the keys, in reading order. */
    public static final List<String> GROUPS = List.of("hw_counters/", "counters/", "device/hw_counters/", "ethtool/");

    /**
     * @param device the device
     * @param port   the port
     * @param values values
     * @param absent reasons
     */
    public PortCounters {
        values = Map.copyOf(values);
        absent = Map.copyOf(absent);
    }

    /**
     * Reads every counter of a port now.
     *
     * @param fs      where sysfs is ({@code /} on the live host, a fixture tree in tests)
     * @param device  the RDMA device, e.g. {@code mlx5_0}
     * @param port    the port number
     * @param netdev  the port's netdev for {@code ethtool -S}, or null when it has none
     * @param ethtool how to ask ethtool
     * @return the reading
     */
    public static PortCounters take(Sysfs fs, String device, int port, String netdev, EthtoolStats ethtool) {
        Map<String, Long> values = new TreeMap<>();
        Map<String, String> absent = new TreeMap<>();
        Path dev = fs.path("sys/class/infiniband/" + device);
        Path portDir = dev.resolve("ports").resolve(Integer.toString(port));
        String where = device + " port " + port;
        readDir(fs, portDir.resolve("hw_counters"), "hw_counters/", where, values, absent);
        readDir(fs, portDir.resolve("counters"), "counters/", where, values, absent);
        readDir(fs, dev.resolve("hw_counters"), "device/hw_counters/", device, values, absent);
        if (netdev == null) {
            absent.put("ethtool/", where + " has no netdev");
        } else {
            Reading<Map<String, Long>> s = ethtool.read(netdev);
            if (s.known()) {
                s.value().forEach((k, v) -> values.put("ethtool/" + k, v));
            } else {
                absent.put("ethtool/", s.problem());
            }
        }
        return new PortCounters(device, port, values, absent);
    }

    private static void readDir(Sysfs fs, Path dir, String prefix, String where, Map<String, Long> values,
                                Map<String, String> absent) {
        Reading<List<String>> names = fs.list(dir);
        if (!names.known()) {
            absent.put(prefix, fs.exists(dir) ? names.problem() : where + " has no " + prefix + " directory");
            return;
        }
        for (String n : names.value()) {
            if (n.equals("lifespan")) {
                continue; // how long the kernel caches hw_counters, not a counter
            }
            Reading<String> text = fs.text(dir.resolve(n));
            String t = text.known() ? text.value().strip() : "";
            if (text.known() && t.matches("\\d{1,20}")) {
                try {
                    values.put(prefix + n, Long.parseUnsignedLong(t));
                    continue;
                } catch (NumberFormatException e) {
                    // above 2^64 - 1: falls through to absent
                }
            }
            absent.put(prefix + n, text.known() ? "not a number: " + Sysfs.quote(text.value()) : text.problem());
        }
    }

    /**
     * One counter, or why this reading has none: the device lacks it, its group could not be read, or its file
     * held no number. Never zero for a counter that is not there.
     *
     * @param key e.g. {@code hw_counters/out_of_sequence}
     * @return its value or the reason
     */
    public Reading<Long> value(String key) {
        Long v = values.get(key);
        if (v != null) {
            return Reading.of(v);
        }
        String own = absent.get(key);
        if (own != null) {
            return Reading.unknown(own);
        }
        for (String g : GROUPS) {
            if (key.startsWith(g) && absent.containsKey(g)) {
                return Reading.unknown(absent.get(g));
            }
        }
        return Reading.unknown(device + " port " + port + " has no " + key);
    }
}
