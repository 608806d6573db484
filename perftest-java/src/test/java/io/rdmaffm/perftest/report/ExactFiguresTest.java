package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.report.compare.CompareText;
import io.rdmaffm.perftest.report.compare.Comparison;
import io.rdmaffm.perftest.report.model.Metric;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The rows' {@code exact} objects: written beside the table's rounded figures, read by report and compare in
 * their place, and the rounded figures used (and named) only for files that lack them.
 */
class ExactFiguresTest {
    private static final BannerInfo WRITE_BW = BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rxe0").build();

    /** A 2 B write_bw document: 5000 messages of 2 B at {@code mbPerSec} (MB = 2^20 B). */
    private static String twoByteRun(double mbPerSec, boolean bidirectional) {
        double msgRate = mbPerSec * 0x100000 / 2 / 1e6;
        BannerInfo info = bidirectional ? BannerInfo.builder(Tool.WRITE_BW, Role.CLIENT).device("rxe0")
                .bidirectional(true).build() : WRITE_BW;
        return JsonReport.bandwidth(info, Map.of(), BwUnit.MB_PER_SEC,
                List.of(new BwReport(2, 5000, 0, mbPerSec, msgRate)));
    }

    private static Map<?, ?> firstRow(String json) {
        return (Map<?, ?>) ((List<?>) ((Map<?, ?>) JsonReader.parse(json)).get("all_results")).get(0);
    }

    @Test
    void theRowKeepsFullPrecisionBesideTheTableFigures() {
        Map<?, ?> row = firstRow(twoByteRun(0.0123, false));
        assertEquals(0.01, (Double) row.get("BW_average"));
        Map<?, ?> exact = (Map<?, ?>) row.get("exact");
        assertEquals(0.0123, (Double) exact.get("BW_average"));
        assertEquals(5000.0, (Double) exact.get("messages"));
        assertEquals(10000.0, (Double) exact.get("bytes"));
        double seconds = (Double) exact.get("seconds");
        assertEquals(0.0123 * 0x100000, (Double) exact.get("bytes_per_second"), 1e-9);
        assertEquals((Double) exact.get("bytes_per_second"), 10000 / seconds, 1e-6);
        assertNull(((Map<?, ?>) firstRow(twoByteRun(0.0123, true)).get("exact")).get("seconds"),
                "a bidirectional row adds two sides' figures: it has no one duration");
    }

    @Test
    void compareUsesTheExactFiguresNotTheRoundedOnes() {
        RunDocument a = RunReader.parse(twoByteRun(0.0123, false), "a.json");
        RunDocument b = RunReader.parse(twoByteRun(0.0381, false), "b.json");
        assertTrue(a.exactFigures() && b.exactFigures());
        Comparison.Line line = Comparison.compare(List.of(a), List.of(b), Set.of(Metric.BW_AVERAGE)).get(0);
        assertEquals(0.0381 / 0.0123, line.ratio(), 1e-12, "the rounded figures (0.01, 0.04) would give 4.000");
        assertNull(CompareText.precisionNote(List.of(a), List.of(b)));
        assertFalse(CompareText.render(List.of(line), List.of(a), List.of(b), Comparison.DEFAULT_MIN_EFFECT).contains("precision:"));
    }

    @Test
    void olderFilesFallBackToTheRoundedFiguresAndCompareSaysSo() {
        String json = twoByteRun(0.0123, false).replaceAll("(?s)\"exact\": \\{[^}]*},\\s*", "");
        assertFalse(json.contains("exact"), json);
        RunDocument old = RunReader.parse(json, "dir/old.json");
        Row.Bandwidth row = (Row.Bandwidth) old.rows().get(0);
        assertFalse(row.exact());
        assertFalse(old.exactFigures());
        assertEquals(0.01, row.bwAverage());
        RunDocument now = RunReader.parse(twoByteRun(0.0381, false), "now.json");
        List<Comparison.Line> lines = Comparison.compare(List.of(old), List.of(now), Set.of(Metric.BW_AVERAGE));
        assertEquals(0.0381 / 0.01, lines.get(0).ratio(), 1e-12);
        String text = CompareText.render(lines, List.of(old), List.of(now), Comparison.DEFAULT_MIN_EFFECT);
        List<String> head = text.lines().limit(4).toList();
        assertTrue(head.get(3).startsWith("precision: A: old hold only the table's rounded figures"), text);
        assertFalse(head.get(3).contains("now"), text);
    }

    @Test
    void latencyRowsKeepEveryFigureAndTheirSampleCounts() {
        BannerInfo info = BannerInfo.builder(Tool.SEND_LAT, Role.CLIENT).device("rxe0").build();
        String json = JsonReport.latency(info, Map.of(), List.of(new LatencyRow(2, 200,
                new LatencyResult(1.005, 12.48135, 1.2345, 1.3333, 0.5, 2.0625, 12.48135))));
        Map<?, ?> row = firstRow(json);
        assertEquals(1.00, (Double) row.get("t_min"));
        Map<?, ?> exact = (Map<?, ?>) row.get("exact");
        assertEquals(199.0, (Double) exact.get("samples"));
        assertEquals(197.0, (Double) exact.get("samples_used"));
        Row.Latency read = (Row.Latency) RunReader.parse(json, "lat.json").rows().get(0);
        assertTrue(read.exact());
        assertEquals(1.005, read.tMin());
        assertEquals(12.48135, read.tMax());
        assertEquals(1.2345, read.value(Metric.T_TYPICAL));

        String duration = JsonReport.latencyDuration(info, Map.of(), 64, 123456, new DurationLatency(1.505,
                333333.333));
        Row.LatencyDuration d = (Row.LatencyDuration) RunReader.parse(duration, "d.json").rows().get(0);
        assertTrue(d.exact());
        assertEquals(333333.333, d.tpsAverage());
        Map<?, ?> dx = (Map<?, ?>) ((Map<?, ?>) ((Map<?, ?>) JsonReader.parse(duration)).get("results")).get("exact");
        assertEquals(123456 / 333333.333, (Double) dx.get("seconds"), 1e-12);
    }
}
