package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.RunFormatException;
import io.rdmaffm.perftest.report.model.Row;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * The plots of latency runs: percentile distributions from the recorded histograms, and typical / 99.9% latency
 * against message size for sweeps. Percentile plots overlay every run at one message size when the runs have
 * at most {@value #MAX_SIZE_PLOTS} sizes with a histogram; beyond that (sweeps) each run gets one plot with a
 * curve for each of a few sizes, the rest on demand. Latency axes are labelled in ns, µs, ms or s, whichever
 * reads best at that tick.
 */
public final class LatencyPlots {
    /** Up to this many sizes, one percentile plot per size overlaying the runs. */
    public static final int MAX_SIZE_PLOTS = 4;
    /** A latency axis turns logarithmic when its largest value is more than this many times its smallest. */
    public static final double LOG_RATIO = 20;

    private LatencyPlots() {
    }

    private record Curve(PlotRun run, int runIndex, Row.Latency row, List<LatencyCurve.Point> points) {
    }

    /** The percentile plots, then latency against size where it applies; {@code named}: sizes to show first. */
    public static List<PlotElement> all(List<PlotRun> runs, Set<Long> named) {
        List<PlotElement> out = percentiles(runs, named);
        againstSize(runs).ifPresent(out::add);
        return out;
    }

    /**
     * One plot per size (few sizes) or per run (sweeps); empty when no row has a histogram. A sweep's plot draws
     * the sizes {@link SizeChoice} picks; the others follow in a second plot shown on demand, so no plot holds
     * more curves than can be told apart.
     */
    public static List<PlotElement> percentiles(List<PlotRun> runs, Set<Long> named) {
        List<Curve> curves = curves(runs);
        TreeMap<Long, List<Curve>> bySize = new TreeMap<>();
        for (Curve c : curves) {
            bySize.computeIfAbsent(c.row().size(), k -> new ArrayList<>()).add(c);
        }
        List<PlotElement> out = new ArrayList<>();
        if (bySize.size() <= MAX_SIZE_PLOTS) {
            bySize.forEach((size, cs) -> {
                List<SvgPlot.Series> series = new ArrayList<>();
                for (Curve c : cs) {
                    series.add(series(c, c.run().label(), c.run().style()));
                }
                out.add(percentilePlot("percentiles-" + size, "Latency percentiles, " + Html.size(size) + " B messages",
                        series));
            });
            return out;
        }
        for (int i = 0; i < runs.size(); i++) {
            TreeSet<Long> sizes = new TreeSet<>();
            for (Curve c : curves) {
                if (c.runIndex() == i) {
                    sizes.add(c.row().size());
                }
            }
            SortedSet<Long> shown = SizeChoice.shown(sizes, named);
            List<SvgPlot.Series> first = new ArrayList<>();
            List<SvgPlot.Series> rest = new ArrayList<>();
            for (Curve c : curves) {
                if (c.runIndex() == i) {
                    List<SvgPlot.Series> into = shown.contains(c.row().size()) ? first : rest;
                    into.add(series(c, Html.size(c.row().size()) + " B", into.size()));
                }
            }
            if (first.isEmpty()) {
                continue;
            }
            String label = runs.get(i).label();
            out.add(percentilePlot("percentiles-run" + (i + 1), "Latency percentiles, " + label + ": "
                    + (rest.isEmpty() ? "every size" : first.size() + " of " + sizes.size() + " sizes"), first));
            if (!rest.isEmpty()) {
                out.add(new OnDemand("percentiles-run" + (i + 1) + "-more", "Latency percentiles of " + label
                        + ": the other " + rest.size() + " sizes", List.of(percentilePlot("percentiles-run" + (i + 1)
                        + "-more", "Latency percentiles, " + label + ": the other " + rest.size() + " sizes", rest))));
            }
        }
        return out;
    }

    private static List<Curve> curves(List<PlotRun> runs) {
        List<Curve> curves = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            PlotRun pr = runs.get(i);
            for (Row row : RunPlots.sortedBySize(pr.run().rows())) {
                if (row instanceof Row.Latency lat && lat.histogram() != null) {
                    Histogram h;
                    try {
                        h = lat.histogram().decode();
                    } catch (RunFormatException e) {
                        throw new RunFormatException(pr.run().source() + ": row of size " + lat.size() + ": "
                                + e.getMessage());
                    }
                    curves.add(new Curve(pr, i, lat, LatencyCurve.points(h)));
                }
            }
        }
        return curves;
    }

    private static SvgPlot.Series series(Curve c, String label, int style) {
        List<SvgPlot.Point> pts = new ArrayList<>();
        for (LatencyCurve.Point p : c.points()) {
            pts.add(new SvgPlot.Point(p.x(), p.micros(), false,
                    label + ": " + Html.figure(p.percentile()) + "%, " + Html.figure(p.micros()) + " µs"));
        }
        return new SvgPlot.Series(label, style, pts);
    }

    private static SvgPlot percentilePlot(String id, String title, List<SvgPlot.Series> series) {
        return new SvgPlot(id, title, "percentile (axis 1/(1−p))", "latency", Scale.percentiles(),
                latencyAxis(series), series, List.of());
    }

    /** Linear from zero, or base 10 when the tail is more than {@link #LOG_RATIO} times the smallest value. */
    static Scale latencyAxis(List<SvgPlot.Series> series) {
        double max = RunPlots.maxY(series);
        double min = RunPlots.minPositiveY(series);
        if (min != Double.MAX_VALUE && max / min > LOG_RATIO) {
            return Scale.log10(min, max, Html::duration);
        }
        return Scale.linearFromZero(max * 1.04, Html::duration);
    }

    /**
     * Typical (duration mode: average) and 99.9% latency against size; present when a run has rows of two or
     * more sizes, or when a latency run has no histogram (so every latency run is in some plot).
     */
    public static Optional<SvgPlot> againstSize(List<PlotRun> runs) {
        List<SvgPlot.Series> series = new ArrayList<>();
        boolean sweep = false;
        boolean withoutHistogram = false;
        for (PlotRun pr : runs) {
            List<SvgPlot.Point> mid = new ArrayList<>();
            List<SvgPlot.Point> tail = new ArrayList<>();
            String midName = "typical";
            boolean histogram = false;
            for (Row row : RunPlots.sortedBySize(pr.run().rows())) {
                if (row instanceof Row.Latency lat) {
                    histogram |= lat.histogram() != null;
                    add(mid, lat.size(), lat.tTypical(), pr.label() + " typical");
                    add(tail, lat.size(), lat.p99_9(), pr.label() + " 99.9%");
                } else if (row instanceof Row.LatencyDuration d) {
                    midName = "average";
                    add(mid, d.size(), d.tAvg(), pr.label() + " average");
                }
            }
            sweep |= mid.size() > 1 || tail.size() > 1;
            withoutHistogram |= !mid.isEmpty() && !histogram;
            if (!mid.isEmpty()) {
                series.add(new SvgPlot.Series(pr.label() + " · " + midName, pr.style(), mid));
            }
            if (!tail.isEmpty()) {
                series.add(new SvgPlot.Series(pr.label() + " · 99.9%", pr.style() + SvgPlot.COLOUR_COUNT, tail));
            }
        }
        if (series.isEmpty() || !(sweep || withoutHistogram)) {
            return Optional.empty();
        }
        return Optional.of(new SvgPlot("latency-size", "Latency against message size (typical and 99.9%)",
                "message size (bytes, log2)", "latency", RunPlots.sizeAxis(series), latencyAxis(series), series,
                List.of()));
    }

    private static void add(List<SvgPlot.Point> pts, long size, Double v, String what) {
        if (v != null && v > 0) {
            pts.add(new SvgPlot.Point(size, v, false, what + ": " + Html.size(size) + " B, " + Html.figure(v) + " µs"));
        }
    }
}
