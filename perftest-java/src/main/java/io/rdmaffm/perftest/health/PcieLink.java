package io.rdmaffm.perftest.health;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PCIe link as an operator writes it ({@code Gen5 x16}) or as the doctor reads it from sysfs ({@code 32.0 GT/s
 * x16}). A link meets an expectation when neither its rate per lane nor its width is lower.
 *
 * @param gtPerSecond transfers per lane, GT/s
 * @param width       lanes
 */
public record PcieLink(double gtPerSecond, int width) {
    /** GT/s of Gen1 .. Gen6, the generation being the index + 1. */
    private static final double[] GENERATION_GTS = {2.5, 5, 8, 16, 32, 64};
    private static final Pattern GEN = Pattern.compile("(?i)gen\\s*([1-6])\\s+x(\\d{1,2})");
    private static final Pattern GTS = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*GT/s.*?\\bx(\\d{1,2})");

    /**
     * @param text {@code GenN xW} (threshold file) or {@code S GT/s xW} (sysfs, the doctor)
     * @return the link
     * @throws IllegalArgumentException with one line when it is neither
     */
    public static PcieLink parse(String text) {
        Matcher g = GEN.matcher(text.strip());
        if (g.matches()) {
            return new PcieLink(GENERATION_GTS[Integer.parseInt(g.group(1)) - 1], Integer.parseInt(g.group(2)));
        }
        Matcher s = GTS.matcher(text.strip());
        if (s.find()) {
            return new PcieLink(Double.parseDouble(s.group(1)), Integer.parseInt(s.group(2)));
        }
        throw new IllegalArgumentException("not a PCIe link: '" + text + "' (write e.g. Gen5 x16)");
    }

    /** @return whether this link is at least as fast per lane and as wide as {@code expected} */
    public boolean meets(PcieLink expected) {
        return gtPerSecond >= expected.gtPerSecond && width >= expected.width;
    }

    @Override
    public String toString() {
        for (int i = 0; i < GENERATION_GTS.length; i++) {
            if (GENERATION_GTS[i] == gtPerSecond) {
                return "Gen" + (i + 1) + " x" + width;
            }
        }
        return String.format(Locale.ROOT, "%.1f GT/s x%d", gtPerSecond, width);
    }
}
