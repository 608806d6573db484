package io.rdmaffm.verbs.topology;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A port rate as printed in {@code ports/<n>/rate}: {@code "%d%s Gb/sec (%dX%s)"}.
 *
 * <p>Older kernels print no label for SDR ({@code "10 Gb/sec (4X)"}) and map speeds they do not know to
 * SDR, so an SDR reading on a modern NIC usually means "kernel too old to name this speed".
 *
 * @param gbps      the rate in Gb/s as printed (FDR shows the signalling figure 56)
 * @param width     the lane count (1, 2, 4, 8, 12)
 * @param speedName the per-lane speed name ({@code "HDR"}), or {@code ""} when the kernel printed none
 * @param raw       the text as read
 */
public record PortRate(double gbps, int width, String speedName, String raw) {

    private static final Pattern FORMAT =
            Pattern.compile("^(\\d+)(\\.5)? Gb/sec \\((\\d+)X(?: ([A-Za-z0-9]+))?\\)$");

    /**
     * Parses every format the kernel has used.
     *
     * @param text the attribute text
     * @return the rate, or why it is not one
     */
    public static Reading<PortRate> parse(String text) {
        String t = text.strip();
        Matcher m = FORMAT.matcher(t);
        if (!m.matches()) {
            return Reading.unknown("unparseable rate " + Sysfs.quote(t));
        }
        try {
            double g = Long.parseLong(m.group(1)) + (m.group(2) != null ? 0.5 : 0.0);
            int w = Integer.parseInt(m.group(3));
            if (w <= 0 || w > 32 || g <= 0 || g > 100_000) {
                return Reading.unknown("implausible rate " + Sysfs.quote(t));
            }
            String name = m.group(4) == null ? "" : m.group(4).toUpperCase(Locale.ROOT);
            return Reading.of(new PortRate(g, w, name, t));
        } catch (NumberFormatException e) {
            return Reading.unknown("implausible rate " + Sysfs.quote(t));
        }
    }

    /** @return whether the kernel printed no speed name (old kernels did so for SDR) */
    public boolean unlabelled() {
        return speedName.isEmpty();
    }

    /** @return whether this is SDR, labelled or (old kernels) unlabelled */
    public boolean isSdr() {
        return speedName.isEmpty() || speedName.equals("SDR");
    }

    @Override
    public String toString() {
        return raw;
    }
}
