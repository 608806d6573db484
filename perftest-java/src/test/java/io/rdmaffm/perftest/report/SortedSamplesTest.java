package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code -H}: the samples a latency row is computed from, sorted, then the header again and the row, against
 * Debian's C ib_write_lat -n 20 -H: the samples are rebuilt from the capture's figures (the two
 * dropped largest from its t_max and one beyond it) and shuffled, so the sort and the drop are ours.
 */
class SortedSamplesTest {
    private static final Pattern SAMPLE = Pattern.compile("(?m)^\\d+, ([0-9.]+)$");

    private static String output(Tool tool, Role role, Verbosity v, boolean unsorted, boolean sorted, long[] tposted,
            int iters) throws Exception {
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(tool, role, BwUnit.MB_PER_SEC, v, false, new PrintWriter(text),
                new RunReporter.LatencyOutput(null, false, unsorted, sorted));
        r.latencyRow(2, iters, tposted, 0);
        r.footer();
        return text.toString();
    }

    @Test
    void theSortedSamplesTheHeaderAndTheRowAsCPrintsThem() throws Exception {
        // The client's capture: the server's clock calibration failed under TCG (its samples are "inf").
        Role role = Role.CLIENT;
        String c = Capture.resource("write_lat_H.client.out")
                .replaceAll("Correlation coefficient r\\^2: [0-9.]+ < 0.9\n", "");
        String captured = c.substring(c.indexOf("#, usec\n"));
        List<Long> deltas = new ArrayList<>();
        Matcher m = SAMPLE.matcher(captured);
        while (m.find()) {
            deltas.add(Math.round(Double.parseDouble(m.group(1)) * 2000)); // write_lat: half the round trip, in ns
        }
        assertEquals(17, deltas.size(), "-n 20: 19 round trips, the two largest dropped");
        double tMax = PerftestOutputParser.parse(c).latRows().get(0).tMax();
        deltas.add(Math.round(tMax * 2000)); // the first dropped sample is the row's t_max
        deltas.add(Math.round(tMax * 2000) + 1_000_000);
        java.util.Collections.shuffle(deltas, new java.util.Random(30));
        long[] tposted = new long[20];
        for (int i = 1; i < 20; i++) {
            tposted[i] = tposted[i - 1] + deltas.get(i - 1);
        }
        assertEquals(captured, output(Tool.WRITE_LAT, role, Verbosity.FULL, false, true, tposted, 20));
    }

    @Test
    void withMinusUTheUnsortedComeFirstAndTheHeaderOnce() throws Exception {
        long[] tposted = {0, 6000, 8000, 18000, 20000, 21000};
        String ours = output(Tool.READ_LAT, Role.CLIENT, Verbosity.FULL, true, true, tposted, 6);
        // read_lat: the whole round trip; 5 samples 6, 2, 10, 2, 1 usec; sorted and the two largest dropped: 1, 2, 2
        String expected = PerftestFormat.RESULT_LINE + "#, usec\n1, 6\n2, 2\n3, 10\n4, 2\n5, 1\n"
                + "#, usec\n1, 1\n2, 2\n3, 2\n" + PerftestFormat.RESULT_LINE + PerftestFormat.LAT_HEADER;
        assertTrue(ours.startsWith(expected.substring(PerftestFormat.RESULT_LINE.length())), ours);
        assertEquals(1, ours.split(" #bytes", -1).length - 1, "one header: " + ours);
    }

    @Test
    void withOutputTheSamplesStayAndTheHeaderGoes() throws Exception {
        long[] tposted = {0, 6000, 8000, 18000, 20000, 21000};
        assertEquals("#, usec\n1, 1\n2, 2\n3, 2\n" + CFormat.fixed(5.0 / 3, 6) + "\n",
                output(Tool.READ_LAT, Role.CLIENT, Verbosity.LATENCY, false, true, tposted, 6));
    }

    @Test
    void reportCyclesPrintsTheRowAndTheSamplesInCyclesUnderPerftestsHeaders() throws Exception {
        // round trips of 2000, 4000, .. ns on a 2.5 GHz counter: write_lat halves them, 2500, 5000, .. cycles
        long[] tposted = new long[10];
        for (int i = 1; i < 10; i++) {
            tposted[i] = tposted[i - 1] + 2000L * i;
        }
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(Tool.WRITE_LAT, Role.CLIENT, BwUnit.MB_PER_SEC, Verbosity.FULL, false,
                new PrintWriter(text), new RunReporter.LatencyOutput(null, false, true, false, 0.4));
        r.latencyRow(2, 10, tposted, 0);
        String out = text.toString();
        assertTrue(out.startsWith("#, cycles\n1, 2500\n2, 5000\n"), out);
        assertTrue(out.contains("t_min[usec]"), "perftest keeps its header: " + out);
        assertTrue(out.contains(" 2       10          2500.00        20000.00      10000.00"), out);
    }

    @Test
    void reportCyclesHasTheShapeOfCsCapture() throws Exception {
        // C's ib_write_lat -n 20 -C -U on rxe: the figures are TCG's, the lines around them are the format.
        String c = Capture.resource("write_lat_C_U.client.out");
        long[] tposted = new long[20];
        for (int i = 1; i < 20; i++) {
            tposted[i] = tposted[i - 1] + 1000L * (i % 5 + 1);
        }
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(Tool.WRITE_LAT, Role.CLIENT, BwUnit.MB_PER_SEC, Verbosity.FULL, false,
                new PrintWriter(text), new RunReporter.LatencyOutput(null, false, true, false, 0.5));
        r.latencyRow(2, 20, tposted, 0);
        String ours = text.toString();
        assertEquals(shape(c.substring(c.indexOf("#, cycles"))), shape(ours));
    }

    /** The lines up to the row, every figure replaced by N: what must match a capture made on another clock. */
    private static String shape(String out) {
        StringBuilder b = new StringBuilder();
        for (String line : out.split("\n")) {
            // a figure's padding follows its width (%-7.2f): the spaces after it are not the format's
            b.append(line.replaceAll("(-?[0-9]+(\\.[0-9]+)?(e[+-][0-9]+)?|-nan|inf) *", "N")).append('\n');
            if (line.startsWith(" 2 ")) {
                break; // the row: what follows is the run's end
            }
        }
        return b.toString();
    }
}
