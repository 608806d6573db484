package io.rdmaffm.perftest.report.compare;

import io.rdmaffm.perftest.report.compare.Comparison.Line;
import io.rdmaffm.perftest.report.compare.Comparison.Verdict;
import io.rdmaffm.perftest.report.html.Html;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The terminal form of a comparison: a few header lines naming the sides and the noise rule, then per test a
 * table with aligned columns (bytes, metric, unit, A, B, B/A, each side's spread, the mark).
 */
public final class CompareText {
    /** What a comparison without repeats says about noise. */
    public static final String NO_REPEATS = "no repeats: noise unknown";
    private static final String[] HEAD = {"bytes", "metric", "unit", "A", "B", "B/A", "A spread", "B spread", ""};
    private static final boolean[] LEFT = {false, true, true, false, false, false, false, false, true};

    private CompareText() {
    }

    /** The header line describing the noise for these lines. */
    public static String noiseNote(List<Line> lines, int runsA, int runsB) {
        return noiseNote(lines, runsA, runsB, Comparison.DEFAULT_MIN_EFFECT);
    }

    /** The header line describing the noise rule and the minimum effect ({@code minEffect}, a fraction). */
    public static String noiseNote(List<Line> lines, int runsA, int runsB, double minEffect) {
        if (Comparison.anyRepeats(lines)) {
            long odds = Math.round(1 / Comparison.chanceOfMarkByNoise(runsA, runsB));
            return "noise: each side's spread over its repeats (+/- half of min to max, in % of the mean; "
                    + "(n) repeats); * marks a difference beyond it (the two ranges do not overlap) and of at least "
                    + percent(minEffect) + " (--min-effect; smaller ones say \"< min effect\"); with "
                    + runsA + " and " + runsB + " repeats the ranges miss each other by noise alone 1 time in " + odds
                    + (odds < 10 ? " (3 or more repeats a side make that 1 in 10 or rarer)" : "");
        }
        return "noise: " + NO_REPEATS + " (give each side several runs: --a A1.json A2.json --b B1.json B2.json)"
                + (runsA > 1 || runsB > 1 ? "; only one side has repeats" : "");
    }

    /**
     * The text of a comparison of these runs: {@link #render(List, String, String, int, int)} with the files as
     * the sides' names, and a line naming the files that hold only the table's rounded figures.
     */
    public static String render(List<Line> lines, List<RunDocument> a, List<RunDocument> b, double minEffect) {
        String text = render(lines, ComparePage.names(a), ComparePage.names(b), a.size(), b.size(), minEffect);
        String note = precisionNote(a, b);
        if (note == null) {
            return text;
        }
        int afterHeader = text.indexOf('\n', text.indexOf('\n', text.indexOf('\n') + 1) + 1) + 1;
        return text.substring(0, afterHeader) + note + '\n' + text.substring(afterHeader);
    }

    /**
     * Null when every row of every run has full-precision figures; else one line naming the files written before
     * the run document kept them, whose figures are the table's rounded ones (a 2 B row's 0.04 MB/sec), so a
     * ratio of small figures there measures the rounding as much as the runs.
     */
    public static String precisionNote(List<RunDocument> a, List<RunDocument> b) {
        List<String> rounded = new ArrayList<>();
        for (List<RunDocument> side : List.of(a, b)) {
            for (RunDocument run : side) {
                if (!run.exactFigures()) {
                    rounded.add((side == a ? "A: " : "B: ") + run.label());
                }
            }
        }
        if (rounded.isEmpty()) {
            return null;
        }
        return "precision: " + String.join(", ", rounded) + " hold only the table's rounded figures (written "
                + "before the run document kept exact ones): B/A of small figures there reflects the rounding";
    }

    /**
     * @param lines the comparison
     * @param sideA how side A is named (its files)
     * @param sideB how side B is named
     * @param runsA runs on side A
     * @param runsB runs on side B
     * @return the text, lines ending in {@code \n}
     */
    public static String render(List<Line> lines, String sideA, String sideB, int runsA, int runsB) {
        return render(lines, sideA, sideB, runsA, runsB, Comparison.DEFAULT_MIN_EFFECT);
    }

    /** As {@link #render(List, String, String, int, int)}, naming the minimum effect the lines were judged by. */
    public static String render(List<Line> lines, String sideA, String sideB, int runsA, int runsB,
            double minEffect) {
        StringBuilder b = new StringBuilder();
        b.append("A: ").append(sideA).append('\n');
        b.append("B: ").append(sideB).append('\n');
        b.append(noiseNote(lines, runsA, runsB, minEffect)).append('\n');
        if (lines.isEmpty()) {
            return b.append("nothing to compare: the runs have no rows\n").toString();
        }
        List<String[]> cells = new ArrayList<>();
        for (Line l : lines) {
            cells.add(cells(l));
        }
        int[] width = new int[HEAD.length];
        for (int c = 0; c < HEAD.length; c++) {
            width[c] = HEAD[c].length();
            for (String[] row : cells) {
                width[c] = Math.max(width[c], row[c].length());
            }
        }
        String test = null;
        for (int i = 0; i < lines.size(); i++) {
            if (!lines.get(i).test().equals(test)) {
                test = lines.get(i).test();
                b.append('\n').append(test).append('\n');
                b.append(format(HEAD, width)).append('\n');
            }
            b.append(format(cells.get(i), width)).append('\n');
        }
        return b.toString();
    }

    private static String[] cells(Line l) {
        return new String[] {Long.toString(l.size()), l.metric().label(), l.unit(), mean(l.a()), mean(l.b()),
                l.ratio() == null ? "-" : String.format(Locale.ROOT, "%.3f", l.ratio()), spread(l.a()), spread(l.b()),
                mark(l)};
    }

    /** The mark column: {@code * better}/{@code * worse} beyond noise, {@code only in A}/{@code only in B}. */
    public static String mark(Line l) {
        if (l.verdict() == Verdict.BEYOND_NOISE) {
            return l.bBetter() ? "* better" : "* worse";
        }
        if (l.verdict() == Verdict.BELOW_MIN_EFFECT) {
            return "< min effect";
        }
        if (l.verdict() == Verdict.ONE_SIDED) {
            return l.a() == null ? "only in B" : "only in A";
        }
        return "";
    }

    /** A fraction as a percentage without needless decimals: 0.02 as {@code 2%}, 0.005 as {@code 0.5%}. */
    static String percent(double fraction) {
        return new java.math.BigDecimal(Double.toString(fraction * 100)).stripTrailingZeros().toPlainString() + "%";
    }

    static String mean(Stats s) {
        return s == null ? "-" : Html.figure(s.mean());
    }

    static String spread(Stats s) {
        if (s == null || !s.hasRepeats()) {
            return "-";
        }
        double p = s.spreadPercent();
        return Double.isNaN(p) ? "-" : String.format(Locale.ROOT, "+/-%.1f%% (%d)", p / 2, s.n());
    }

    private static String format(String[] row, int[] width) {
        StringBuilder b = new StringBuilder();
        for (int c = 0; c < row.length; c++) {
            if (c > 0) {
                b.append("  ");
            }
            String pad = " ".repeat(width[c] - row[c].length());
            b.append(LEFT[c] ? row[c] + pad : pad + row[c]);
        }
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') {
            end--;
        }
        return b.substring(0, end);
    }
}
