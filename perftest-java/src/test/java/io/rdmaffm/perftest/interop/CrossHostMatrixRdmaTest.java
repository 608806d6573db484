package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * CI's short form of the matrix across three VMs (scripts/test.sh, multihost stage): one all-pairs matrix over
 * ssh in which one host's link is down. That host must be marked bad with both peers, the other pair measured
 * (each figure exactly what its tool printed), and the run must end within its bounds. The full form, a matrix
 * with every link up and every pair compared with the plain tool, is MatrixAcrossVmsRdmaTest
 * (scripts/matrix-vms.sh).
 */
@Tag("multihost")
class CrossHostMatrixRdmaTest {
    /**
     * How long the run may take: one round with a measured pair (two JVM starts one after the other: about 100 s
     * when measured here on a loaded machine) and two rounds whose ssh fails within its 5 s connect timeout.
     */
    private static final long BOUND_S = 480;

    @TempDir
    Path dir;

    @Test
    void aHostWhoseLinkIsDownIsBadWithEveryPeerAndTheRunStillEnds() throws Exception {
        MatrixOnVms vms = new MatrixOnVms(dir);
        String down = vms.hosts.get(2);
        Path flag = vms.linkDown(down);
        MatrixOnVms.Matrix m;
        try {
            m = vms.matrix("down", "--connect-timeout", "5");
        } finally {
            MatrixOnVms.linkUp(down, flag);
        }
        assertEquals(2, m.code(), m.out() + m.err());
        assertEquals("", m.err());
        assertTrue(m.seconds() < BOUND_S, m.seconds() + " s");
        assertEquals(3, m.pairs().size(), m.out());
        for (Map<?, ?> p : m.pairs()) {
            if (down.equals(p.get("server")) || down.equals(p.get("client"))) {
                assertEquals("FAILED", p.get("status"), p.toString());
                Map<?, ?> f = (Map<?, ?>) p.get("failure");
                assertNotNull(f, p.toString());
                assertEquals(List.of("UNREACHABLE", down), List.of(f.get("kind"), f.get("host")), p.toString());
            } else {
                assertEquals("OK", p.get("status"), p.toString());
                assertNull(((Map<?, ?>) p.get("first")).get("failure"), p.toString());
                assertTrue(((Number) p.get("bwGbps")).doubleValue() > 0, p.toString());
            }
        }
        assertEquals(1, MatrixOnVms.checkCellsAgainstTheToolsTables(m));
        String row = m.out().lines().filter(l -> l.startsWith(down + " ")).findFirst().orElseThrow();
        assertEquals(List.of(down, "!UNREACHABLE", "!UNREACHABLE", "-"), List.of(row.trim().split("\\s+")), row);
        assertTrue(m.out().contains(down + "/" + vms.device + ": HOST_FAILED - unreachable: ssh to " + down), m.out());
    }
}
