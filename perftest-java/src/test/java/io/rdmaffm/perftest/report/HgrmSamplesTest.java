package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --hgrm} against the table for {@code -n 200}: the histogram holds the 199 round trips (one per pair of
 * consecutive posts), all of them; the table drops the two largest, so its t_max is the second-largest sample,
 * and the histogram's Max is the largest sample's bucket top. The file says so, and the run document's
 * histogram count equals its {@code exact.samples}.
 */
class HgrmSamplesTest {
    /** Round trips (ns) of send_lat, halved by the table: 12,525.567 µs the largest, 12,481.35 µs the next. */
    private static final long LARGEST = 25_051_134;
    private static final long SECOND = 24_962_700;

    private static long[] posts(int iters) {
        long[] t = new long[iters];
        for (int i = 1; i < iters; i++) {
            long d = i == 50 ? LARGEST : i == 120 ? SECOND : 2_000 + (i % 7) * 10;
            t[i] = t[i - 1] + d;
        }
        return t;
    }

    private static double footer(String text, String key) {
        Matcher m = Pattern.compile("#\\[" + key + " += +([0-9.]+)").matcher(text);
        assertTrue(m.find(), key + " in\n" + text);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void theHistogramHoldsEveryRoundTripAndSaysHowItsMaxDiffersFromTheTables(@TempDir Path dir) throws Exception {
        Path hgrm = dir.resolve("lat.hgrm");
        RunReporter r = new RunReporter(Tool.SEND_LAT, Role.CLIENT, BwUnit.MB_PER_SEC,
                new PrintWriter(new StringWriter()), new RunReporter.LatencyOutput(hgrm, false, false, false));
        r.banner(BannerInfo.builder(Tool.SEND_LAT, Role.CLIENT).device("rxe0").build());
        r.latencyRow(2, 200, posts(200), 0);
        String text = Files.readString(hgrm);

        assertEquals(199, (long) footerCount(text));
        double max = footer(text, "Max");
        double exactMax = LARGEST / 2000.0;
        assertTrue(max >= exactMax && max <= exactMax * 1.001, "bucket top within 0.1% of the sample: " + max);
        assertTrue(text.contains("#[Samples: 199, one round trip per pair of consecutive posts of -n 200; all kept "
                + "(the table drops the two largest)]"), text);
        assertTrue(text.contains("exact max = 12525.567 us"), text);
        assertTrue(text.contains("#[Table t_max = 12481.35 us: the second-largest sample"), text);

        Path json = dir.resolve("run.json");
        r.writeJson(Map.of(), json, null, null);
        Map<?, ?> row = (Map<?, ?>) ((List<?>) ((Map<?, ?>) JsonReader.parse(Files.readString(json)))
                .get("all_results")).get(0);
        assertEquals(12481.35, (Double) ((Map<?, ?>) row.get("exact")).get("t_max"), 1e-9);
        assertEquals(((Map<?, ?>) row.get("exact")).get("samples"),
                ((Map<?, ?>) row.get("latency_histogram")).get("count"), "the table's samples and the histogram's");
    }

    private static double footerCount(String text) {
        Matcher m = Pattern.compile("Total count += +([0-9]+)]").matcher(text);
        assertTrue(m.find(), text);
        return Double.parseDouble(m.group(1));
    }
}
