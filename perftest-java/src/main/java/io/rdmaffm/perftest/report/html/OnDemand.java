package io.rdmaffm.perftest.report.html;

import java.util.List;

/**
 * Plots kept out of the first view: a collapsed {@code <details data-more="ID">} spanning the grid, whose summary
 * says what opening it shows. No script is needed (the page's policy forbids scripts).
 *
 * @param id {@code data-more}
 * @param summary what the element holds, e.g. "Latency percentiles of the other 20 sizes"
 * @param plots the plots inside
 */
public record OnDemand(String id, String summary, List<SvgPlot> plots) implements PlotElement {
    public OnDemand {
        plots = List.copyOf(plots);
    }

    @Override
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("<details class=\"more\" data-more=\"").append(Html.esc(id)).append("\" data-plots=\"")
                .append(plots.size()).append("\">\n<summary>").append(Html.esc(summary)).append("</summary>\n")
                .append("<div class=\"plots\">\n");
        for (SvgPlot p : plots) {
            b.append(p.render());
        }
        return b.append("</div>\n</details>\n").toString();
    }
}
