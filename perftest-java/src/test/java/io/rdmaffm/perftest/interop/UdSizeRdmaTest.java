package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.report.PerftestOutputParser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD's message size against the MTU both sides agreed on, as perftest 4.5's check_mtu decides it after the MTU
 * exchange, Java against Debian's C perftest both ways: {@code ib_send_bw -c UD} without {@code -s} (64 KiB by
 * default) shrinks to the MTU on both sides with C's two stderr lines and runs; an explicit {@code -s} larger than
 * the MTU stops both sides after the exchange (C with its line and status 1, Java with C's words and status 2).
 * Short form: Java client, C server (both print the lines, so they are compared within one run); the full form
 * (-Dinterop.full=true, scripts/interop-full.sh) adds C client, Java server. MulticastInteropRdmaTest runs the
 * default size both ways as well.
 */
@Tag("rdma")
class UdSizeRdmaTest {
    private static final String CLAMPED = " Max msg size in UD is MTU ";
    private static final String CHANGING = " Changing to this MTU";
    private static final String REFUSED = "Max message size in UD cannot be greater than MTU";

    @ParameterizedTest(name = "Java server: {0}")
    @ValueSource(booleans = {false, true})
    void defaultSizeShrinksToTheMtuOnBothSides(boolean javaServer) throws Exception {
        fullFormOnly(javaServer);
        Run r = null;
        for (int attempt = 0; attempt < 3; attempt++) {
            r = run(javaServer, List.of());
            if (!InteropRdmaTest.cClockFailed(r.c())) {
                break;
            }
            System.out.println("retrying: C perftest's clock calibration failed under emulation" + r.both());
        }
        assertEquals(0, r.client().exitCode(), "client exit code" + r.both());
        assertEquals(0, r.server().exitCode(), "server exit code" + r.both());
        PerftestOutputParser.Parsed java = PerftestOutputParser.parse(r.java());
        String mtu = java.fields().get("Mtu");
        assertTrue(mtu != null && mtu.endsWith("[B]"), "Java printed the MTU" + r.both());
        long mtuBytes = Long.parseLong(mtu.substring(0, mtu.length() - 3));
        assertTrue(mtuBytes < 65536, "the device's MTU is below ib_send_bw's 64 KiB default" + r.both());
        // The same two lines from both, naming the agreed MTU; Java's on its stderr as C's are.
        List<String> expected = List.of(CLAMPED + mtuBytes, CHANGING);
        assertEquals(expected, notice(r.c()), "C's lines" + r.both());
        assertEquals(expected, notice(r.java()), "Java's lines, as C's" + r.both());
        for (String out : List.of(r.java(), r.c())) {
            List<PerftestOutputParser.BwRow> rows = PerftestOutputParser.parse(out).bwRows();
            assertFalse(rows.isEmpty(), "a BW row" + r.both());
            assertEquals(mtuBytes, rows.getFirst().size(), "the row's size is the MTU" + r.both());
            assertTrue(rows.getFirst().bwAvg() > 0, "bytes moved" + r.both());
        }
    }

    @ParameterizedTest(name = "Java server: {0}")
    @ValueSource(booleans = {false, true})
    void givenSizeOverTheMtuStopsBothSides(boolean javaServer) throws Exception {
        fullFormOnly(javaServer);
        Run r = run(javaServer, List.of("-s", "65536"));
        int javaExit = javaServer ? r.server().exitCode() : r.client().exitCode();
        int cExit = javaServer ? r.client().exitCode() : r.server().exitCode();
        assertEquals(2, javaExit, "Java refuses the size it was given" + r.both());
        assertTrue(PerftestOutputParser.parse(r.java()).bwRows().isEmpty(), "Java ran nothing" + r.both());
        assertTrue(PerftestPeers.errorLine(r.java()).startsWith("ib_send_bw: error: " + REFUSED),
                "Java's line says what C says" + r.both());
        assertNotEquals(0, cExit, "C fails too" + r.both());
        assertTrue(r.c().contains(" " + REFUSED + " "), "C's own line" + r.both());
        assertTrue(notice(r.java()).isEmpty() && notice(r.c()).isEmpty(), "nothing shrank" + r.both());
    }

    /** The C client / Java server direction runs in the full form only (CI's time). */
    private static void fullFormOnly(boolean javaServer) {
        Assumptions.assumeTrue(!javaServer || Boolean.getBoolean("interop.full"),
                "C client, Java server: full form only (-Dinterop.full=true)");
    }

    /** The lines of perftest's UD notice in {@code out}, in order. */
    private static List<String> notice(String out) {
        List<String> lines = new ArrayList<>();
        for (String l : out.split("\n")) {
            if (l.startsWith(CLAMPED) || l.equals(CHANGING)) {
                lines.add(l);
            }
        }
        return lines;
    }

    private record Run(PerftestPeers.Outcome client, PerftestPeers.Outcome server, String java, String c,
            String both) {
    }

    private static Run run(boolean javaServer, List<String> extra) throws Exception {
        String device = PerftestPeers.device();
        PerftestPeers.requireCPerftest();
        int port = PerftestPeers.freshPort();
        List<String> common = PerftestPeers.args("-d", device, "-p", String.valueOf(port), "-c", "UD", "-n", "100");
        common.addAll(extra);
        List<String> c = PerftestPeers.args("/usr/bin/ib_send_bw", "-x", PerftestPeers.gidIndex());
        c.addAll(common);
        List<String> j = PerftestPeers.args("ib_send_bw", "--warmup", "0", "--timeout", "60");
        j.addAll(common);
        (javaServer ? c : j).add(PerftestPeers.serverIp());
        PerftestPeers.Peer server = javaServer ? PerftestPeers.startJava(j) : PerftestPeers.startC(c);
        PerftestPeers.awaitListening(port, 60);
        PerftestPeers.Peer client = javaServer ? PerftestPeers.startC(c) : PerftestPeers.startJava(j);
        PerftestPeers.Outcome co = client.await(120);
        PerftestPeers.Outcome so = server.await(90);
        String both = "\n--- client ---\n" + co.output() + "\n--- server ---\n" + so.output();
        return new Run(co, so, javaServer ? so.output() : co.output(), javaServer ? co.output() : so.output(), both);
    }
}
