package io.rdmaffm.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.report.BwArithmetic;
import io.rdmaffm.perftest.report.RunReporter;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --run_infinitely}'s per-interval rows against what Debian's C perftest printed on rxe with {@code -D 2}
 * (captures/send_bw_inf.*, write_bw_b_inf.*): for each of C's rows with figures, the interval C measured is
 * recovered from its count and bandwidth, and the row perftest-java prints for that count and interval must be
 * C's line byte for byte. The interval must come out near -D: with a wrong {@code -b} factor (C counts this
 * side's messages twice, run_inf_bi_factor) it would read half or twice that. Rows where C's clock calibration
 * failed under TCG read 0.00 and carry no interval to check.
 */
class EndlessRowCaptureTest {
    private static final Pattern ROW = Pattern.compile("(?m)^ 65536 +(\\d+) +0\\.00 +([0-9.]+) .*$");
    private static final long SIZE = 65536;
    private static final double DURATION_S = 2;

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "send_bw_inf, CLIENT, SEND_BW, 1",
        "send_bw_inf, SERVER, SEND_BW, 1",
        "write_bw_b_inf, CLIENT, WRITE_BW, 2",
        "write_bw_b_inf, SERVER, WRITE_BW, 2",
    })
    void eachRowWithFiguresIsPrintedAsC(String name, Role role, Tool tool, double factor) {
        String captured = Capture.resource(name + "." + role.name().toLowerCase(java.util.Locale.ROOT) + ".out");
        Matcher m = ROW.matcher(captured);
        int checked = 0;
        int rows = 0;
        while (m.find()) {
            rows++;
            long count = Long.parseLong(m.group(1));
            double bw = Double.parseDouble(m.group(2));
            if (bw == 0) {
                continue; // C's clock calibration failed for this row (its "Correlation coefficient" line)
            }
            double seconds = SIZE * count * factor / (bw * BwUnit.MB_PER_SEC.bytesPerUnit());
            assertTrue(seconds > 0.9 * DURATION_S && seconds < 1.2 * DURATION_S,
                    "C's row covers about -D seconds with a factor of " + factor + ": " + seconds + " s in " + m.group());
            long nanos = Math.round(seconds * 1e9);
            StringWriter text = new StringWriter();
            RunReporter r = new RunReporter(tool, role, BwUnit.MB_PER_SEC, Verbosity.FULL, false,
                    new PrintWriter(text), new RunReporter.LatencyOutput(null, false, false, false));
            r.bwRow(EndlessEnds.row(BwArithmetic.duration(SIZE, count, 0, nanos, BwUnit.MB_PER_SEC, 1e9), factor));
            assertEquals(m.group() + "\n", text.toString(), "the row for " + count + " messages in " + seconds + " s");
            checked++;
        }
        assertTrue(rows >= 3, "C printed a row every interval: " + rows);
        assertTrue(checked >= 1, "at least one of C's rows has figures to compare");
    }
}
