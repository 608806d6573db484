package io.rdmaffm.perftest.report.html;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.report.model.FabricDocument;
import io.rdmaffm.perftest.report.model.MatrixDocument;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code report} on fabric documents: two recorded all-reduce runs (the README's three-VM run at 12 KiB and one
 * at 48 KiB) as busbw against size, each run's counter deltas per host and its verdicts; a host name from the
 * hosts ({@code rxe-<b>host3</b>&"x}) is escaped wherever it is printed.
 */
class FabricReportTest {
    private static final String EVIL = "rxe-<b>host3</b>&\"x";
    private static final Pattern TITLE = Pattern.compile("<circle [^>]*><title>([^<]*)</title></circle>");

    private static FabricDocument doc(String name) {
        Path p = Path.of("src/test/resources/fabric/" + name);
        Object parsed = MatrixDocument.parse(p);
        assertTrue(FabricDocument.isFabric(parsed), name);
        return FabricDocument.of(p.toString(), parsed);
    }

    private static String page() {
        // given in the reverse order of size: the series is drawn by size all the same
        return ReportPage.render(null, List.of(), Set.of(), List.of(), List.of(doc("report-allreduce-48K.json"),
                doc("report-allreduce-12K.json")));
    }

    @Test
    void busbwIsDrawnAgainstSizeOnePointPerRun() {
        String html = page();
        PlotsInHtml.PlotInfo plot = PlotsInHtml.read(html).get("fabric-busbw");
        assertEquals("log2", plot.xScale());
        assertEquals(1, plot.seriesCount());
        assertEquals(2, plot.series("allreduce").dataPoints());
        Matcher m = TITLE.matcher(plot.svg());
        assertTrue(m.find());
        assertTrue(m.group(1).startsWith("allreduce 12288 B: busbw 0.00003773 GB/s, algbw 0.0000283 GB/s, t 434197 us"),
                m.group(1));
        assertTrue(m.find());
        assertTrue(m.group(1).startsWith("allreduce 49152 B: busbw 0.000131072 GB/s"), m.group(1));
        assertFalse(m.find(), "two points");
    }

    @Test
    void aSweepDocumentIsOneLineOfPointsAndARotatingIncastALinePerTarget(@TempDir Path dir) throws Exception {
        Path sweep = dir.resolve("sweep.json");
        Files.writeString(sweep, "{\"schema\":\"rdma-ffm.fabric/1\",\"command\":\"fabric\",\"pattern\":\"allreduce\","
                + "\"figures\":[" + figure(0, 4092, null, 0.5) + "," + figure(0, 8184, null, 0.75) + ","
                + figure(0, 16380, null, 0.875) + "],\"verdicts\":[],\"ranks\":[]}");
        Path incast = dir.resolve("incast.json");
        Files.writeString(incast, "{\"schema\":\"rdma-ffm.fabric/1\",\"command\":\"fabric\",\"pattern\":\"incast\","
                + "\"figures\":[" + figure(0, 4096, "rxe-host1", 0.25) + "," + figure(0, 4096, EVIL, 0.3) + ","
                + figure(0, 8192, "rxe-host1", 0.4) + "," + figure(0, 8192, EVIL, 0.45) + "],\"verdicts\":[],"
                + "\"ranks\":[]}");
        List<FabricDocument> docs = List.of(FabricDocument.of("sweep.json", MatrixDocument.parse(sweep)),
                FabricDocument.of("incast.json", MatrixDocument.parse(incast)));
        assertEquals(EVIL, docs.get(1).figures().get(1).target());
        String html = ReportPage.render(null, List.of(), Set.of(), List.of(), docs);
        PlotsInHtml.PlotInfo plot = PlotsInHtml.read(html).get("fabric-busbw");
        assertEquals(3, plot.seriesCount(), "the sweep, and incast per target");
        assertEquals(3, plot.series("allreduce").dataPoints(), "one document, a line of its sizes");
        assertEquals(2, plot.series("incast to rxe-host1").dataPoints());
        assertFalse(html.contains("<b>host3"), "an untrusted target name is never markup");
    }

    private static String figure(int rail, long bytes, String target, double busbw) {
        return "{\"rail\":" + rail + ",\"bytes\":" + bytes + ",\"target\":" + (target == null ? "null"
                : "\"" + target.replace("\"", "\\\"") + "\"") + ",\"time_us\":100,\"algbw_GBps\":" + busbw
                + ",\"busbw_GBps\":" + busbw + ",\"expected_busbw_GBps\":null,\"wrong\":0}";
    }

    @Test
    void countersPerHostAndVerdictsAreShownEscaped() {
        String html = page();
        String sec = html.substring(html.indexOf("<section class=\"fabric\" id=\"fabric-2\""));
        sec = sec.substring(0, sec.indexOf("</section>"));
        // Columns: the counters that moved on some host (a null delta is a counter that could not be read: "–").
        assertTrue(sec.contains("<th>hw_counters/completer_retry_err</th><th>hw_counters/rcvd_pkts</th><th>absent</th>"),
                sec);
        assertTrue(sec.contains("<tr data-host=\"rxe-host1/rxe0\"><th class=\"text\">rxe-host1/rxe0</th>"
                + "<td data-counter=\"hw_counters/completer_retry_err\">6</td>"
                + "<td data-counter=\"hw_counters/rcvd_pkts\">171</td><td>2</td></tr>"), sec);
        String esc = "rxe-&lt;b&gt;host3&lt;/b&gt;&amp;&quot;x";
        assertTrue(sec.contains("<tr data-host=\"" + esc + "/rxe0\"><th class=\"text\">" + esc + "/rxe0</th>"), sec);
        assertTrue(sec.contains("<li data-level=\"FLAGGED\">flagged: slow-link: rail 0: link " + esc
                + "/rxe0 -&gt; rxe-host1/rxe0"), sec);
        assertTrue(sec.contains("<li data-level=\"OK\">ok: #wrong: 0 elements wrong on 3 ranks</li>"), sec);
        assertFalse(html.contains("<b>host3"), "an untrusted host name is never markup");
        assertFalse(html.contains(EVIL));
    }

    @Test
    void theReportCommandTellsAFabricDocumentByItsSchema(@TempDir Path dir) throws Exception {
        Path a = Files.copy(Path.of("src/test/resources/fabric/report-allreduce-12K.json"), dir.resolve("a.json"));
        Path out = dir.resolve("r.html");
        StringWriter said = new StringWriter();
        picocli.CommandLine cl = io.rdmaffm.perftest.cli.Main.commandLine();
        cl.setOut(new PrintWriter(said, true));
        cl.setErr(new PrintWriter(said, true));
        assertEquals(0, cl.execute("report", a.toString(), "-o", out.toString()), said.toString());
        String html = Files.readString(out);
        assertEquals(1, PlotsInHtml.read(html).get("fabric-busbw").series("allreduce").dataPoints());
        assertTrue(html.contains("<section class=\"fabric\" id=\"fabric-1\" data-pattern=\"allreduce\">"), html);
    }
}
