package io.rdmaffm.perftest.report.html;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Escaping and number formatting shared by the HTML and SVG writers. */
public final class Html {
    private Html() {
    }

    /** Text or an attribute value with {@code & < > " '} escaped; null as the empty string. */
    public static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c < 0x20 && c != '\n' && c != '\t' ? ' ' : c);
            }
        }
        return b.toString();
    }

    /** An SVG coordinate: one decimal, never {@code -0.0} or an exponent. */
    public static String coord(double v) {
        double r = Math.round(v * 10) / 10.0;
        if (r == 0) {
            r = 0; // no negative zero
        }
        return r == Math.rint(r) ? Long.toString((long) r) : String.format(Locale.ROOT, "%.1f", r);
    }

    /**
     * A figure for people: at most six significant digits, no exponent, no trailing zeros
     * ({@code 11723.2}, {@code 0.042185}, {@code 400}); null as {@code "-"}.
     */
    public static String figure(Double v) {
        if (v == null || v.isNaN() || v.isInfinite()) {
            return "-";
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros();
        return d.scale() < 0 ? d.setScale(0).toPlainString() : d.toPlainString();
    }

    /**
     * A latency given in microseconds, in the unit that reads best: {@code 500 ns}, {@code 2.5 µs},
     * {@code 20 ms}, {@code 1 s}; zero as {@code 0}. Axis labels use it, so a tail of a second reads "1 s", not
     * "1000000".
     */
    public static String duration(double micros) {
        if (micros == 0) {
            return "0";
        }
        double a = Math.abs(micros);
        if (a >= 1e6) {
            return figure(micros / 1e6) + " s";
        }
        if (a >= 1e3) {
            return figure(micros / 1e3) + " ms";
        }
        if (a >= 1) {
            return figure(micros) + " µs";
        }
        return figure(micros * 1e3) + " ns";
    }

    /** A message size as perftest sweeps them: {@code 2}, {@code 512}, {@code 4K}, {@code 8M}; others in bytes. */
    public static String size(double bytes) {
        long b = (long) bytes;
        if (b != bytes || b <= 0) {
            return figure(bytes);
        }
        if (b >= 1L << 30 && b % (1L << 30) == 0) {
            return (b >> 30) + "G";
        }
        if (b >= 1L << 20 && b % (1L << 20) == 0) {
            return (b >> 20) + "M";
        }
        if (b >= 1L << 10 && b % (1L << 10) == 0) {
            return (b >> 10) + "K";
        }
        return Long.toString(b);
    }
}
