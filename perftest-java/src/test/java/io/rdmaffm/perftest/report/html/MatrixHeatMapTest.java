package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.model.MatrixDocument;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The matrix golden as a heat map: n×n cells, each with the verdict of its rail test, flagged ones marked. */
class MatrixHeatMapTest {
    private static final Pattern CELL = Pattern.compile("<td class=\"cell\" data-server=\"([^\"]+)\" "
            + "data-client=\"([^\"]+)\" data-status=\"([^\"]+)\"([^>]*)>(.*?)</td>");

    private static MatrixDocument golden() {
        Path p = Path.of("src/test/resources/cluster/matrix-golden.json");
        return MatrixDocument.of(p.toString(), MatrixDocument.parse(p));
    }

    @Test
    void everyPairOfEndpointsHasOneCellAndEveryRailTestItsVerdict() {
        MatrixDocument m = golden();
        assertEquals(List.of("a/mlx5_0", "b/mlx5_0", "c/mlx5_0"), m.endpoints());
        String html = MatrixHeatMap.html("matrix-1", m);
        assertTrue(html.contains("data-n=\"3\""));
        Map<String, String> status = new LinkedHashMap<>();
        Map<String, String> text = new LinkedHashMap<>();
        Matcher c = CELL.matcher(html);
        while (c.find()) {
            String key = c.group(1).charAt(0) + ">" + c.group(2).charAt(0);
            assertEquals(null, status.put(key, c.group(3)), "one cell per pair: " + key);
            text.put(key, c.group(5));
        }
        assertEquals(9, status.size(), "3 × 3 cells");
        assertEquals(Map.of("a>a", "self", "b>b", "self", "c>c", "self", "b>c", "OK", "c>a", "FAILED",
                "a>b", "FLAGGED", "b>a", "untested", "c>b", "untested", "a>c", "untested"), status);
        assertTrue(text.get("a>b").startsWith("<span class=\"mark\">⚑</span> 50 Gb/s<br><small>4.5 µs"),
                text.get("a>b"));
        assertTrue(text.get("c>a").startsWith("<span class=\"mark\">✗</span> no figures"), text.get("c>a"));
        assertTrue(text.get("b>c").startsWith("97.25 Gb/s"), "no mark on a good cell: " + text.get("b>c"));
        assertTrue(html.contains("title=\"a/mlx5_0 → b/mlx5_0: FLAGGED; bw 50.00 Gb/s &lt; 93% of best 97.25; "
                + "lat 4.50 us &gt; 2.1x best 1.90; cause: link or route between a and b\""), html);
    }

    @Test
    void theBadPairsAreListedUnderTheTable() {
        String html = MatrixHeatMap.html("m", golden());
        assertEquals(2, PlotsInHtml.count(html.substring(html.indexOf("<ul class=\"matrix-bad\">")), "<li "));
        assertTrue(html.contains("<li data-status=\"FAILED\">c/mlx5_0 → a/mlx5_0: failed; cause: host a (stalled)"
                + "</li>"), html);
    }

    @Test
    void theShadeDarkensWithBandwidth() {
        assertEquals("#ffffff", MatrixHeatMap.shade(0));
        assertEquals("#0072b2", MatrixHeatMap.shade(1));
        String html = MatrixHeatMap.html("m", golden());
        assertTrue(html.contains("data-client=\"c/mlx5_0\" data-status=\"OK\" style=\"background:#0072b2;color:#fff\""),
                "the best pair gets the full colour");
    }

    @Test
    void aReportOfOnlyAMatrixIsAPage() {
        String page = ReportPage.render(null, List.of(), Set.of(), List.of(golden()));
        assertTrue(page.contains("<h2 id=\"matrices\">Matrix</h2>"));
        assertEquals(1, PlotsInHtml.count(page, "<table class=\"heatmap\""));
    }
}
