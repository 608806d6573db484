package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Shim;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * A clock for timing data-path operations: {@link System#nanoTime()}'s scale at a little over half its cost. It
 * reads the CPU's cycle counter ({@code rdtsc} on x86-64, {@code cntvct_el0} on AArch64, as perftest's
 * {@code get_cycles}) through a critical downcall to the shim's {@code rdmaffm_cycles}, and scales it to
 * nanoseconds by a calibration against {@code System.nanoTime}. Under a JVM, {@code System.nanoTime} is the
 * JVM's wrapper, libc's {@code clock_gettime} and the vDSO, about 80 instructions; this clock's read is about
 * 44 (the downcall's stub, the counter, the scaling), measured on a latency loop that reads it once per
 * operation.
 * <p>
 * The counter is used only where the kernel itself keeps time by it (its clocksource is {@code tsc} or
 * {@code arch_sys_counter}): then it runs at a constant rate and agrees across CPUs, as the kernel's own
 * monotonic clock relies on. Anywhere else {@link #nanoTime()} is {@code System.nanoTime()}. Immutable; one
 * instance may be shared by any number of threads. Reading it allocates nothing.
 */
public final class CycleClock {
    private static final Path CLOCKSOURCE = Path.of("/sys/devices/system/clocksource/clocksource0/current_clocksource");

    private final boolean counter;
    private final long baseCycles;
    private final long baseNanos;
    /** Nanoseconds per cycle: a whole part and a fraction scaled by 2^63 (both 0 without the counter). */
    private final long wholeNanosPerCycle;
    private final long fractionNanosPerCycleQ63;
    private final double cyclesPerSecond;

    private CycleClock(boolean counter, long baseCycles, long baseNanos, double nanosPerCycle) {
        this.counter = counter;
        this.baseCycles = baseCycles;
        this.baseNanos = baseNanos;
        long whole = (long) Math.floor(nanosPerCycle);
        this.wholeNanosPerCycle = whole;
        this.fractionNanosPerCycleQ63 = (long) ((nanosPerCycle - whole) * 0x1p63);
        this.cyclesPerSecond = counter ? 1e9 / nanosPerCycle : 0;
    }

    /**
     * The cycle counter where the kernel's clocksource is one, calibrated against {@code System.nanoTime} over
     * {@code over} (the calling thread sleeps meanwhile; 20 ms gives the rate to within about 0.01% even under
     * emulation, where a pair of readings is a microsecond wide);
     * otherwise {@link #systemNanoTime()}.
     */
    public static CycleClock calibrate(Duration over) {
        if (over.isNegative() || over.isZero()) {
            throw new IllegalArgumentException("calibration time must be positive: " + over);
        }
        return kernelKeepsTimeByCounter() ? calibrateCounter(over) : systemNanoTime();
    }

    /** {@link #calibrate} without asking the kernel first (tests, on machines whose clocksource is another). */
    static CycleClock calibrateCounter(Duration over) {
        long span = over.toNanos();
        long[] start = pairedReading();
        LockSupport.parkNanos(span);
        long[] end = pairedReading();
        long cycles = end[0] - start[0];
        long nanos = end[1] - start[1];
        if (start[0] == 0 || cycles <= 0 || nanos <= 0) {
            return systemNanoTime();
        }
        return new CycleClock(true, start[0], start[1], (double) nanos / cycles);
    }

    /** A clock that is {@code System.nanoTime()}. */
    public static CycleClock systemNanoTime() {
        return new CycleClock(false, 0, 0, 0);
    }

    /** Nanoseconds on {@code System.nanoTime}'s scale (same origin, to within the calibration's accuracy). */
    public long nanoTime() {
        if (!counter) {
            return System.nanoTime();
        }
        long d = cycles() - baseCycles;
        return baseNanos + d * wholeNanosPerCycle + (Math.multiplyHigh(d, fractionNanosPerCycleQ63) << 1);
    }

    /** Whether {@link #nanoTime()} reads the cycle counter (false: it is {@code System.nanoTime()}). */
    public boolean usesCycleCounter() {
        return counter;
    }

    /** The counter's calibrated rate in cycles per second; 0 without the counter. */
    public double cyclesPerSecond() {
        return cyclesPerSecond;
    }

    @Override
    public String toString() {
        return counter ? String.format("cycle counter at %.6f GHz", cyclesPerSecond / 1e9) : "System.nanoTime";
    }

    private static long cycles() {
        try {
            return (long) Shim.Cycles.rdmaffm_cycles.invokeExact();
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    /**
     * A counter reading and the nanoTime at the same moment: the counter read between two nanoTime reads, the
     * tightest of five such brackets, its nanoTime the bracket's middle.
     */
    private static long[] pairedReading() {
        long bestWidth = Long.MAX_VALUE;
        long[] best = new long[2];
        for (int i = 0; i < 5; i++) {
            long before = System.nanoTime();
            long c = cycles();
            long after = System.nanoTime();
            if (after - before < bestWidth) {
                bestWidth = after - before;
                best[0] = c;
                best[1] = before + (after - before) / 2;
            }
        }
        return best;
    }

    private static boolean kernelKeepsTimeByCounter() {
        try {
            String source = Files.readString(CLOCKSOURCE).strip();
            return source.equals("tsc") || source.equals("arch_sys_counter");
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
