package io.rdmaffm.perftest.doctor;

import java.util.Locale;

/** How the doctor writes figures into its reasons and rounds them for its numbers. */
final class Fmt {
    private Fmt() {
    }

    /**
     * @param v a figure
     * @return no decimals when whole, else one ({@code 400}, {@code 225.6})
     */
    static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /**
     * @param v a figure
     * @return it rounded to one decimal
     */
    static double round(double v) {
        return Math.round(v * 10.0) / 10.0;
    }
}
