package io.rdmaffm.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The progress line of long runs: its text, when it appears and goes, and that it is off unless stderr is a tty. */
class RunProgressTest {
    private static final long S = TimeUnit.SECONDS.toNanos(1);

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream sink = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private long now;

    private String taken() {
        String s = bytes.toString(StandardCharsets.UTF_8);
        bytes.reset();
        return s;
    }

    @Test
    void aSweepShowsSizeElapsedAndEtaAfterTheQuietStartAndErasesItBeforeEachRow() {
        RunProgress p = new RunProgress(sink, true, () -> now, "ib_write_bw", List.of(2L, 4L, 8L, 16L), 0);
        p.starting(0);
        now = S;
        p.tick();
        assertEquals("", taken(), "nothing during the first two seconds");
        p.finished(0);
        p.starting(1);
        now = 2 * S;
        p.finished(1);
        p.starting(2);
        now = 3 * S;
        p.tick();
        // 1 s per size so far: sizes 8 and 16 cost 2 s, 1 s of it already spent
        assertEquals("\rib_write_bw: size 8 B (3/4), elapsed 0:03, ETA 0:01\033[K", taken());
        p.finished(2);
        assertEquals("\r\033[K", taken(), "erased before the row is printed");
        p.tick();
        assertEquals("", taken(), "nothing between sizes: the row goes to stdout then");
        p.close();
        assertEquals("", taken());
    }

    @Test
    void etaFollowsTheGrowthOfTheLastTwoSizes() {
        RunProgress p = new RunProgress(sink, true, () -> now, "ib_send_lat", List.of(1000L, 2000L, 4000L, 8000L), 0);
        p.starting(0);
        now = 2 * S;
        p.finished(0);
        p.starting(1);
        now = 6 * S; // 2 s, then 4 s: 2 ms per byte, nothing fixed
        p.finished(1);
        p.starting(2);
        p.tick();
        // 4000 B: 8 s, 8000 B: 16 s
        assertEquals("\rib_send_lat: size 4000 B (3/4), elapsed 0:06, ETA 0:24\033[K", taken());
    }

    @Test
    void aDurationRunCountsDownItsSeconds() {
        RunProgress p = new RunProgress(sink, true, () -> now, "ib_write_bw", List.of(65536L), 60);
        p.starting(0);
        now = 75 * S / 10;
        p.tick();
        assertEquals("\rib_write_bw: size 65536 B, elapsed 0:07, ETA 0:52\033[K", taken());
        p.close();
        assertEquals("\r\033[K", taken(), "closing erases the line");
    }

    @Test
    void offItPrintsNothingAndHasNoThread() {
        RunProgress p = new RunProgress(sink, false, () -> now, "ib_write_bw", List.of(2L, 4L), 60);
        p.starting(0);
        now = 100 * S;
        p.tick();
        p.finished(0);
        p.close();
        assertEquals("", taken());
        assertFalse(p.ticking());
    }

    @Test
    void onlyOnATerminalUnlessForced() {
        assertTrue(RunProgress.enabled("auto", true));
        assertFalse(RunProgress.enabled("auto", false));
        assertTrue(RunProgress.enabled("always", false));
        assertFalse(RunProgress.enabled("never", true));
        // Surefire's stderr is a pipe: a run here gets no ticker unless forced.
        assertFalse(RunProgress.stderrIsTerminal());
        String before = System.getProperty(RunProgress.PROPERTY);
        try {
            System.clearProperty(RunProgress.PROPERTY);
            try (RunProgress auto = RunProgress.forRun("ib_write_bw", List.of(2L), 0)) {
                assertFalse(auto.ticking());
            }
            System.setProperty(RunProgress.PROPERTY, "always");
            try (RunProgress forced = RunProgress.forRun("ib_write_bw", List.of(2L), 0)) {
                assertTrue(forced.ticking());
            }
        } finally {
            if (before == null) {
                System.clearProperty(RunProgress.PROPERTY);
            } else {
                System.setProperty(RunProgress.PROPERTY, before);
            }
        }
    }
}
