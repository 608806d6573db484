package io.rdmaffm.verbs.topology;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PCIe link speed as the kernel prints it in {@code current_link_speed} / {@code max_link_speed}.
 *
 * <p>Kernels since 5.7 print {@code "16.0 GT/s PCIe"}; 5.6 and older print {@code "16 GT/s"}; both print
 * {@code "Unknown"} or {@code "Unknown speed"} when the link has no speed (down, or a VF).
 *
 * @param gigaTransfers the signalling rate per lane in GT/s (2.5, 5, 8, 16, 32, 64)
 */
public record PcieSpeed(double gigaTransfers) {

    private static final Pattern FORMAT = Pattern.compile("^(\\d+(?:\\.\\d+)?) ?GT/s(?: PCIe)?(?:\\s.*)?$");

    /**
     * @param gigaTransfers GT/s, positive
     */
    public PcieSpeed {
        if (!(gigaTransfers > 0) || gigaTransfers > 1_000) {
            throw new IllegalArgumentException("bad PCIe speed " + gigaTransfers);
        }
    }

    /**
     * Parses either kernel spelling.
     *
     * @param text the attribute text
     * @return the speed, or why it is not one
     */
    public static Reading<PcieSpeed> parse(String text) {
        String t = text.strip();
        if (t.toLowerCase(Locale.ROOT).startsWith("unknown")) {
            return Reading.unknown("link speed reported as " + Sysfs.quote(t));
        }
        Matcher m = FORMAT.matcher(t);
        if (!m.matches()) {
            return Reading.unknown("unparseable link speed " + Sysfs.quote(t));
        }
        double gt = Double.parseDouble(m.group(1));
        if (!(gt > 0) || gt > 1_000) {
            return Reading.unknown("implausible link speed " + Sysfs.quote(t));
        }
        return Reading.of(new PcieSpeed(gt));
    }

    /** @return the PCIe generation (1 for 2.5 GT/s ... 6 for 64 GT/s, 7 for 128 GT/s), 0 if not a standard rate */
    public int generation() {
        double g = gigaTransfers;
        if (g == 2.5) {
            return 1;
        }
        if (g == 5) {
            return 2;
        }
        if (g == 8) {
            return 3;
        }
        if (g == 16) {
            return 4;
        }
        if (g == 32) {
            return 5;
        }
        if (g == 64) {
            return 6;
        }
        if (g == 128) {
            return 7;
        }
        return 0;
    }

    /** @return e.g. {@code "16.0 GT/s"} */
    public String label() {
        return String.format(Locale.ROOT, "%.1f GT/s", gigaTransfers);
    }

    @Override
    public String toString() {
        int gen = generation();
        return gen > 0 ? label() + " (Gen" + gen + ")" : label();
    }
}
