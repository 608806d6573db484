package io.rdmaffm.perftest.report.html;

import java.util.ArrayList;
import java.util.List;

/**
 * One plot as inline SVG inside a {@code <figure>}, with an HTML legend. Every series is a
 * {@code <g class="series" data-series="LABEL" data-points="N">} holding its line and one {@code <circle>} per
 * point (with a {@code <title>} tooltip); every horizontal reference line is a
 * {@code <g class="reference" data-reference="KIND" data-value="Y">}; the {@code <svg>} carries
 * {@code data-x-scale}, {@code data-y-scale} and {@code data-series-count}, so tests and scripts can read what
 * was drawn without parsing geometry.
 */
public final class SvgPlot implements PlotElement {
    /** Okabe-Ito colours: distinguishable with the common colour-vision deficiencies, and in grey print. */
    static final String[] COLOURS = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000"};
    /** Styles {@code s} and {@code s + COLOUR_COUNT} share a colour and differ in dash pattern. */
    public static final int COLOUR_COUNT = COLOURS.length;
    private static final String[] DASHES = {"", "7 4", "2 3"};
    private static final int W = 640;
    private static final int H = 360;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 14;
    private static final int BOTTOM = 50;

    /**
     * @param x data x
     * @param y data y
     * @param breakBefore the line does not join this point to the previous one (a gap in a time series)
     * @param title the tooltip
     */
    public record Point(double x, double y, boolean breakBefore, String title) {
    }

    /**
     * @param label legend text and {@code data-series}
     * @param style colour and dash index (colours cycle, then dashes)
     * @param points in drawing order
     */
    public record Series(String label, int style, List<Point> points) {
        public Series {
            points = List.copyOf(points);
        }
    }

    /**
     * @param kind {@code data-reference}, e.g. {@code port-rate} or {@code pcie-model}
     * @param label the text on the line
     * @param y the value
     */
    public record Reference(String kind, String label, double y) {
    }

    private final String id;
    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Scale xScale;
    private final Scale yScale;
    private final List<Series> series;
    private final List<Reference> references;

    /**
     * @param id the figure's {@code data-plot} and element id stem
     * @param title the caption
     * @param xLabel x axis label with unit
     * @param yLabel y axis label with unit
     * @param xScale x axis
     * @param yScale y axis
     * @param series what to draw
     * @param references horizontal lines
     */
    public SvgPlot(String id, String title, String xLabel, String yLabel, Scale xScale, Scale yScale,
                   List<Series> series, List<Reference> references) {
        this.id = id;
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.xScale = xScale;
        this.yScale = yScale;
        this.series = List.copyOf(series);
        this.references = List.copyOf(references);
    }

    public String id() {
        return id;
    }

    public List<Series> series() {
        return series;
    }

    /** @return the {@code <figure>} element */
    @Override
    public String render() {
        StringBuilder b = new StringBuilder(4096);
        b.append("<figure class=\"plot\" data-plot=\"").append(Html.esc(id)).append("\">\n");
        b.append("<figcaption id=\"").append(Html.esc(id)).append("-title\">").append(Html.esc(title))
                .append("</figcaption>\n");
        b.append("<svg viewBox=\"0 0 ").append(W).append(' ').append(H)
                .append("\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-labelledby=\"")
                .append(Html.esc(id)).append("-title\" data-x-scale=\"").append(xScale.kind())
                .append("\" data-y-scale=\"").append(yScale.kind()).append("\" data-series-count=\"")
                .append(series.size()).append("\">\n");
        axes(b);
        List<Reference> sorted = new ArrayList<>(references);
        sorted.sort((r1, r2) -> Double.compare(r2.y(), r1.y()));
        double lastLabel = Double.NEGATIVE_INFINITY;
        for (Reference r : sorted) {
            // A label goes above its line, or below it when the line above left no room.
            boolean below = yScale.accepts(r.y()) && py(r.y()) - lastLabel < 20;
            reference(b, r, below);
            lastLabel = yScale.accepts(r.y()) ? py(r.y()) + (below ? 17 : 0) : lastLabel;
        }
        for (Series s : series) {
            series(b, s);
        }
        b.append("</svg>\n");
        legend(b);
        b.append("</figure>\n");
        return b.toString();
    }

    private double px(double v) {
        return LEFT + xScale.fraction(v) * (W - LEFT - RIGHT);
    }

    private double py(double v) {
        return H - BOTTOM - yScale.fraction(v) * (H - TOP - BOTTOM);
    }

