package io.rdmaffm.verbs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cycle clock against System.nanoTime, without a device: the counter's scaling (calibrated here whatever the
 * kernel's clocksource, as x86-64 and AArch64 always have the counter), its agreement over a later interval, its
 * monotonicity, and the choice calibrate() makes from the kernel's clocksource.
 */
class CycleClockTest {
    @Test
    void theCounterKeepsNanoTimesScaleAndOrigin() {
        CycleClock clock = CycleClock.calibrateCounter(Duration.ofMillis(20));
        assertTrue(clock.usesCycleCounter(), "this CPU has a cycle counter: " + clock);
        assertTrue(clock.cyclesPerSecond() > 1e6, clock.toString());
        // Each reading of the clock is bracketed by two of nanoTime: a pause of this thread between the reads (a
        // loaded two-core machine preempts it for milliseconds) widens the bracket instead of failing the test,
        // while a wrong origin or rate still falls outside it. Three tries, so one long pause cannot decide.
        String last = "";
        for (int attempt = 0; attempt < 3; attempt++) {
            long n0a = System.nanoTime();
            long c0 = clock.nanoTime();
            long n0b = System.nanoTime();
            LockSupport.parkNanos(100_000_000L);
            long n1a = System.nanoTime();
            long c1 = clock.nanoTime();
            long n1b = System.nanoTime();
            // Same origin: within the bracket, give or take 1 ms of calibration error.
            boolean origin = c0 >= n0a - 1_000_000 && c0 <= n0b + 1_000_000;
            // Same scale: the clock's interval within 2% of the shortest and longest nanoTime intervals it can be.
            long shortest = n1a - n0b;
            long longest = n1b - n0a;
            long interval = c1 - c0;
            boolean scale = interval >= 0.98 * shortest && interval <= 1.02 * longest;
            if (origin && scale) {
                return;
            }
            last = "try " + attempt + ": clock " + c0 + " in [" + n0a + ", " + n0b + "]? interval " + interval
                    + " in 0.98*" + shortest + " .. 1.02*" + longest + "? (" + clock + ")";
        }
        throw new AssertionError("the cycle clock disagrees with nanoTime in three tries; last: " + last);
    }

    @Test
    void theCounterNeverRunsBackwardsOnOneThread() {
        CycleClock clock = CycleClock.calibrateCounter(Duration.ofMillis(5));
        long previous = clock.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            long now = clock.nanoTime();
            assertTrue(now >= previous, "read " + i + " went back from " + previous + " to " + now);
            previous = now;
        }
    }

    @Test
    void withoutTheCounterItIsNanoTime() {
        CycleClock clock = CycleClock.systemNanoTime();
        assertFalse(clock.usesCycleCounter());
        assertEquals(0.0, clock.cyclesPerSecond());
        long before = System.nanoTime();
        long t = clock.nanoTime();
        long after = System.nanoTime();
        assertTrue(t >= before && t <= after, before + " <= " + t + " <= " + after);
        assertEquals("System.nanoTime", clock.toString());
    }

    @Test
    void calibrateUsesTheCounterExactlyWhereTheKernelKeepsTimeByIt() throws IOException {
        Path source = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");
        boolean kernelUsesCounter = Files.isReadable(source)
                && (Files.readString(source).strip().equals("tsc") || Files.readString(source).strip().equals("arch_sys_counter"));
        assertEquals(kernelUsesCounter, CycleClock.calibrate(Duration.ofMillis(5)).usesCycleCounter());
    }

    @Test
    void aCalibrationNeedsTime() {
        assertThrows(IllegalArgumentException.class, () -> CycleClock.calibrate(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> CycleClock.calibrate(Duration.ofMillis(-1)));
    }
}
