package io.rdmaffm.perftest.report.compare;

import io.rdmaffm.perftest.report.compare.Comparison.Line;
import io.rdmaffm.perftest.report.html.Html;
import io.rdmaffm.perftest.report.html.HtmlPage;
import io.rdmaffm.perftest.report.html.PlotElement;
import io.rdmaffm.perftest.report.html.PlotRun;
import io.rdmaffm.perftest.report.html.Provenance;
import io.rdmaffm.perftest.report.html.RunPlots;
import io.rdmaffm.perftest.report.html.SvgPlot;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The HTML form of a comparison: the ratio B/A per size ({@link RatioPlot}), then both sides' curves on one plot
 * per figure (A in the first colour, B in the second, repeats dashed), where the sides' setups differ, and the
 * table with the beyond-noise lines marked.
 */
public final class ComparePage {
    private ComparePage() {
    }

    /** The runs as the plots label them: {@code A: file}, {@code B: file}; a side's repeats get other dashes. */
    public static List<PlotRun> plotRuns(List<RunDocument> a, List<RunDocument> b) {
        List<PlotRun> out = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            out.add(new PlotRun("A: " + a.get(i).label(), i * SvgPlot.COLOUR_COUNT, a.get(i)));
        }
        for (int i = 0; i < b.size(); i++) {
            out.add(new PlotRun("B: " + b.get(i).label(), 1 + i * SvgPlot.COLOUR_COUNT, b.get(i)));
        }
        return out;
    }

    /**
     * @param lines the comparison
     * @param a side A's runs
     * @param b side B's runs
     * @return the HTML document
     */
    public static String render(List<Line> lines, List<RunDocument> a, List<RunDocument> b) {
        return render(lines, a, b, Comparison.DEFAULT_MIN_EFFECT);
    }

    /** As {@link #render(List, List, List)}, naming the minimum effect ({@code minEffect}, a fraction) used. */
    public static String render(List<Line> lines, List<RunDocument> a, List<RunDocument> b, double minEffect) {
        StringBuilder body = new StringBuilder();
        List<PlotElement> plots = new ArrayList<>();
        RatioPlot.of(lines).ifPresent(plots::add);
        plots.addAll(RunPlots.all(plotRuns(a, b)));
        if (!plots.isEmpty()) {
            body.append("<h2 id=\"plots\">Plots</h2>\n<div class=\"plots\">\n");
            plots.forEach(p -> body.append(p.render()));
            body.append("</div>\n");
        }
        body.append("<h2 id=\"setup\">Setups</h2>\n").append(setupTable(a.get(0), b.get(0)));
        body.append("<h2 id=\"figures\">Figures</h2>\n<p class=\"note\">")
                .append(Html.esc(CompareText.noiseNote(lines, a.size(), b.size(), minEffect))).append("</p>\n");
        String precision = CompareText.precisionNote(a, b);
        if (precision != null) {
            body.append("<p class=\"note\">").append(Html.esc(precision)).append("</p>\n");
        }
        body.append(table(lines));
        String lead = "A: " + Html.esc(names(a)) + "<br>B: " + Html.esc(names(b))
                + "<br>Ratio B/A of the means. Made by <code>rdma-perftest compare</code>.";
        return HtmlPage.page("rdma-perftest compare", lead, body.toString());
    }

    /** The sides' files, comma-separated. */
    public static String names(List<RunDocument> runs) {
        List<String> n = new ArrayList<>();
        runs.forEach(r -> n.add(r.source()));
        return String.join(", ", n);
    }

    /** Provenance of the first run of each side, side by side; rows that differ are marked. */
    static String setupTable(RunDocument a, RunDocument b) {
        List<Provenance.Entry> ea = Provenance.entries(a);
        List<Provenance.Entry> eb = Provenance.entries(b);
        StringBuilder t = new StringBuilder("<div class=\"table-wrap\"><table class=\"setup\">\n<thead><tr>"
                + "<th class=\"text\"></th><th class=\"text\">A</th><th class=\"text\">B</th></tr></thead>\n<tbody>\n");
        for (int i = 0; i < Math.min(ea.size(), eb.size()); i++) {
            String va = ea.get(i).value();
            String vb = eb.get(i).value();
            boolean differs = !va.equals(vb) && !ea.get(i).term().equals("File") && !ea.get(i).term().equals("Date");
            t.append("<tr").append(differs ? " class=\"beyond\" data-differs=\"true\"" : "").append("><th class=\"text\">")
                    .append(Html.esc(ea.get(i).term())).append("</th><td class=\"text wrap\">")
                    .append(Html.esc(va).replace("\n", "<br>")).append("</td><td class=\"text wrap\">")
                    .append(Html.esc(vb).replace("\n", "<br>")).append("</td></tr>\n");
        }
        return t.append("</tbody></table></div>\n").toString();
    }

    private static String table(List<Line> lines) {
        StringBuilder t = new StringBuilder("<div class=\"table-wrap\"><table class=\"compare\">\n<thead><tr>"
                + "<th class=\"text\">test</th><th>bytes</th><th class=\"text\">metric</th><th class=\"text\">unit</th>"
                + "<th>A</th><th>B</th><th>B/A</th><th>A spread</th><th>B spread</th><th class=\"text\"></th>"
                + "</tr></thead>\n<tbody>\n");
        for (Line l : lines) {
            boolean beyond = l.verdict() == Comparison.Verdict.BEYOND_NOISE;
            t.append("<tr data-test=\"").append(Html.esc(l.test())).append("\" data-size=\"").append(l.size())
                    .append("\" data-metric=\"").append(l.metric().key()).append("\" data-verdict=\"")
                    .append(l.verdict().name().toLowerCase(Locale.ROOT).replace('_', '-')).append('"')
                    .append(beyond ? " class=\"beyond\"" : "").append('>');
            cell(t, "text", l.test());
            cell(t, null, Long.toString(l.size()));
            cell(t, "text", l.metric().label());
            cell(t, "text", l.unit());
            cell(t, null, CompareText.mean(l.a()));
            cell(t, null, CompareText.mean(l.b()));
            cell(t, null, l.ratio() == null ? "-" : String.format(Locale.ROOT, "%.3f", l.ratio()));
            cell(t, null, CompareText.spread(l.a()));
            cell(t, null, CompareText.spread(l.b()));
            cell(t, "text mark", CompareText.mark(l));
            t.append("</tr>\n");
        }
        return t.append("</tbody></table></div>\n").toString();
    }

    private static void cell(StringBuilder t, String cls, String text) {
        t.append("<td").append(cls == null ? "" : " class=\"" + cls + "\"").append('>').append(Html.esc(text))
                .append("</td>");
    }
}
