package io.rdmaffm.perftest.report.html;

import io.rdmaffm.perftest.report.model.MatrixDocument;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A matrix document as a heat map: an n×n table of endpoints, servers down, clients across; each tested cell is
 * shaded by its bandwidth as a fraction of the matrix's best (darker: faster) and shows bandwidth and latency.
 * Flagged cells carry ⚑ and a thick outline, failed ones ✗; a cell's tooltip says which rule it broke and the
 * matrix's reading of the cause. Every cell is a {@code <td class="cell" data-server data-client data-status>}
 * ({@code self} on the diagonal, {@code untested} where no rail test ran), so tests read what was drawn.
 */
public final class MatrixHeatMap {
    private MatrixHeatMap() {
    }

    /** @return the section of the page for one matrix */
    public static String html(String id, MatrixDocument m) {
        Map<String, MatrixDocument.Pair> byCell = new HashMap<>();
        double best = m.bestBwGbps() == null ? 0 : m.bestBwGbps();
        for (MatrixDocument.Pair p : m.pairs()) {
            byCell.put(p.server() + "\n" + p.client(), p);
            if (p.bwGbps() != null) {
                best = Math.max(best, p.bwGbps());
            }
        }
        List<String> ends = m.endpoints();
        StringBuilder b = new StringBuilder();
        b.append("<section class=\"matrix\" id=\"").append(Html.esc(id)).append("\">\n<h3>")
                .append(Html.esc(m.source())).append("</h3>\n<p class=\"note\">Servers down, clients across. "
                        + "Shade: bandwidth as a fraction of the best (").append(Html.figure(best))
                .append(" Gb/s). ⚑ flagged, ✗ failed; hover a cell for the rule and the cause.</p>\n")
                .append("<div class=\"table-wrap\"><table class=\"heatmap\" data-n=\"").append(ends.size())
                .append("\">\n<tr><th class=\"text\">server \\ client</th>");
        for (String c : ends) {
            b.append("<th class=\"text\">").append(Html.esc(c)).append("</th>");
        }
        b.append("</tr>\n");
        for (String s : ends) {
            b.append("<tr><th class=\"text\">").append(Html.esc(s)).append("</th>");
            for (String c : ends) {
                cell(b, s, c, s.equals(c) ? null : byCell.get(s + "\n" + c), best);
            }
            b.append("</tr>\n");
        }
        b.append("</table></div>\n");
        badPairs(b, m);
        return b.append("</section>\n").toString();
    }

    /** The flagged and failed pairs as a list under the table: what the tooltips say, also in print. */
    private static void badPairs(StringBuilder b, MatrixDocument m) {
        StringBuilder items = new StringBuilder();
        for (MatrixDocument.Pair p : m.pairs()) {
            if (!p.status().equals("FLAGGED") && !p.status().equals("FAILED")) {
                continue;
            }
            items.append("<li data-status=\"").append(Html.esc(p.status())).append("\">")
                    .append(Html.esc(p.server() + " → " + p.client() + ": " + p.status().toLowerCase(Locale.ROOT)));
            for (String flag : p.flags()) {
                items.append("; ").append(Html.esc(flag));
            }
            if (p.cause() != null) {
                items.append("; cause: ").append(Html.esc(p.cause()));
            }
            items.append("</li>\n");
        }
        if (!items.isEmpty()) {
            b.append("<ul class=\"matrix-bad\">\n").append(items).append("</ul>\n");
        }
    }

    private static void cell(StringBuilder b, String server, String client, MatrixDocument.Pair p, double best) {
        String status = server.equals(client) ? "self" : p == null ? "untested" : p.status();
        b.append("<td class=\"cell\" data-server=\"").append(Html.esc(server)).append("\" data-client=\"")
                .append(Html.esc(client)).append("\" data-status=\"").append(Html.esc(status)).append('"');
        if (p == null) {
            b.append(">").append(server.equals(client) ? "" : "·").append("</td>");
            return;
        }
        if (p.bwGbps() != null && best > 0) {
            // white to the project's blue (#0072B2) by the fraction of the best; text turns white on dark cells
            double f = Math.max(0, Math.min(1, p.bwGbps() / best));
            b.append(" style=\"background:").append(shade(f)).append(f > 0.6 ? ";color:#fff" : "").append('"');
        }
        StringBuilder tip = new StringBuilder(server + " → " + client + ": " + status);
        for (String flag : p.flags()) {
            tip.append("; ").append(flag);
        }
        if (p.cause() != null) {
            tip.append("; cause: ").append(p.cause());
        }
        b.append(" title=\"").append(Html.esc(tip.toString())).append("\">");
        String mark = switch (p.status()) {
            case "FLAGGED" -> "<span class=\"mark\">⚑</span> ";
            case "FAILED" -> "<span class=\"mark\">✗</span> ";
            default -> "";
        };
        b.append(mark);
        b.append(p.bwGbps() == null ? "no figures" : Html.figure(p.bwGbps()) + " Gb/s");
        if (p.latUsec() != null) {
            b.append("<br><small>").append(Html.duration(p.latUsec())).append("</small>");
        }
        b.append("</td>");
    }

    /** A colour between white (0) and #0072B2 (1). */
    static String shade(double f) {
        int r = (int) Math.round(255 + (0x00 - 255) * f);
        int g = (int) Math.round(255 + (0x72 - 255) * f);
        int bl = (int) Math.round(255 + (0xB2 - 255) * f);
        return String.format(Locale.ROOT, "#%02x%02x%02x", r, g, bl);
    }
}
