package io.rdmaffm.perftest.counters;

import io.rdmaffm.verbs.topology.Reading;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * A netdev's driver statistics as {@code ethtool -S} prints them (the per-priority pause and discard counters
 * live only there, not in sysfs). Only the live host can be asked; a captured sysfs tree gets
 * {@link #unavailable}.
 */
@FunctionalInterface
public interface EthtoolStats {

    /**
     * @param netdev the interface
     * @return its statistics by name, or why there are none
     */
    Reading<Map<String, Long>> read(String netdev);

    /**
     * @param reason why no statistics can be had
     * @return a source that always answers {@code reason}
     */
    static EthtoolStats unavailable(String reason) {
        return netdev -> Reading.unknown(reason);
    }

    /**
     * @return the installed {@code ethtool}, or a source that says it is not installed
     */
    static EthtoolStats forLiveHost() {
        for (String l : List.of("/usr/sbin/ethtool", "/sbin/ethtool", "/usr/bin/ethtool", "/bin/ethtool")) {
            Path p = Path.of(l);
            if (Files.isExecutable(p)) {
                return netdev -> run(p, netdev);
            }
        }
        return unavailable("ethtool is not installed");
    }

    private static Reading<Map<String, Long>> run(Path ethtool, String netdev) {
        if (!netdev.matches("[A-Za-z0-9_.:@-]{1,15}")) {
            return Reading.unknown("unusual netdev name, ethtool not asked");
        }
        try {
            Process p = new ProcessBuilder(ethtool.toString(), "-S", netdev).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readNBytes(1024 * 1024);
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Reading.unknown("ethtool -S " + netdev + " did not answer within 5 s");
            }
            String text = new String(out, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                String first = text.isEmpty() ? "exit " + p.exitValue() : text.lines().findFirst().orElse("");
                return Reading.unknown("ethtool -S " + netdev + ": " + first);
            }
            return parse(text);
        } catch (IOException e) {
            return Reading.unknown("ethtool failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Reading.unknown("interrupted while asking ethtool");
        }
    }

    /**
     * Parses {@code ethtool -S} output: a header line, then {@code "     name: value"} lines. Lines that are not
     * a name and an unsigned number are skipped; no statistics at all is a reason ("no statistics").
     *
     * @param text what ethtool printed
     * @return the statistics by name
     */
    static Reading<Map<String, Long>> parse(String text) {
        Map<String, Long> stats = new TreeMap<>();
        for (String line : text.lines().toList()) {
            int colon = line.lastIndexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).strip();
            String value = line.substring(colon + 1).strip();
            if (name.isEmpty() || name.contains(" ") || !value.matches("\\d{1,20}")) {
                continue;
            }
            try {
                stats.put(name, Long.parseUnsignedLong(value));
            } catch (NumberFormatException e) {
                // above 2^64 - 1: not a counter
            }
        }
        return stats.isEmpty() ? Reading.unknown("ethtool -S printed no statistics") : Reading.of(stats);
    }
}
