package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.Capture;
import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verbosity;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code --output}: a side prints C's {@code "%lf\n"} of one figure per row and nothing else, checked against
 * what Debian's C perftest printed with it (captures/*_output_*), both sides.
 */
class OutputFigureTest {
    /** C's clock warning, printed before anything else; we do not reproduce it (as in CaptureOutputTest). */
    private static final String CLOCK_WARNING = "^Correlation coefficient r\\^2: [0-9.]+ < 0.9\n";
    /** C's stderr line on a device it does not know (its result line stays; see CaptureOutputTest). */
    private static final String INLINE_WARNING = "Device not recognized to implement inline feature. Disabling it\n";

    private static String captured(String name, Role role) {
        return Capture.resource(name + "." + role.name().toLowerCase(java.util.Locale.ROOT) + ".out")
                .replaceFirst(CLOCK_WARNING, "").replace(INLINE_WARNING, "");
    }

    /** Everything one side of a run asks the reporter to print, in the order a run asks for it. */
    private static String wholeRun(Tool tool, Role role, Verbosity v, Consumer<RunReporter> rows) {
        StringWriter text = new StringWriter();
        RunReporter r = new RunReporter(tool, role, BwUnit.MB_PER_SEC, v, false, new PrintWriter(text),
                new RunReporter.LatencyOutput(null, false, false, false));
        PingPongDest[] dests = {new PingPongDest(0, 1, 0x11, 0x22, 0x33, 0x44L, new byte[16], 0)};
        r.preamble();
        r.banner(BannerInfo.builder(tool, role).device("rxe0").build());
        r.addresses("local", dests, true, false);
        r.addresses("remote", dests, true, false);
        r.header(false);
        rows.accept(r);
        r.footer();
        r.measuredWindows(List.of());
        return text.toString();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "write_bw_output_bw, CLIENT, WRITE_BW, BANDWIDTH",
        "write_bw_output_bw, SERVER, WRITE_BW, BANDWIDTH",
        "send_bw_output_bw, CLIENT, SEND_BW, BANDWIDTH",
        "send_bw_output_bw, SERVER, SEND_BW, BANDWIDTH",
    })
    void aBandwidthRunPrintsItsFigureAlone(String name, Role role, Tool tool, Verbosity v) {
        String captured = captured(name, role);
        assertTrue(captured.matches("[0-9]+\\.[0-9]{6}\n"), "C printed one %lf line: " + captured);
        double figure = Double.parseDouble(captured.strip());
        String ours = wholeRun(tool, role, v, r -> r.bwRow(new BwReport(65536, 2000, 0, figure, figure / 64)));
        assertEquals(captured, ours);
    }

    @Test
    void messageRateIsTheRowsMppsAndEveryRowGetsALine() {
        String ours = wholeRun(Tool.SEND_BW, Role.CLIENT, Verbosity.MESSAGE_RATE, r -> {
            r.bwRow(new BwReport(2, 1000, 1.5, 1.25, 0.655360));
            r.bwRow(new BwReport(4, 1000, 3.0, 2.5, 0.5));
        });
        assertEquals("0.655360\n0.500000\n", ours);
        assertEquals("62.723368\n", wholeRun(Tool.WRITE_BW, Role.SERVER, Verbosity.BANDWIDTH,
                r -> r.bwRow(new BwReport(65536, 2000, 70, 62.723368, 1.0))));
    }

    @Test
    void aLatencyRunPrintsTheAverageNotTheMedian() {
        // write_lat: round trip / 2. Deltas 4000 ns (x 96) and 8000, 12000 ns (the two largest, dropped as C does):
        // every kept sample is 2.0 usec; one 6000 ns sample among them moves the average, not the median.
        long[] tposted = new long[100];
        for (int i = 1; i < 100; i++) {
            long delta = i == 98 ? 8000 : i == 99 ? 12000 : i == 50 ? 6000 : 4000;
            tposted[i] = tposted[i - 1] + delta;
        }
        String ours = wholeRun(Tool.WRITE_LAT, Role.CLIENT, Verbosity.LATENCY, r -> {
            try {
                r.latencyRow(2, 100, tposted, 0);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        // 96 kept samples of 2.0 usec and one of 3.0: (96 * 2 + 3) / 97
        assertEquals(CFormat.fixed((96 * 2.0 + 3.0) / 97, 6) + "\n", ours);
        assertEquals("2.010309\n", ours);
        String captured = Capture.resource("write_lat_output_lat.client.out").replaceFirst(CLOCK_WARNING, "");
        assertTrue(captured.matches("[0-9]+\\.[0-9]{6}\n"), "C printed one %lf line: " + captured);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"CLIENT", "SERVER"})
    void aDurationReadLatencyRunPrintsTheResultLineOfItsInlineWarningThenItsAverage(Role role) {
        // ib_read_lat -D 3 --output=latency: C's read_lat server prints no row, as without --output
        String captured = captured("read_lat_D_output_lat", role);
        String ours = wholeRun(Tool.READ_LAT, role, Verbosity.LATENCY, r -> {
            if (role == Role.CLIENT) {
                r.latencyDurationRow(2, 1_000_000, 0, 30_495_382_000L, 0); // 30.495382 usec per read
            }
        });
        assertEquals(captured, ours);
        assertTrue(ours.startsWith(PerftestFormat.RESULT_LINE), ours);
    }

    @Test
    void aDurationLatencyRunPrintsItsAverage() {
        String ours = wholeRun(Tool.READ_LAT, Role.CLIENT, Verbosity.LATENCY,
                r -> r.latencyDurationRow(2, 1000, 0, 5_000_000, 0));
        assertEquals(PerftestFormat.RESULT_LINE + "5.000000\n", ours, "read_lat: 1000 round trips in 5 ms, 5 usec each");
        assertEquals("2.500000\n", wholeRun(Tool.SEND_LAT, Role.SERVER, Verbosity.LATENCY,
                r -> r.latencyDurationRow(2, 1000, 0, 5_000_000, 0)), "send_lat: half the round trip");
    }

    @Test
    void unsortedSamplesStayButWithoutTheHeaderAfterThem() {
        long[] tposted = {0, 6_170_150, 6_337_106, 6_386_109};
        assertEquals("#, usec\n1, 3085.07\n2, 83.478\n3, 24.5015\n",
                PerftestFormat.unsortedSamples(tposted, 4, 2, false));
    }
}
