package io.rdmaffm.perftest.report.compare;

import io.rdmaffm.perftest.report.model.Metric;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Two sides (A and B, each one or more run documents: repeats) matched per test, message size and metric,
 * with the ratio B/A of the means and a verdict against the runs' own noise.
 *
 * <p>Noise is each side's spread over its repeats (min to max). A difference is beyond the noise when both
 * sides have repeats and their ranges do not overlap: every B figure is above every A figure, or below. Without
 * repeats on both sides the noise is unknown and no line is marked. A simple rule on purpose: with the two to
 * five repeats people run, a standard deviation says little more than the range, and the rule needs no
 * distribution assumption. Its false-alarm rate is exact for that reason: when both sides measure the same
 * thing (all n + m figures exchangeable), the two ranges miss each other with probability 2 / C(n + m, n),
 * {@link #chanceOfMarkByNoise}: 1 in 3 with two repeats a side, 1 in 10 with three, 1 in 126 with five.
 *
 * <p>Beside the noise rule, a minimum effect size: ranges that miss each other by a difference smaller than it
 * ({@link #DEFAULT_MIN_EFFECT}, 2% of A's mean, unless given) are not marked. Two tight ranges can sit 0.5%
 * apart on two quiet runs a side; that is real but not what a comparison is for, and with two repeats the
 * noise rule alone marks one line in three by chance.
 */
public final class Comparison {

    /** The smallest difference marked by default: 2% (|B/A − 1| ≥ 0.02). */
    public static final double DEFAULT_MIN_EFFECT = 0.02;

    /** How a line's difference stands against the noise. */
    public enum Verdict {
        /** Both sides have repeats, their ranges do not overlap, and B/A differs from 1 by the minimum effect. */
        BEYOND_NOISE,
        /** Both sides have repeats and their ranges do not overlap, but B/A is within the minimum effect of 1. */
        BELOW_MIN_EFFECT,
        /** Both sides have repeats and their ranges overlap. */
        WITHIN_NOISE,
        /** A side has no repeats: the noise is unknown. */
        NOISE_UNKNOWN,
        /** Only one side has this test, size and metric. */
        ONE_SIDED
    }

    /**
     * One compared figure.
     *
     * @param test the test name
     * @param size message size, bytes
     * @param metric which figure
     * @param unit its unit (bandwidth in Gb/sec when the sides' units differ)
     * @param a side A's figures, or null when A lacks the line
     * @param b side B's figures, or null
     * @param ratio B/A of the means, or null (one-sided, or A's mean is 0)
     * @param verdict against the noise
     */
    public record Line(String test, long size, Metric metric, String unit, Stats a, Stats b, Double ratio,
                       Verdict verdict) {

        /** Whether B is better than A on this metric (a higher rate, a lower latency); false when equal or unknown. */
        public boolean bBetter() {
            return ratio != null && ratio != 1 && (ratio > 1) == metric.higherIsBetter();
        }
    }

    private record Key(String test, long size, Metric metric) {
    }

    private record Figure(double value, String unit, Row row) {
    }

    private Comparison() {
    }

    /** {@link #compare(List, List, Set, double)} with the {@link #DEFAULT_MIN_EFFECT}. */
    public static List<Line> compare(List<RunDocument> a, List<RunDocument> b, Set<Metric> only) {
        return compare(a, b, only, DEFAULT_MIN_EFFECT);
    }

    /**
     * @param a side A's runs (at least one)
     * @param b side B's runs (at least one)
     * @param only the metrics to compare; empty for all
     * @param minEffect the smallest |B/A − 1| marked beyond the noise (0.02: 2%)
     * @return the lines, by test (first seen), size, then the metrics in table order
     */
    public static List<Line> compare(List<RunDocument> a, List<RunDocument> b, Set<Metric> only, double minEffect) {
        Map<Key, List<Figure>> fa = figures(a, only);
        Map<Key, List<Figure>> fb = figures(b, only);
        Set<Key> keys = new LinkedHashSet<>(fa.keySet());
        keys.addAll(fb.keySet());
        List<String> testOrder = new ArrayList<>();
        for (Key k : keys) {
            if (!testOrder.contains(k.test())) {
                testOrder.add(k.test());
            }
        }
        List<Key> sorted = new ArrayList<>(keys);
        sorted.sort(Comparator.comparingInt((Key k) -> testOrder.indexOf(k.test())).thenComparingLong(Key::size)
                .thenComparing(Key::metric));
        List<Line> out = new ArrayList<>();
        for (Key k : sorted) {
            out.add(line(k, fa.getOrDefault(k, List.of()), fb.getOrDefault(k, List.of()), minEffect));
        }
        return out;
    }

    private static Map<Key, List<Figure>> figures(List<RunDocument> runs, Set<Metric> only) {
        Map<Key, List<Figure>> m = new LinkedHashMap<>();
        for (RunDocument run : runs) {
            for (Row row : run.rows()) {
                for (Metric metric : row.metrics()) {
                    Double v = row.value(metric);
                    if (v != null && (only.isEmpty() || only.contains(metric))) {
                        m.computeIfAbsent(new Key(run.testName(), row.size(), metric), k -> new ArrayList<>())
                                .add(new Figure(v, row.unit(metric), row));
                    }
                }
            }
        }
        return m;
    }

    private static Line line(Key k, List<Figure> a, List<Figure> b, double minEffect) {
        Set<String> units = new LinkedHashSet<>();
        a.forEach(f -> units.add(f.unit()));
        b.forEach(f -> units.add(f.unit()));
        boolean toGbps = units.size() > 1 && (k.metric() == Metric.BW_AVERAGE || k.metric() == Metric.BW_PEAK);
        String unit = toGbps ? "Gb/sec" : units.iterator().next();
        Stats sa = Stats.of(values(a, toGbps));
        Stats sb = Stats.of(values(b, toGbps));
        Double ratio = sa == null || sb == null || sa.mean() == 0 ? null : sb.mean() / sa.mean();
        Verdict v;
        if (sa == null || sb == null) {
            v = Verdict.ONE_SIDED;
        } else if (sa.hasRepeats() && sb.hasRepeats()) {
            v = !sa.disjointFrom(sb) ? Verdict.WITHIN_NOISE
                    : ratio != null && Math.abs(ratio - 1) < minEffect ? Verdict.BELOW_MIN_EFFECT
                    : Verdict.BEYOND_NOISE;
        } else {
            v = Verdict.NOISE_UNKNOWN;
        }
        return new Line(k.test(), k.size(), k.metric(), unit, sa, sb, ratio, v);
    }

    private static List<Double> values(List<Figure> figures, boolean toGbps) {
        List<Double> out = new ArrayList<>();
        for (Figure f : figures) {
            out.add(toGbps && f.row() instanceof Row.Bandwidth bw ? bw.gbps(f.value()) : f.value());
        }
        return out;
    }

    /**
     * The probability that a line is marked although both sides measure the same thing: of the C(n+m, n) equally
     * likely ways the n + m figures fall into the two sides by rank, two leave the ranges apart.
     *
     * @param n repeats of side A
     * @param m repeats of side B
     * @return 2 / C(n + m, n)
     */
    public static double chanceOfMarkByNoise(int n, int m) {
        double c = 1;
        for (int i = 1; i <= n; i++) {
            c = c * (m + i) / i;
        }
        return Math.min(1, 2 / c);
    }

    /**
     * Refuses sides that cannot be compared: one measures bandwidth and the other latency (or latency over a
     * duration), or they share no test, size and metric. Either would otherwise print a table of one-sided lines.
     *
     * @throws IllegalArgumentException naming each side's kind and files
     */
    public static void requireComparable(List<RunDocument> a, List<RunDocument> b, List<Line> lines) {
        Set<String> ka = kinds(a);
        Set<String> kb = kinds(b);
        if (!ka.isEmpty() && !kb.isEmpty() && java.util.Collections.disjoint(ka, kb)) {
            throw new IllegalArgumentException("cannot compare " + String.join(" and ", ka) + " runs (A: "
                    + ComparePage.names(a) + ") with " + String.join(" and ", kb) + " runs (B: "
                    + ComparePage.names(b) + ")");
        }
        for (Line l : lines) {
            if (l.verdict() != Verdict.ONE_SIDED) {
                return;
            }
        }
        if (!lines.isEmpty()) {
            throw new IllegalArgumentException("nothing in common to compare: A has " + tests(a) + ", B has "
                    + tests(b) + " (the same test, size and metric is needed on both sides)");
        }
    }

    private static Set<String> kinds(List<RunDocument> runs) {
        Set<String> out = new LinkedHashSet<>();
        for (RunDocument run : runs) {
            for (Row r : run.rows()) {
                out.add(switch (r) {
                    case Row.Bandwidth x -> "bandwidth";
                    case Row.Latency x -> "latency";
                    case Row.LatencyDuration x -> "duration-mode latency";
                });
            }
        }
        return out;
    }

    private static String tests(List<RunDocument> runs) {
        Set<String> out = new LinkedHashSet<>();
        for (RunDocument run : runs) {
            out.add(run.testName());
        }
        return String.join(", ", out);
    }

    /** Whether any side of any line has repeats, i.e. whether the noise is known anywhere. */
    public static boolean anyRepeats(List<Line> lines) {
        for (Line l : lines) {
            if (l.verdict() != Verdict.NOISE_UNKNOWN && l.verdict() != Verdict.ONE_SIDED) {
                return true;
            }
        }
        return false;
    }
}