    private void axes(StringBuilder b) {
        b.append("<g class=\"axes\">\n");
        for (Scale.Tick t : xScale.ticks()) {
            String x = Html.coord(px(t.value()));
            b.append("<line class=\"grid\" x1=\"").append(x).append("\" y1=\"").append(TOP).append("\" x2=\"")
                    .append(x).append("\" y2=\"").append(H - BOTTOM).append("\"/>");
            if (!t.label().isEmpty()) {
                // the last label ends at the frame's edge, so a long one ("99.999%") is not cut off
                String anchor = t.value() >= xScale.max() ? "end" : "middle";
                b.append("<text class=\"tick\" x=\"").append(x).append("\" y=\"").append(H - BOTTOM + 16)
                        .append("\" text-anchor=\"").append(anchor).append("\">").append(Html.esc(t.label()))
                        .append("</text>");
            }
            b.append('\n');
        }
        for (Scale.Tick t : yScale.ticks()) {
            String y = Html.coord(py(t.value()));
            b.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" y1=\"").append(y).append("\" x2=\"")
                    .append(W - RIGHT).append("\" y2=\"").append(y).append("\"/>");
            b.append("<text class=\"tick\" x=\"").append(LEFT - 6).append("\" y=\"")
                    .append(Html.coord(py(t.value()) + 4)).append("\" text-anchor=\"end\">").append(Html.esc(t.label()))
                    .append("</text>\n");
        }
        b.append("<rect class=\"frame\" x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"")
                .append(W - LEFT - RIGHT).append("\" height=\"").append(H - TOP - BOTTOM).append("\"/>\n");
        b.append("<text class=\"axis-label\" x=\"").append(Html.coord(LEFT + (W - LEFT - RIGHT) / 2.0))
                .append("\" y=\"").append(H - 10).append("\" text-anchor=\"middle\">").append(Html.esc(xLabel))
                .append("</text>\n");
        double cy = TOP + (H - TOP - BOTTOM) / 2.0;
        b.append("<text class=\"axis-label\" x=\"16\" y=\"").append(Html.coord(cy))
                .append("\" text-anchor=\"middle\" transform=\"rotate(-90 16 ").append(Html.coord(cy)).append(")\">")
                .append(Html.esc(yLabel)).append("</text>\n");
        b.append("</g>\n");
    }

    private void reference(StringBuilder b, Reference r, boolean labelBelow) {
        if (!yScale.accepts(r.y())) {
            return;
        }
        String y = Html.coord(py(r.y()));
        b.append("<g class=\"reference\" data-reference=\"").append(Html.esc(r.kind())).append("\" data-value=\"")
                .append(Html.figure(r.y())).append("\"><line x1=\"").append(LEFT).append("\" y1=\"").append(y)
                .append("\" x2=\"").append(W - RIGHT).append("\" y2=\"").append(y).append("\"/>");
        b.append("<text x=\"").append(W - RIGHT - 4).append("\" y=\"")
                .append(Html.coord(py(r.y()) + (labelBelow ? 15 : -4))).append("\" text-anchor=\"end\">")
                .append(Html.esc(r.label())).append("</text></g>\n");
    }

    private static String colour(int style) {
        return COLOURS[style % COLOURS.length];
    }

    /** The stroke-dasharray attribute of a style, or nothing for a solid line. */
    private static String dash(int style) {
        String d = DASHES[(style / COLOURS.length) % DASHES.length];
        return d.isEmpty() ? "" : " stroke-dasharray=\"" + d + "\"";
    }

    private void series(StringBuilder b, Series s) {
        List<Point> shown = new ArrayList<>();
        for (Point p : s.points()) {
            if (xScale.accepts(p.x()) && yScale.accepts(p.y())) {
                shown.add(p);
            }
        }
        b.append("<g class=\"series\" data-series=\"").append(Html.esc(s.label())).append("\" data-points=\"")
                .append(shown.size()).append("\" stroke=\"").append(colour(s.style())).append("\" fill=\"")
                .append(colour(s.style())).append("\">\n<path d=\"");
        boolean first = true;
        for (Point p : shown) {
            b.append(first || p.breakBefore() ? 'M' : 'L').append(Html.coord(px(p.x()))).append(' ')
                    .append(Html.coord(py(p.y())));
            first = false;
        }
        b.append("\" fill=\"none\"").append(dash(s.style())).append("/>\n");
        double r = shown.size() > 200 ? 1.2 : shown.size() > 60 ? 2 : 3;
        for (Point p : shown) {
            b.append("<circle cx=\"").append(Html.coord(px(p.x()))).append("\" cy=\"").append(Html.coord(py(p.y())))
                    .append("\" r=\"").append(Html.coord(r)).append("\"><title>").append(Html.esc(p.title()))
                    .append("</title></circle>\n");
        }
        b.append("</g>\n");
    }

    private void legend(StringBuilder b) {
        String swatch = "<svg class=\"swatch\" viewBox=\"0 0 28 10\" aria-hidden=\"true\"><line x1=\"1\" y1=\"5\" "
                + "x2=\"27\" y2=\"5\"";
        b.append("<ul class=\"legend\">");
        for (Series s : series) {
            b.append("<li data-legend=\"").append(Html.esc(s.label())).append("\">").append(swatch)
                    .append(" stroke=\"").append(colour(s.style())).append('"').append(dash(s.style()))
                    .append("/><circle cx=\"14\" cy=\"5\" r=\"3\" fill=\"").append(colour(s.style()))
                    .append("\"/></svg>").append(Html.esc(s.label())).append("</li>");
        }
        for (Reference r : references) {
            b.append("<li class=\"ref\" data-ref-kind=\"").append(Html.esc(r.kind())).append("\">").append(swatch)
                    .append("/></svg>").append(Html.esc(r.label())).append("</li>");
        }
        b.append("</ul>\n");
    }
}
