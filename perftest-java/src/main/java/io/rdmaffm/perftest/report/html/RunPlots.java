package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.DeviceInfo;
import io.rdmaffm.perftest.report.model.Row;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The plots of bandwidth runs: bandwidth (Gb/s, so the port rate and doctor's PCIe model can be drawn on the
 * same axis) and message rate against message size on a base-2 axis.
 */
public final class RunPlots {
    private RunPlots() {
    }

    /** A bandwidth curve whose top is below this fraction of its ceiling gets a second view scaled to the data. */
    public static final double SCALED_VIEW_BELOW = 0.25;

    /** Every plot for these runs: bandwidth and message rate, then latency ({@link LatencyPlots}). */
    public static List<PlotElement> all(List<PlotRun> runs) {
        return all(runs, Set.of());
    }

    /** As {@link #all(List)}, showing first the sizes of a sweep the user named (and a few of the others). */
    public static List<PlotElement> all(List<PlotRun> runs, Set<Long> named) {
        List<PlotElement> out = new ArrayList<>();
        bandwidth(runs).ifPresent(out::add);
        bandwidthScaled(runs).ifPresent(out::add);
        messageRate(runs).ifPresent(out::add);
        out.addAll(LatencyPlots.all(runs, named));
        out.addAll(TimeSeriesPlots.all(runs, named));
        return out;
    }

    /**
     * The bandwidth plot again, scaled to the data, where the highest point is below {@link #SCALED_VIEW_BELOW}
     * of the highest ceiling (0.6 Gb/s under a 10 Gb/s port on Soft-RoCE): on the ceiling's scale the curves lie
     * flat on the axis. The ceilings are off this scale; the caption names them.
     */
    public static Optional<SvgPlot> bandwidthScaled(List<PlotRun> runs) {
        List<SvgPlot.Series> series = bySize(runs, r -> r.gbps(r.bwAverage()), "Gb/s");
        List<SvgPlot.Reference> refs = references(runs);
        double top = maxY(series);
        SvgPlot.Reference ceiling = null;
        for (SvgPlot.Reference r : refs) {
            if (ceiling == null || r.y() > ceiling.y()) {
                ceiling = r;
            }
        }
        if (series.isEmpty() || ceiling == null || !(top > 0) || top >= ceiling.y() * SCALED_VIEW_BELOW) {
            return Optional.empty();
        }
        double shown = new BigDecimal(top).round(new MathContext(3)).doubleValue();
        return Optional.of(new SvgPlot("bandwidth-scaled", "Bandwidth scaled to the data: at most " + Html.figure(shown)
                + " Gb/s, " + Html.figure(Math.round(top / ceiling.y() * 1000) / 10.0) + "% of the " + ceiling.label()
                + " (off this scale)", "message size (bytes, log2)", "bandwidth (Gb/s)", sizeAxis(series),
                Scale.linearFromZero(top * 1.04, Html::figure), series, List.of()));
    }

    /** BW_average in Gb/s against size, with the port rate and PCIe model lines; empty without bandwidth rows. */
    public static Optional<SvgPlot> bandwidth(List<PlotRun> runs) {
        List<SvgPlot.Series> series = bySize(runs, r -> r.gbps(r.bwAverage()), "Gb/s");
        if (series.isEmpty()) {
            return Optional.empty();
        }
        List<SvgPlot.Reference> refs = references(runs);
        double top = maxY(series);
        for (SvgPlot.Reference r : refs) {
            top = Math.max(top, r.y());
        }
        return Optional.of(new SvgPlot("bandwidth", "Bandwidth (BW average) against message size",
                "message size (bytes, log2)", "bandwidth (Gb/s)", sizeAxis(series),
                Scale.linearFromZero(top * 1.04, Html::figure), series, refs));
    }

