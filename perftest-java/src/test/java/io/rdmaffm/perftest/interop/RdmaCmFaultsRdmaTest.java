package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.cli.Main;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code -R} and {@code -z} runs that cannot happen end within their limits with one clear line, on the real
 * device: no server, no client. (C perftest's -R client gives up at once; its server waits forever.)
 */
@Tag("rdma")
class RdmaCmFaultsRdmaTest {

    @Test
    void clientWithoutServerGivesUpAfterItsTimeout() {
        int port = PerftestPeers.freshPort();
        long t0 = System.nanoTime();
        Run r = run("ib_write_bw", "-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(), "-R", "-p",
                String.valueOf(port), "--timeout", "3", "--warmup", "0", PerftestPeers.serverIp());
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(2, r.exit, r.out);
        assertTrue(r.out.contains("no perftest server with -R is listening on " + PerftestPeers.serverIp() + ":" + port),
                r.out);
        assertFalse(r.out.contains("\tat "), "no stack trace: " + r.out);
        // Retried every 100 ms while the 3 s lasted, then stopped (generous bound for an emulated CPU).
        assertTrue(seconds >= 2.5 && seconds < 30, "gave up after " + seconds + " s");
    }

    @Test
    void serverWithoutClientGivesUpAfterTheAcceptTimeout() {
        int port = PerftestPeers.freshPort();
        Run r = run("ib_send_lat", "-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(), "-z", "-p",
                String.valueOf(port), "--accept-timeout", "2", "--warmup", "0");
        assertEquals(2, r.exit, r.out);
        assertTrue(r.out.contains("no client connected (rdma_cm, port " + port + ") within 2 s"), r.out);
    }

    @Test
    void portIsFreeAgainAfterAFailedServer() {
        // The listener of a server that gave up is destroyed: a second server can bind the same port.
        int port = PerftestPeers.freshPort();
        for (int i = 0; i < 2; i++) {
            Run r = run("ib_write_bw", "-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(), "-R", "-p",
                    String.valueOf(port), "--accept-timeout", "1", "--warmup", "0");
            assertTrue(r.out.contains("no client connected"), "attempt " + i + ": " + r.out);
        }
    }

    private record Run(int exit, String out) {
    }

    private static Run run(String... args) {
        StringWriter sw = new StringWriter();
        PrintWriter pw = new PrintWriter(sw, true);
        CommandLine cl = Main.commandLine();
        cl.setOut(pw);
        cl.setErr(pw);
        int rc = cl.execute(args);
        pw.flush();
        return new Run(rc, sw.toString());
    }
}
