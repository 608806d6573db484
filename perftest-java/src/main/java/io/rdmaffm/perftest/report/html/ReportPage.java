package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.FabricDocument;
import io.rdmaffm.perftest.report.model.MatrixDocument;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code rdma-perftest report}: the runs' plots (one set, runs overlaid), then per run its provenance and its
 * rows. The output depends only on the documents (no timestamp of its own), so the same runs give the same
 * bytes.
 */
public final class ReportPage {
    private ReportPage() {
    }

    /** Labels for the runs: file names, made unique by a number where two files share a name. */
    public static List<PlotRun> label(List<RunDocument> runs) {
        List<PlotRun> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (int i = 0; i < runs.size(); i++) {
            String label = runs.get(i).label();
            String unique = label;
            for (int n = 2; !seen.add(unique); n++) {
                unique = label + " (" + n + ")";
            }
            out.add(new PlotRun(unique, i, runs.get(i)));
        }
        return out;
    }

    /** A title naming the tests, e.g. {@code "RDMA_Write_BW_Test, Send_Latency_Test"}. */
    public static String defaultTitle(List<RunDocument> runs) {
        Set<String> tests = new LinkedHashSet<>();
        for (RunDocument r : runs) {
            tests.add(r.testName());
        }
        return "rdma-perftest report: " + String.join(", ", tests);
    }

    /**
     * @param title the heading, or null for {@link #defaultTitle}
     * @param runs at least one run
     * @return the HTML document
     */
    public static String render(String title, List<RunDocument> runs) {
        return render(title, runs, Set.of());
    }

    /**
     * As {@link #render(String, List)}, with the sizes of a sweep to show first ({@code report --sizes}).
     *
     * @param named message sizes whose percentile curves and time series are drawn at first (besides the smallest,
     *        a middle and the largest size); the others are on demand
     */
    public static String render(String title, List<RunDocument> runs, Set<Long> named) {
        return render(title, runs, named, List.of());
    }

    /**
     * As {@link #render(String, List, Set)}, with matrix documents drawn as heat maps before the runs.
     *
     * @param matrices matrix documents ({@code rdma-ffm matrix --json}); runs may be empty when there is one
     */
    public static String render(String title, List<RunDocument> runs, Set<Long> named,
            List<MatrixDocument> matrices) {
        return render(title, runs, named, matrices, List.of());
    }

    /**
     * As {@link #render(String, List, Set, List)}, with fabric documents: busbw against size, then each one's
     * counters per host and verdicts, after the matrices.
     *
     * @param fabrics fabric documents ({@code rdma-perftest fabric --json}); runs may be empty when there is one
     */
    public static String render(String title, List<RunDocument> runs, Set<Long> named,
            List<MatrixDocument> matrices, List<FabricDocument> fabrics) {
        if (runs.isEmpty() && matrices.isEmpty() && fabrics.isEmpty()) {
            throw new IllegalArgumentException("no runs to report");
        }
        StringBuilder matrixPart = new StringBuilder();
        if (!matrices.isEmpty()) {
            matrixPart.append("<h2 id=\"matrices\">Matrix</h2>\n");
            for (int i = 0; i < matrices.size(); i++) {
                matrixPart.append(MatrixHeatMap.html("matrix-" + (i + 1), matrices.get(i)));
            }
        }
        if (!fabrics.isEmpty()) {
            matrixPart.append("<h2 id=\"fabric\">Fabric</h2>\n");
            SvgPlot busbw = FabricSection.busbw(fabrics);
            if (busbw != null) {
                matrixPart.append("<div class=\"plots\">\n").append(busbw.render()).append("</div>\n");
            }
            for (int i = 0; i < fabrics.size(); i++) {
                matrixPart.append(FabricSection.html("fabric-" + (i + 1), fabrics.get(i)));
            }
        }
        if (runs.isEmpty()) {
            String what = matrices.isEmpty() ? "" : matrices.size() + (matrices.size() == 1 ? " matrix" : " matrices")
                    + ". Bandwidth in Gb/s (10<sup>9</sup> bit/s). ";
            if (!fabrics.isEmpty()) {
                what += fabrics.size() + (fabrics.size() == 1 ? " fabric run" : " fabric runs") + ": busbw in GB/s"
                        + " (10<sup>9</sup> B/s, as nccl-tests). ";
            }
            return HtmlPage.page(title == null ? "rdma-perftest report: " + (matrices.isEmpty() ? "fabric" : "matrix")
                    : title, what + "Made by <code>rdma-perftest report</code>.", matrixPart.toString());
        }
        List<PlotRun> labelled = label(runs);
        List<PlotElement> plots = RunPlots.all(labelled, named);
        StringBuilder body = new StringBuilder();
        body.append("<nav>\n<ul>\n");
        if (!plots.isEmpty()) {
            body.append("<li><a href=\"#plots\">Plots</a></li>\n");
        }
        for (int i = 0; i < labelled.size(); i++) {
            body.append("<li><a href=\"#run-").append(i + 1).append("\">").append(Html.esc(labelled.get(i).label()))
                    .append("</a> — ").append(Html.esc(runs.get(i).testName())).append("</li>\n");
        }
        body.append("</ul>\n</nav>\n").append(matrixPart);
        if (!plots.isEmpty()) {
            body.append("<h2 id=\"plots\">Plots</h2>\n<div class=\"plots\">\n");
            for (PlotElement p : plots) {
                body.append(p.render());
            }
            body.append("</div>\n");
        } else {
            body.append("<p class=\"note\">Nothing to plot: the runs have no rows.</p>\n");
        }
        body.append("<h2 id=\"runs\">Runs</h2>\n<div class=\"runs\">\n");
        for (int i = 0; i < labelled.size(); i++) {
            RunDocument run = runs.get(i);
            body.append("<section class=\"run\" id=\"run-").append(i + 1).append("\" data-run=\"")
                    .append(Html.esc(labelled.get(i).label())).append("\">\n<h3>").append(Html.esc(labelled.get(i).label()))
                    .append("</h3>\n").append(Provenance.html(run)).append(RowTable.html(run)).append("</section>\n");
        }
        body.append("</div>\n");
        String lead = runs.size() + (runs.size() == 1 ? " run" : " runs")
                + ". Bandwidth is plotted in Gb/s (10<sup>9</sup> bit/s; perftest's MB is 2<sup>20</sup> bytes); "
                + "latency in ns, µs, ms or s as each axis label says. Made by <code>rdma-perftest report</code>.";
        return HtmlPage.page(title == null ? defaultTitle(runs) : title, lead, body.toString());
    }
}
