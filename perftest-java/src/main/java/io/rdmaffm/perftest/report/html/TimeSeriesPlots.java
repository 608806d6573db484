package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.TimeSeries;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One plot per row whose time series can show something: the largest latency or the bandwidth (Gb/s, as every
 * bandwidth on the page) per interval against time from the row's first post. The intervals are merged until
 * each holds what the run can resolve: a run of a few completions (a short sweep step, where one completion may
 * cover the whole run) gets as many bins as it had intervals with a completion, not a flat line with one spike.
 * A row with fewer than {@value #MIN_RESOLVED} such intervals has nothing to show over time: it is left out and
 * named in a note. A bin without any sample breaks the line. Sweeps show the sizes {@link SizeChoice} picks; the
 * others are on demand.
 */
public final class TimeSeriesPlots {
    /** A series needs at least this many intervals with a completion (bandwidth) or a sample (latency). */
    public static final int MIN_RESOLVED = 3;

    private TimeSeriesPlots() {
    }

    /** A row's series as plotted: the merged bins ({@code null}: no sample), each {@code intervalMs} long. */
    record Binned(double intervalMs, double startOffsetMs, List<Double> values) {
    }

    /** The time series plots, in run and size order, then a note naming the rows left out. */
    public static List<PlotElement> all(List<PlotRun> runs, Set<Long> named) {
        List<PlotElement> out = new ArrayList<>();
        Map<String, List<String>> omitted = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) {
            PlotRun pr = runs.get(i);
            Map<Long, SvgPlot> bySize = new LinkedHashMap<>();
            for (Row row : RunPlots.sortedBySize(pr.run().rows())) {
                TimeSeries ts = row.timeSeries();
                if (ts == null || ts.presentCount() == 0) {
                    continue;
                }
                Binned b = bin(ts);
                if (b == null) {
                    omitted.computeIfAbsent(pr.label(), k -> new ArrayList<>()).add(Html.size(row.size()));
                } else {
                    bySize.put(row.size(), plot(pr, i, row, ts, b));
                }
            }
            SortedSet<Long> shown = SizeChoice.shown(new TreeSet<>(bySize.keySet()), named);
            List<SvgPlot> rest = new ArrayList<>();
            bySize.forEach((size, plot) -> {
                if (shown.contains(size)) {
                    out.add(plot);
                } else {
                    rest.add(plot);
                }
            });
            if (!rest.isEmpty()) {
                out.add(new OnDemand("timeseries-" + (i + 1) + "-more", "Time series of " + pr.label() + ": the other "
                        + rest.size() + " sizes", rest));
            }
        }
        if (!omitted.isEmpty()) {
            List<String> items = new ArrayList<>();
            omitted.forEach((run, sizes) -> items.add(run + ": " + String.join(", ", sizes) + " B"));
            out.add(new PlotNote("timeseries-omitted", "Time series not drawn, as the run cannot resolve anything "
                    + "over time there (fewer than " + MIN_RESOLVED + " intervals with a completion or sample; "
                    + "a few completions covered the whole run):", items));
        }
        return out;
    }

    /**
     * Merges a series' intervals by the ratio of its intervals to those that carry information (a completion
     * for bandwidth, a sample for latency); null when fewer than {@link #MIN_RESOLVED} carry any. Bandwidth bins
     * are the mean of their intervals, latency bins the largest.
     */
    static Binned bin(TimeSeries ts) {
        boolean latency = isLatency(ts);
        List<Double> v = ts.values();
        int informative = 0;
        for (Double x : v) {
            if (x != null && (latency || x > 0)) {
                informative++;
            }
        }
        if (informative < MIN_RESOLVED) {
            return null;
        }
        int k = Math.max(1, v.size() / informative);
        List<Double> out = new ArrayList<>();
        for (int from = 0; from < v.size(); from += k) {
            double sum = 0;
            double max = Double.NEGATIVE_INFINITY;
            int n = 0;
            for (int j = from; j < Math.min(v.size(), from + k); j++) {
                Double x = v.get(j);
                if (x != null) {
                    sum += x;
                    max = Math.max(max, x);
                    n++;
                }
            }
            out.add(n == 0 ? null : latency ? max : sum / n);
        }
        return new Binned(ts.intervalMs() * k, ts.startOffsetMs(), out);
    }

    static boolean isLatency(TimeSeries ts) {
        return "usec".equals(ts.unit());
    }

    /** Gb/s in one unit of a bandwidth series: perftest's MB is 2^20 bytes, Gb is 10^9 bits. */
    static double toGbps(String unit) {
        return "Gb/sec".equals(unit) ? 1 : 8.0 * 0x100000 / 1e9;
    }

    private static SvgPlot plot(PlotRun pr, int runIndex, Row row, TimeSeries ts, Binned b) {
        boolean latency = isLatency(ts);
        String what = latency ? "largest latency" : "bandwidth";
        double scale = latency ? 1 : toGbps(ts.unit());
        List<SvgPlot.Point> pts = new ArrayList<>();
        boolean gap = false;
        double maxY = 0;
        for (int k = 0; k < b.values().size(); k++) {
            Double v = b.values().get(k);
            if (v == null) {
                gap = true;
                continue;
            }
            double y = v * scale;
            double t = b.startOffsetMs() + k * b.intervalMs();
            pts.add(new SvgPlot.Point(t, y, gap, pr.label() + ": " + Html.figure(t) + " ms, "
                    + (latency ? Html.duration(y) : Html.figure(y) + " Gb/s")));
            maxY = Math.max(maxY, y);
            gap = false;
        }
        double end = b.startOffsetMs() + b.values().size() * b.intervalMs();
        String label = pr.label() + ", " + Html.size(row.size()) + " B";
        List<SvgPlot.Series> series = List.of(new SvgPlot.Series(label, pr.style(), pts));
        return new SvgPlot("timeseries-" + (runIndex + 1) + "-" + row.size(),
                "Time series: " + what + " per " + Html.figure(b.intervalMs()) + " ms, " + label,
                "time from the first post (ms)", latency ? what : what + " (Gb/s)", Scale.linearFromZero(end,
                Html::figure), Scale.linearFromZero(maxY * 1.04, latency ? Html::duration : Html::figure), series,
                List.of());
    }
}
