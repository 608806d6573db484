package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.Metric;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.util.List;

/** A run's rows as an HTML table: size, iterations and every metric of the row kind with its unit. */
public final class RowTable {
    private RowTable() {
    }

    /** The table, or a paragraph saying the run has no rows. */
    public static String html(RunDocument run) {
        if (run.rows().isEmpty()) {
            return "<p class=\"note\">No rows: the run ended before a measurement.</p>\n";
        }
        Row first = run.rows().get(0);
        List<Metric> metrics = first.metrics();
        StringBuilder b = new StringBuilder("<div class=\"table-wrap\"><table class=\"rows\">\n<thead><tr>"
                + "<th>bytes</th><th>iterations</th>");
        for (Metric m : metrics) {
            b.append("<th>").append(Html.esc(m.label())).append(" <span class=\"unit\">")
                    .append(Html.esc(first.unit(m))).append("</span></th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (Row r : run.rows()) {
            b.append("<tr><td>").append(r.size()).append("</td><td>").append(r.iterations()).append("</td>");
            for (Metric m : metrics) {
                b.append("<td>").append(r.getClass() == first.getClass() ? Html.figure(r.value(m)) : "-")
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody></table></div>\n").toString();
    }
}
