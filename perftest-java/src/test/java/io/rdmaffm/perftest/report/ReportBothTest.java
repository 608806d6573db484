package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code --report-both}: after a bidirectional row (the sum of both sides) each side's own figures under their
 * own headers, checked character for character against Debian's C ib_write_bw -b --report-both (both sides).
 */
class ReportBothTest {

    private static BwReport report(PerftestOutputParser.BwRow r) {
        return new BwReport(r.size(), r.iters(), r.bwPeak(), r.bwAvg(), r.msgRate());
    }

    @ParameterizedTest
    @EnumSource(Role.class)
    void theSumRowThenLocalThenRemoteAsCPrintsThem(Role role) {
        String captured = Capture.resource("write_bw_b_report_both." + role.name().toLowerCase(Locale.ROOT) + ".out")
                .replaceAll("Correlation coefficient r\\^2: [0-9.]+ < 0.9\n", "");
        List<PerftestOutputParser.BwRow> rows = PerftestOutputParser.parse(captured).bwRows();
        assertEquals(3, rows.size(), "the sum, local and remote rows: " + captured);
        BwReport local = report(rows.get(1));
        BwReport remote = report(rows.get(2));

        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(Tool.WRITE_BW, role, BwUnit.MB_PER_SEC, Verbosity.FULL, false,
                new PrintWriter(text),
                new RunReporter.LatencyOutput(null, false, false, false));
        r.bwRow(local.plus(remote), null);
        r.bothSides(local, remote);
        r.footer();

        String sumRow = PerftestFormat.bwRow(local.plus(remote), BwUnit.MB_PER_SEC);
        int from = captured.indexOf(sumRow);
        assertEquals(captured.substring(from), text.toString(), "from the sum row to the end");
    }

    @ParameterizedTest
    @EnumSource(value = Verbosity.class, names = {"BANDWIDTH", "MESSAGE_RATE"})
    void withOutputTheRowsAreFiguresButTheHeadersStayAsInC(Verbosity v) {
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(Tool.READ_BW, Role.CLIENT, BwUnit.GB_PER_SEC, v, false, new PrintWriter(text),
                new RunReporter.LatencyOutput(null, false, false, false));
        r.bothSides(new BwReport(8, 100, 2, 1.5, 0.25), new BwReport(8, 100, 4, 2.5, 0.75));
        String local = v == Verbosity.BANDWIDTH ? "1.500000\n" : "0.250000\n";
        String remote = v == Verbosity.BANDWIDTH ? "2.500000\n" : "0.750000\n";
        assertEquals(PerftestFormat.sideHeader("Local", BwUnit.GB_PER_SEC) + local
                + PerftestFormat.sideHeader("Remote", BwUnit.GB_PER_SEC) + remote, text.toString());
        assertEquals(PerftestFormat.RESULT_LINE + "\n Local results: \n" + PerftestFormat.RESULT_LINE
                + PerftestFormat.bwHeader(BwUnit.GB_PER_SEC), PerftestFormat.sideHeader("Local", BwUnit.GB_PER_SEC));
    }
}
