package io.rdmaffm.perftest.report.compare;

import io.rdmaffm.perftest.report.compare.Comparison.Line;
import io.rdmaffm.perftest.report.html.Html;
import io.rdmaffm.perftest.report.html.RunPlots;
import io.rdmaffm.perftest.report.html.Scale;
import io.rdmaffm.perftest.report.html.SvgPlot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The comparison itself as a plot: B/A per message size, one series per test and metric, with the line B = A.
 * The sides' own curves are on the other plots; this one shows where and by how much they differ.
 */
final class RatioPlot {
    private RatioPlot() {
    }

    /** Empty when no line has a ratio (one-sided lines only). */
    static Optional<SvgPlot> of(List<Line> lines) {
        Map<String, List<SvgPlot.Point>> bySeries = new LinkedHashMap<>();
        double top = 1;
        for (Line l : lines) {
            if (l.ratio() == null || !Double.isFinite(l.ratio())) {
                continue;
            }
            String label = l.test() + " " + l.metric().label();
            bySeries.computeIfAbsent(label, k -> new ArrayList<>()).add(new SvgPlot.Point(l.size(), l.ratio(), false,
                    label + ": " + Html.size(l.size()) + " B, B/A " + String.format(Locale.ROOT, "%.3f", l.ratio())
                            + (CompareText.mark(l).isEmpty() ? "" : " (" + CompareText.mark(l) + ")")));
            top = Math.max(top, l.ratio());
        }
        if (bySeries.isEmpty()) {
            return Optional.empty();
        }
        List<SvgPlot.Series> series = new ArrayList<>();
        int style = 0;
        for (Map.Entry<String, List<SvgPlot.Point>> e : bySeries.entrySet()) {
            List<SvgPlot.Point> pts = new ArrayList<>(e.getValue());
            pts.sort((p, q) -> Double.compare(p.x(), q.x()));
            series.add(new SvgPlot.Series(e.getKey(), style++, pts));
        }
        return Optional.of(new SvgPlot("ratio", "B/A per message size (1 = no difference)",
                "message size (bytes, log2)", "B/A", RunPlots.sizeAxis(series),
                Scale.linearFromZero(top * 1.04, Html::figure), series,
                List.of(new SvgPlot.Reference("equal", "B = A", 1))));
    }
}
