package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.TimeSeries;
import java.util.ArrayList;
import java.util.List;

/**
 * One plot per row that recorded a time series: the largest latency or the bandwidth per interval against time
 * from the row's first post. An interval without a sample breaks the line.
 */
public final class TimeSeriesPlots {
    private TimeSeriesPlots() {
    }

    /** The time series plots, in run and size order. */
    public static List<SvgPlot> all(List<PlotRun> runs) {
        List<SvgPlot> out = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            PlotRun pr = runs.get(i);
            for (Row row : RunPlots.sortedBySize(pr.run().rows())) {
                TimeSeries ts = row.timeSeries();
                if (ts != null && ts.presentCount() > 0) {
                    out.add(plot(pr, i, row, ts));
                }
            }
        }
        return out;
    }

    private static SvgPlot plot(PlotRun pr, int runIndex, Row row, TimeSeries ts) {
        boolean latency = "usec".equals(ts.unit());
        String what = latency ? "largest latency" : "bandwidth";
        String unit = latency ? "µs" : ts.unit() == null ? "" : ts.unit();
        List<SvgPlot.Point> pts = new ArrayList<>();
        boolean gap = false;
        double maxY = 0;
        for (int k = 0; k < ts.values().size(); k++) {
            Double v = ts.values().get(k);
            if (v == null) {
                gap = true;
                continue;
            }
            double t = ts.startMs(k);
            pts.add(new SvgPlot.Point(t, v, gap, pr.label() + ": " + Html.figure(t) + " ms, " + Html.figure(v) + " "
                    + unit));
            maxY = Math.max(maxY, v);
            gap = false;
        }
        double end = ts.startMs(ts.values().size());
        String label = pr.label() + ", " + Html.size(row.size()) + " B";
        List<SvgPlot.Series> series = List.of(new SvgPlot.Series(label, pr.style(), pts));
        return new SvgPlot("timeseries-" + (runIndex + 1) + "-" + row.size(),
                "Time series: " + what + " per " + Html.figure(ts.intervalMs()) + " ms, " + label,
                "time from the first post (ms)", what + " (" + unit + ")", Scale.linearFromZero(end, Html::figure),
                Scale.linearFromZero(maxY * 1.04, Html::figure), series, List.of());
    }
}
