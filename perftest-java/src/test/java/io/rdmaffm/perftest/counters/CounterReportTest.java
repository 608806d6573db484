package io.rdmaffm.perftest.counters;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.json.JsonWriter;
import io.rdmaffm.perftest.report.PerftestFormat;
import io.rdmaffm.perftest.report.PerftestOutputParser;
import io.rdmaffm.perftest.report.RunReporter;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import io.rdmaffm.verbs.topology.Sysfs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -W}: what follows each result row, checked byte for byte against Debian's C perftest 4.5
 * ({@code captures/write_bw_W.*}), with the capture's counter values replayed through a fixture sysfs.
 */
class CounterReportTest {
    private static final String DIR = "sys/class/infiniband/rxe0/ports/1/hw_counters/";

    @TempDir
    Path root;

    private void set(String name, long v) throws IOException {
        Path f = root.resolve(DIR + name);
        Files.createDirectories(f.getParent());
        Files.writeString(f, v + "\n");
    }

    @ParameterizedTest
    @EnumSource(Role.class)
    void theRowThenEachCounterChangeThenAnEmptyLineAsCPrintsThem(Role role) throws IOException {
        String captured = Capture.resource("write_bw_W." + role.name().toLowerCase(Locale.ROOT) + ".out");
        PerftestOutputParser.BwRow row = PerftestOutputParser.parse(captured).bwRows().getFirst();
        Matcher m = Pattern.compile("\thw_counters/sent_pkts=(\\d+)\n\thw_counters/rcvd_pkts=(\\d+)\n").matcher(captured);
        assertTrue(m.find(), captured);
        set("sent_pkts", 1000);
        set("rcvd_pkts", 2000);
        CounterReport report = CounterReport.open(new Sysfs(root), "rxe0", 1, "hw_counters/sent_pkts,hw_counters/rcvd_pkts");
        set("sent_pkts", 1000 + Long.parseLong(m.group(1)));
        set("rcvd_pkts", 2000 + Long.parseLong(m.group(2)));

        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(Tool.WRITE_BW, role, BwUnit.MB_PER_SEC, Verbosity.FULL, false,
                new PrintWriter(text), new RunReporter.LatencyOutput(null, false, false, false));
        r.reportCounters(report);
        BwReport bw = new BwReport(row.size(), row.iters(), row.bwPeak(), row.bwAvg(), row.msgRate());
        r.bwRow(bw, null);
        r.footer();
        int from = captured.indexOf(PerftestFormat.bwRow(bw, BwUnit.MB_PER_SEC));
        assertTrue(from > 0, captured);
        assertEquals(captured.substring(from), text.toString(), "from the row to the end");
    }

    @Test
    void eachRowShowsTheChangeSinceThePreviousAndTheJsonKeepsThem() throws IOException {
        set("rcvd_pkts", 10);
        CounterReport report = CounterReport.open(new Sysfs(root), "rxe0", 1, "hw_counters/rcvd_pkts");
        set("rcvd_pkts", 15);
        assertEquals("\thw_counters/rcvd_pkts=5\n\n", report.next());
        set("rcvd_pkts", 45);
        assertEquals("\thw_counters/rcvd_pkts=30\n\n", report.next());
        assertEquals(List.of(5L, 30L), report.deltas().stream().map(d -> d[0]).toList());
        JsonWriter w = JsonWriter.compact();
        report.json(w);
        assertEquals("{\"device\":\"rxe0\",\"port\":1,\"names\":[\"hw_counters/rcvd_pkts\"],\"deltas\":"
                + "[{\"hw_counters/rcvd_pkts\":5},{\"hw_counters/rcvd_pkts\":30}]}", w.toString());
    }

    @Test
    void aCounterThePortLacksIsRefusedBeforeTheRun() throws IOException {
        set("rcvd_pkts", 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> CounterReport.open(
                new Sysfs(root), "rxe0", 1, "hw_counters/rcvd_pkts,counters/port_xmit_wait"));
        assertEquals("-W: cannot read counter counters/port_xmit_wait of rxe0 port 1: the port has no such counter",
                e.getMessage());
        Files.writeString(root.resolve(DIR + "bad"), "N/A\n");
        e = assertThrows(IllegalArgumentException.class, () -> CounterReport.open(new Sysfs(root), "rxe0", 1,
                "hw_counters/bad"));
        assertEquals("-W: cannot read counter hw_counters/bad of rxe0 port 1: not a number: 'N/A'", e.getMessage());
    }
}
