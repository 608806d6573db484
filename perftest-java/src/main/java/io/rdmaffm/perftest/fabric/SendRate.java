package io.rdmaffm.perftest.fabric;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code --rate}: the most one sender (a rank: all its links and threads together) may send, in bits per second
 * (docs/fabric-design.md §12). Bits with decimal prefixes, as port rates and perftest's {@code --rate_units g} are
 * given: {@code 25G}, {@code 25Gb/s}, {@code 800Mbps}, {@code 2.5 Gb/s}. The unit is required (a bare {@code 25}
 * could be Gb/s or Mb/s), and bytes ({@code GB/s}, perftest's {@code M} = MiB/s) are refused rather than guessed.
 *
 * @param bitsPerSecond the cap, at least 1
 */
public record SendRate(long bitsPerSecond) {
    private static final Pattern FORMAT = Pattern.compile("^([0-9]+(?:\\.[0-9]+)?)\\s*([kKmMgGtT])?(b/s|bps|bit/s)?$");
    private static final String PREFIXES = "kmgt";
    private static final String[] NAMES = {"", "K", "M", "G", "T"};

    /** Checks the cap. */
    public SendRate {
        if (bitsPerSecond < 1) {
            throw new IllegalArgumentException("--rate must be above 0 b/s");
        }
    }

    /**
     * The cap {@code text} names.
     *
     * @throws IllegalArgumentException one line: what is wrong and what would do
     */
    public static SendRate parse(String text) {
        String t = text == null ? "" : text.strip();
        Matcher m = FORMAT.matcher(t);
        if (!m.matches()) {
            String why = t.matches("^[0-9.]+\\s*[kKmMgGtT]?i?B.*") ? ": --rate is in bits per second (Gb/s, as port"
                    + " rates), not bytes" : "";
            throw new IllegalArgumentException("--rate '" + printable(t) + "'" + why + " (e.g. 25G, 25Gb/s, 800Mbps,"
                    + " 2.5Gbit/s: bits per second, decimal K/M/G/T)");
        }
        if (m.group(2) == null && m.group(3) == null) {
            throw new IllegalArgumentException("--rate '" + t + "': give the unit (e.g. " + t + "G for " + t
                    + " Gb/s, " + t + "M for " + t + " Mb/s)");
        }
        int k = m.group(2) == null ? 0 : PREFIXES.indexOf(m.group(2).toLowerCase(Locale.ROOT)) + 1;
        BigDecimal bits = new BigDecimal(m.group(1)).movePointRight(3 * k).setScale(0, RoundingMode.HALF_UP);
        if (bits.signum() <= 0) {
            throw new IllegalArgumentException("--rate '" + t + "' must be above 0 b/s");
        }
        if (bits.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("--rate '" + t + "' is too large");
        }
        return new SendRate(bits.longValueExact());
    }

    /** The cap in Gb/s (10^9 bit/s). */
    public double gbps() {
        return bitsPerSecond / 1e9;
    }

    /** How the worker's command line passes it: exact, parsed back to the same bits ("2.5Gb/s"). */
    public String arg() {
        int k = 0; // the largest prefix that still reads at least 1 (a fraction of it is an exact decimal)
        while (k < NAMES.length - 1 && bitsPerSecond >= pow1000(k + 1)) {
            k++;
        }
        return new BigDecimal(bitsPerSecond).movePointLeft(3 * k).stripTrailingZeros().toPlainString() + NAMES[k]
                + "b/s";
    }

    /** For people: "2.5 Gb/s". */
    public String text() {
        String a = arg();
        int unit = a.length() - 3;
        while (unit > 0 && Character.isLetter(a.charAt(unit - 1))) {
            unit--;
        }
        return a.substring(0, unit) + " " + a.substring(unit);
    }

    /**
     * The least time in which {@code bytes} may be sent under this cap: {@code ceil(bytes × 8 / rate)} ns, exact
     * (not on a hot path: once per run).
     */
    public long gapNanos(long bytes) {
        BigInteger[] qr = BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(8_000_000_000L))
                .divideAndRemainder(BigInteger.valueOf(bitsPerSecond));
        BigInteger ns = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        return ns.bitLength() < 63 ? ns.longValue() : Long.MAX_VALUE;
    }

    /** Whether the cap is above a port of {@code portGbps} (a port sends at most its rate; equal is allowed). */
    public boolean above(double portGbps) {
        return bitsPerSecond > portGbps * 1e9;
    }

    private static long pow1000(int k) {
        long p = 1;
        for (int i = 0; i < k; i++) {
            p *= 1000;
        }
        return p;
    }

    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length() && i < 40; i++) {
            char c = s.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format(Locale.ROOT, "\\u%04x", (int) c));
        }
        return s.length() > 40 ? b + "..." : b.toString();
    }
}
