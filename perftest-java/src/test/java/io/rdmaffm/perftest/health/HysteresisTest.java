package io.rdmaffm.perftest.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The node's state changes only after k disagreeing runs in a row, both ways; the state file round-trips. */
class HysteresisTest {
    @TempDir
    Path dir;

    @Test
    void theStateFlipsOnlyAfterKDisagreeingRunsInARow() {
        int k = 3;
        Hysteresis s = new Hysteresis(true, 0);
        s = s.next(false, k);
        assertEquals(new Hysteresis(true, 1), s);
        s = s.next(true, k);
        assertEquals(new Hysteresis(true, 0), s, "a pass in between starts the count again");
        s = s.next(false, k).next(false, k);
        assertEquals(new Hysteresis(true, 2), s);
        s = s.next(false, k);
        assertEquals(new Hysteresis(false, 0), s, "the third failure in a row FAILs the node");
        s = s.next(true, k).next(true, k);
        assertEquals(new Hysteresis(false, 2), s, "two passes do not yet recover it");
        s = s.next(true, k);
        assertEquals(new Hysteresis(true, 0), s);
        assertEquals(new Hysteresis(false, 0), new Hysteresis(true, 0).next(false, 1), "k = 1: no hysteresis");
    }

    @Test
    void theStateFileRoundTripsAndAnythingElseIsRefused() throws Exception {
        Path f = dir.resolve("health.state");
        assertNull(Hysteresis.read(f), "no file yet: no state");
        new Hysteresis(false, 2).write(f);
        assertEquals(new Hysteresis(false, 2), Hysteresis.read(f));
        try (var s = Files.list(dir)) {
            assertEquals(1, s.count(), "no temporary file left behind");
        }
        Files.writeString(f, "state = MAYBE\nstreak = 0\n");
        String msg = assertThrows(IllegalArgumentException.class, () -> Hysteresis.read(f)).getMessage();
        assertTrue(msg.endsWith("health.state is not a health state file (want state = PASS|FAIL and streak = N); "
                + "remove it to start afresh"), msg);
    }
}
