package io.rdmaffm.perftest.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * The few C {@code printf} conversions perftest's output uses, with glibc's results. Java's {@link String#format}
 * differs in two ways that matter here: it rounds half-up from the shortest decimal form (C rounds the exact
 * binary value, ties to even: {@code printf("%.2f", 1.005)} gives "1.00", Java "1.01"), and it has no
 * equivalent of the {@code #} flag's "no 0x for zero" rule.
 */
public final class CFormat {
    private CFormat() {
    }

    /** {@code %.Nf}: the exact binary value rounded to {@code precision} places; "inf", "-inf", "nan", "-nan". */
    public static String fixed(double v, int precision) {
        boolean negative = (Double.doubleToRawLongBits(v) & Long.MIN_VALUE) != 0;
        if (Double.isNaN(v)) {
            return negative ? "-nan" : "nan";
        }
        if (Double.isInfinite(v)) {
            return negative ? "-inf" : "inf";
        }
        String s = new BigDecimal(v).setScale(precision, RoundingMode.HALF_EVEN).toPlainString();
        // BigDecimal drops the sign of -0.0 and of negatives that round to zero; C keeps it.
        if (negative && !s.startsWith("-")) {
            s = "-" + s;
        }
        return s;
    }

    /**
     * {@code %g}: six significant digits of the exact binary value (ties to even), in {@code %f} form when the
     * exponent is -4 to 5 and {@code %e} form otherwise, trailing zeros and a bare point removed.
     */
    public static String general(double v) {
        boolean negative = (Double.doubleToRawLongBits(v) & Long.MIN_VALUE) != 0;
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return fixed(v, 0);
        }
        String sign = negative ? "-" : "";
        if (v == 0) {
            return sign + "0";
        }
        BigDecimal rounded = new BigDecimal(Math.abs(v)).round(new MathContext(6, RoundingMode.HALF_EVEN));
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent >= -4 && exponent < 6) {
            return sign + withoutTrailingZeros(rounded.setScale(5 - exponent, RoundingMode.HALF_EVEN).toPlainString());
        }
        String mantissa = withoutTrailingZeros(rounded.movePointLeft(exponent).setScale(5, RoundingMode.HALF_EVEN)
                .toPlainString());
        return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + zeroPadded(Math.abs(exponent), 2);
    }

    private static String withoutTrailingZeros(String decimal) {
        if (decimal.indexOf('.') < 0) {
            return decimal;
        }
        int end = decimal.length();
        while (decimal.charAt(end - 1) == '0') {
            end--;
        }
        if (decimal.charAt(end - 1) == '.') {
            end--;
        }
        return decimal.substring(0, end);
    }

    /** {@code %-W.Nf}: {@link #fixed} padded on the right to {@code width}. */
    public static String fixedLeft(double v, int width, int precision) {
        return padRight(fixed(v, precision), width);
    }

    /** {@code %-Wlu}: an unsigned decimal padded on the right. */
    public static String unsignedLeft(long v, int width) {
        return padRight(Long.toUnsignedString(v), width);
    }

    /** {@code %0Wx}: lower-case hex of an unsigned value, zero padded to {@code width}. */
    public static String hex(long v, int width) {
        return padLeft(Long.toHexString(v), width, '0');
    }

    /**
     * {@code %#0Wx}: "0x" and zero-padded hex, the prefix counting in the width; zero has no prefix and is
     * all zeros ({@code %#04x} of 0 is "0000", of 0x12 is "0x12", {@code %#06x} of 0xe7e49 is "0xe7e49").
     */
    public static String altHex(long v, int width) {
        if (v == 0) {
            return padLeft("0", width, '0');
        }
        return "0x" + padLeft(Long.toHexString(v), width - 2, '0');
    }

    /** {@code %0Wd}: a non-negative decimal zero padded to {@code width}. */
    public static String zeroPadded(long v, int width) {
        return padLeft(Long.toString(v), width, '0');
    }

    /** Pads on the right with spaces; never truncates (like printf). */
    public static String padRight(String s, int width) {
        if (s.length() >= width) {
            return s;
        }
        return s + " ".repeat(width - s.length());
    }

    private static String padLeft(String s, int width, char pad) {
        if (s.length() >= width) {
            return s;
        }
        return String.valueOf(pad).repeat(width - s.length()) + s;
    }
}
