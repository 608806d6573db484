package io.rdmaffm.perftest.report.html;

import java.util.List;

/**
 * A note in the grid of plots, spanning it: what was left out and why, so a missing plot is never silent.
 *
 * @param id {@code data-note}
 * @param text the sentence before the list
 * @param items what was left out, one entry each
 */
public record PlotNote(String id, String text, List<String> items) implements PlotElement {
    public PlotNote {
        items = List.copyOf(items);
    }

    @Override
    public String render() {
        StringBuilder b = new StringBuilder();
        b.append("<div class=\"note plot-note\" data-note=\"").append(Html.esc(id)).append("\" data-items=\"")
                .append(items.size()).append("\">").append(Html.esc(text));
        if (!items.isEmpty()) {
            b.append(' ').append(Html.esc(String.join("; ", items))).append('.');
        }
        return b.append("</div>\n").toString();
    }
}
