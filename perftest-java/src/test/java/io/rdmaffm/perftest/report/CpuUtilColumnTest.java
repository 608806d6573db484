package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --cpu_util}: perftest's CPU_Util column, header and rows, against Debian's C ib_write_bw/ib_write_lat
 * -D 4 --cpu_util (the table from its header to the end; the figures are the capture's own).
 */
class CpuUtilColumnTest {

    private static String table(Tool tool, Role role, Verbosity v, boolean cpuColumn, Consumer<RunReporter> rows) {
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(tool, role, BwUnit.MB_PER_SEC, v, cpuColumn, new PrintWriter(text),
                new RunReporter.LatencyOutput(null, false, false, false));
        r.header(true);
        rows.accept(r);
        r.footer();
        return text.toString();
    }

    private static String capturedTable(String name, Role role) {
        String c = Capture.resource(name + "." + role.name().toLowerCase(Locale.ROOT) + ".out")
                .replaceAll("Correlation coefficient r\\^2: [0-9.]+ < 0.9\n", "");
        int header = c.indexOf(" #bytes");
        return c.substring(c.lastIndexOf(PerftestFormat.RESULT_LINE, header));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"CLIENT, 0.50f", "SERVER, 0"}) // the write_bw server runs no loop: C prints 0.00 for it
    void theBandwidthTableHasTheColumnOnBothSides(Role role, float measured) {
        String ours = table(Tool.WRITE_BW, role, Verbosity.FULL, true, r -> {
            if (measured > 0) {
                r.cpuUtil(measured);
            }
            r.bwRow(new BwReport(65536, 1664, 0.00, 51.99, 0.000832));
        });
        assertEquals(capturedTable("write_bw_D_cpu_util", role), ours);
    }

    @Test
    void theDurationLatencyTableHasTheColumnOnBothSides() {
        // C's clock calibration failed on the client (t_avg "inf", tps 0.00), which no Java clock gives: its table
        // is re-created from the formats alone.
        String client = PerftestFormat.RESULT_LINE + PerftestFormat.withCpuUtilHeader(PerftestFormat.LAT_DURATION_HEADER)
                + PerftestFormat.withCpuUtil(PerftestFormat.latencyDurationRow(2, 95, Double.POSITIVE_INFINITY, 0), 43.49f)
                + PerftestFormat.RESULT_LINE;
        assertEquals(capturedTable("write_lat_D_cpu_util", Role.CLIENT), client);
        String server = table(Tool.WRITE_LAT, Role.SERVER, Verbosity.FULL, true, r -> {
            r.cpuUtil(42.97f);
            r.latencyDurationRow(2, 95, 0, 2_131_268_000L, 0); // 11217.2 usec per half round trip, 44.57 tps
        });
        assertEquals(capturedTable("write_lat_D_cpu_util", Role.SERVER), server);
    }

    @Test
    void noColumnWithoutTheFlagOrWithOutput() {
        String plain = table(Tool.SEND_BW, Role.CLIENT, Verbosity.FULL, false,
                r -> r.bwRow(new BwReport(2, 100, 1, 1, 0.5)));
        assertTrue(!plain.contains("CPU_Util"), plain);
        String figure = table(Tool.SEND_BW, Role.CLIENT, Verbosity.MESSAGE_RATE, true, r -> {
            r.cpuUtil(12.5f);
            r.bwRow(new BwReport(2, 100, 1, 1, 0.5));
        });
        assertEquals("0.500000\n", figure, "--output prints the figure alone, as C does");
    }

    @Test
    void theFigureIsCsThreeWidePercentWithTwoDecimals() {
        assertEquals(" 2       100      1.00   \t    7.25\n", PerftestFormat.withCpuUtil(" 2       100      1.00   \n", 7.25f));
        assertEquals(" x    CPU_Util[%]\n", PerftestFormat.withCpuUtilHeader(" x\n"));
        assertEquals("a\t    100.00\n", PerftestFormat.withCpuUtil("a\n", 100f));
    }
}
