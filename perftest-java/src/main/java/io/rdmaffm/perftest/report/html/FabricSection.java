package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.FabricDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Fabric documents ({@code fabric --json}) in the report: busbw against size, one series per pattern and rail
 * (a point per size: a sweep's document draws a line, single-size documents of the same pattern join theirs), the expected busbw as a reference
 * line, then per document a table of the counters that moved on each host and its verdicts.
 */
public final class FabricSection {
    private FabricSection() {
    }

    /** The plot of busbw against size, or null when no document has a busbw. */
    static SvgPlot busbw(List<FabricDocument> docs) {
        Map<String, List<SvgPlot.Point>> bySeries = new LinkedHashMap<>();
        Map<Double, String> expected = new LinkedHashMap<>();
        double lo = Double.MAX_VALUE;
        double hi = 0;
        double top = 0;
        for (FabricDocument d : docs) {
            for (FabricDocument.Figure f : d.figures()) {
                if (f.expectedGBps() != null) {
                    expected.putIfAbsent(f.expectedGBps(), "expected busbw " + Html.figure(f.expectedGBps()) + " GB/s");
                    top = Math.max(top, f.expectedGBps());
                }
                if (f.busbwGBps() == null) {
                    continue;
                }
                // A sweep's sizes are one series (a line); a rotating incast's targets each their own.
                String label = d.pattern() + (hasRails(docs) ? " rail " + f.rail() : "") + (f.target() == null ? ""
                        : " to " + f.target());
                bySeries.computeIfAbsent(label, k -> new ArrayList<>()).add(new SvgPlot.Point(f.bytes(),
                        f.busbwGBps(), false, String.format(Locale.ROOT, "%s %d B: busbw %s GB/s, algbw %s GB/s, "
                                + "t %s us (%s)", label, f.bytes(), Html.figure(f.busbwGBps()),
                                Html.figure(f.algbwGBps()), Html.figure(f.timeUs()), d.source())));
                lo = Math.min(lo, f.bytes());
                hi = Math.max(hi, f.bytes());
                top = Math.max(top, f.busbwGBps());
            }
        }
        if (bySeries.isEmpty()) {
            return null;
        }
        List<SvgPlot.Series> series = new ArrayList<>();
        int style = 0;
        for (Map.Entry<String, List<SvgPlot.Point>> e : bySeries.entrySet()) {
            List<SvgPlot.Point> pts = new ArrayList<>(e.getValue());
            pts.sort((a, b) -> Double.compare(a.x(), b.x()));
            series.add(new SvgPlot.Series(e.getKey(), style++, pts));
        }
        List<SvgPlot.Reference> refs = new ArrayList<>();
        expected.forEach((v, label) -> refs.add(new SvgPlot.Reference("expected-busbw", label, v)));
        return new SvgPlot("fabric-busbw", "Bus bandwidth (nccl-tests' busbw) against size", "size (-s)",
                "busbw (GB/s, 10^9 B/s)", Scale.log2Sizes(lo, hi), Scale.linearFromZero(top * 1.04, Html::figure),
                series, refs);
    }

    private static boolean hasRails(List<FabricDocument> docs) {
        return docs.stream().flatMap(d -> d.figures().stream()).anyMatch(f -> f.rail() > 0);
    }

    /** One document's counters (hosts down, the counters that moved on any host across) and verdicts. */
    static String html(String id, FabricDocument d) {
        StringBuilder b = new StringBuilder();
        b.append("<section class=\"fabric\" id=\"").append(Html.esc(id)).append("\" data-pattern=\"")
                .append(Html.esc(d.pattern())).append("\">\n<h3>").append(Html.esc(d.pattern() + ": " + d.source()))
                .append("</h3>\n");
        TreeSet<String> moved = new TreeSet<>();
        for (FabricDocument.Rank r : d.ranks()) {
            r.deltas().forEach((k, v) -> {
                if (v != null && v != 0) {
                    moved.add(k);
                }
            });
        }
        b.append("<p class=\"note\">Counters after − before on each host; – where the host could not read it, ")
                .append("absent counters not shown.</p>\n<div class=\"table-wrap\"><table class=\"counters\">\n")
                .append("<tr><th class=\"text\">host</th>");
        for (String c : moved) {
            b.append("<th>").append(Html.esc(c)).append("</th>");
        }
        b.append("<th>absent</th></tr>\n");
        for (FabricDocument.Rank r : d.ranks()) {
            b.append("<tr data-host=\"").append(Html.esc(r.where())).append("\"><th class=\"text\">")
                    .append(Html.esc(r.where())).append("</th>");
            for (String c : moved) {
                Double v = r.deltas().get(c);
                b.append("<td data-counter=\"").append(Html.esc(c)).append("\">")
                        .append(v == null ? "–" : Html.figure(v)).append("</td>");
            }
            b.append("<td>").append(r.absent()).append("</td></tr>\n");
        }
        b.append("</table></div>\n<ul class=\"verdicts\">\n");
        for (FabricDocument.Verdict v : d.verdicts()) {
            b.append("<li data-level=\"").append(Html.esc(v.level())).append("\">")
                    .append(Html.esc(v.level().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + v.rule() + ": "
                            + v.message())).append("</li>\n");
        }
        return b.append("</ul>\n</section>\n").toString();
    }
}
