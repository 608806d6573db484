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
        long n0 = System.nanoTime();
        long c0 = clock.nanoTime();
        LockSupport.parkNanos(100_000_000L);
        long c1 = clock.nanoTime();
        long n1 = System.nanoTime();
        // Same origin: read right after nanoTime, within a millisecond of it (a shared machine may pause us).
        assertTrue(Math.abs(c0 - n0) < 1_000_000, "clock " + c0 + " vs nanoTime " + n0);
        // Same scale: a 100 ms interval agrees within 2% (bounds on both sides, so a wrong rate fails).
        double ratio = (double) (c1 - c0) / (n1 - n0);
        assertTrue(ratio > 0.98 && ratio < 1.02, "interval ratio " + ratio + " (" + clock + ")");
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