    /** MsgRate (Mpps) against size; empty without bandwidth rows. */
    public static Optional<SvgPlot> messageRate(List<PlotRun> runs) {
        List<SvgPlot.Series> series = bySize(runs, Row.Bandwidth::msgRateMpps, "Mpps");
        if (series.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new SvgPlot("msgrate", "Message rate against message size",
                "message size (bytes, log2)", "message rate (Mpps)", sizeAxis(series),
                Scale.linearFromZero(maxY(series) * 1.04, Html::figure), series, List.of()));
    }

    private static List<SvgPlot.Series> bySize(List<PlotRun> runs, Function<Row.Bandwidth, Double> figure,
            String unit) {
        List<SvgPlot.Series> out = new ArrayList<>();
        for (PlotRun pr : runs) {
            List<SvgPlot.Point> pts = new ArrayList<>();
            for (Row row : sortedBySize(pr.run().rows())) {
                if (row instanceof Row.Bandwidth bw) {
                    Double v = figure.apply(bw);
                    if (v != null && v >= 0) {
                        pts.add(new SvgPlot.Point(bw.size(), v, false,
                                pr.label() + ": " + Html.size(bw.size()) + " B, " + Html.figure(v) + " " + unit));
                    }
                }
            }
            if (!pts.isEmpty()) {
                out.add(new SvgPlot.Series(pr.label(), pr.style(), pts));
            }
        }
        return out;
    }

    static List<Row> sortedBySize(List<Row> rows) {
        List<Row> sorted = new ArrayList<>(rows);
        sorted.sort((a, b) -> Long.compare(a.size(), b.size()));
        return sorted;
    }

    /** A base-2 size axis spanning the series' x values. */
    public static Scale sizeAxis(List<SvgPlot.Series> series) {
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (SvgPlot.Series s : series) {
            for (SvgPlot.Point p : s.points()) {
                lo = Math.min(lo, p.x());
                hi = Math.max(hi, p.x());
            }
        }
        return Scale.log2Sizes(Math.max(1, lo), Math.max(1, hi));
    }

    static double maxY(List<SvgPlot.Series> series) {
        double top = 0;
        for (SvgPlot.Series s : series) {
            for (SvgPlot.Point p : s.points()) {
                top = Math.max(top, p.y());
            }
        }
        return top;
    }

    static double minPositiveY(List<SvgPlot.Series> series) {
        double lo = Double.MAX_VALUE;
        for (SvgPlot.Series s : series) {
            for (SvgPlot.Point p : s.points()) {
                if (p.y() > 0) {
                    lo = Math.min(lo, p.y());
                }
            }
        }
        return lo;
    }

    /**
     * The port rate and PCIe model lines of the runs' devices, one line per distinct value (devices sharing a
     * value are named together).
     */
    static List<SvgPlot.Reference> references(List<PlotRun> runs) {
        Map<Double, List<String>> port = new LinkedHashMap<>();
        Map<Double, List<String>> pcie = new LinkedHashMap<>();
        for (PlotRun pr : runs) {
            DeviceInfo d = pr.run().device();
            if (d == null || !pr.run().isBandwidth()) {
                continue;
            }
            if (d.portRateGbps() != null && d.portRateGbps() > 0) {
                addName(port, d.portRateGbps(), d.name());
            }
            if (d.pcie() != null && d.pcie().modelGbps() != null && d.pcie().modelGbps() > 0) {
                addName(pcie, d.pcie().modelGbps(), d.name());
            }
        }
        List<SvgPlot.Reference> out = new ArrayList<>();
        port.forEach((v, names) -> out.add(new SvgPlot.Reference("port-rate",
                "port rate " + String.join(", ", names) + ": " + Html.figure(v) + " Gb/s", v)));
        pcie.forEach((v, names) -> out.add(new SvgPlot.Reference("pcie-model",
                "PCIe model " + String.join(", ", names) + ": " + Html.figure(v) + " Gb/s", v)));
        return out;
    }

    private static void addName(Map<Double, List<String>> m, double v, String name) {
        List<String> names = m.computeIfAbsent(v, k -> new ArrayList<>());
        String n = name == null ? "?" : name;
        if (!names.contains(n)) {
            names.add(n);
        }
    }
}
