package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.ProcessRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code matrix --format nhc|prometheus --prom-file}: standard output holds only the machine format (the report for
 * people goes to standard error), the exit status is the matrix's, and the file is written whole. The hosts cannot
 * be reached, so the run is fast and its verdicts known: every end failed, never a pass.
 */
class MatrixOutputsCommandTest {
    @TempDir
    Path dir;

    private static final ProcessRunner UNREACHABLE = command -> {
        String host = command.get(command.indexOf("--") + 1);
        return new MatrixCommandTest.ExitedRunning(255, "", "ssh: Could not resolve hostname " + host + "\n");
    };

    @Test
    void nhcIsOneLineOnStdoutWithTheMatrixExitStatusAndThePromFileIsWritten() throws Exception {
        Path prom = dir.resolve("rdma_matrix.prom");
        // The fake runner plays per-test ends (worker sessions to unreachable hosts: MatrixSshCommandTest).
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> c.runner = UNREACHABLE, "matrix", "--hosts",
                "nosuch1,nosuch2", "--tools", "ib_write_lat", "--no-retest", "--launch", "per-test", "--format", "nhc",
                "--prom-file",
                prom.toString());
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("ERROR: rdma-ffm matrix: nosuch1 HOST_FAILED: unreachable: ssh to nosuch1 failed (exit 255):"
                + " ssh: Could not resolve hostname nosuch1 (+1 more host ends)\n", r.out());
        assertTrue(r.err().contains("nosuch1: HOST_FAILED - unreachable"), "the report for people: " + r.err());
        assertTrue(r.err().contains("written: " + prom), r.err());
        String text = Files.readString(prom);
        assertTrue(text.contains("rdmaffm_matrix_host_healthy{host=\"nosuch1\",rail=\"0\",device=\"\"} 0\n"), text);
        // nosuch2's only test failed because of nosuch1: nothing was measured with it, so it is not healthy.
        assertTrue(text.contains("rdmaffm_matrix_host_healthy{host=\"nosuch2\",rail=\"0\",device=\"\"} 0\n"), text);
        assertTrue(text.contains("rdmaffm_matrix_host_verdict{host=\"nosuch2\",rail=\"0\",device=\"\","
                + "verdict=\"host_failed\"} 0\n"), text);
        assertTrue(text.contains("rdmaffm_matrix_host_peers{host=\"nosuch2\",rail=\"0\",device=\"\"} 0\n"), text);
        assertFalse(text.contains("\nrdmaffm_matrix_best_bandwidth_gbps "), "nothing measured: " + text);
        try (var s = Files.list(dir)) {
            assertEquals(List.of("rdma_matrix.prom"), s.map(p -> p.getFileName().toString()).toList(),
                    "no temporary file left");
        }
    }

    @Test
    void prometheusOnStdoutIsTheExpositionOnly() {
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> c.runner = UNREACHABLE, "matrix", "--hosts",
                "nosuch1,nosuch2", "--tools", "ib_write_lat", "--no-retest", "--format", "prometheus");
        assertEquals(2, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith("# HELP rdmaffm_matrix_host_healthy "), r.out());
        assertTrue(r.out().lines().allMatch(l -> l.startsWith("# ") || l.startsWith("rdmaffm_matrix_")), r.out());
        assertTrue(r.out().contains("rdmaffm_matrix_exit_status 2\n"), r.out());
        assertTrue(r.err().contains("\nmatrix: 2 hosts from --hosts"), r.err());
    }

    @Test
    void badOutputOptionsAreOneLineAndExit2() {
        for (String[] args : List.of(
                new String[] {"--prom-file", dir.resolve("no/such/m.prom").toString()},
                new String[] {"--prom-file", dir.toString()},
                new String[] {"--format", "xml"})) {
            String[] all = new String[args.length + 3];
            all[0] = "matrix";
            all[1] = "--hosts";
            all[2] = "a,b";
            System.arraycopy(args, 0, all, 3, args.length);
            MatrixCommandTest.Run r = MatrixCommandTest.run(c -> { }, all);
            assertEquals(2, r.code(), List.of(args) + r.err());
            assertTrue(r.err().startsWith("matrix: error: ") && r.err().indexOf('\n') == r.err().length() - 1,
                    r.err());
            assertEquals("", r.out());
            assertTrue(r.launched().isEmpty());
        }
    }
}
