package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.verbs.CycleClock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code -C/--report-cycles}: how long one CPU cycle is, to print latencies in cycles as perftest prints its raw
 * {@code get_cycles} deltas. The loops' stamps are nanoseconds: where the loops read the cycle counter its
 * calibrated rate gives the period exactly; where they read {@code System.nanoTime} (the kernel keeps time by
 * another clocksource, e.g. in a VM), perftest's own source of the rate, {@code /proc/cpuinfo}'s "cpu MHz".
 */
public final class CyclePeriod {
    private CyclePeriod() {
    }

    /** The period for the loops' clock, from {@code /proc/cpuinfo} where that clock is not the counter. */
    public static double nanosPerCycle() {
        return of(VerbsSide.clock(), Path.of("/proc/cpuinfo"));
    }

    /**
     * The period of {@code clock}'s counter, else from {@code cpuinfo}.
     *
     * @throws InvalidParameterException where neither gives a rate (bad set-up for -C)
     */
    static double of(CycleClock clock, Path cpuinfo) {
        if (clock.usesCycleCounter() && clock.cyclesPerSecond() > 0) {
            return 1e9 / clock.cyclesPerSecond();
        }
        double mhz = 0;
        try {
            mhz = cpuMhz(Files.readString(cpuinfo));
        } catch (IOException e) {
            // no /proc: said below
        }
        if (!(mhz > 0)) {
            throw new InvalidParameterException("-C/--report-cycles: no cycle rate here (the loops time by "
                    + "System.nanoTime and " + cpuinfo + " has no \"cpu MHz\")");
        }
        return 1000.0 / mhz;
    }

    /** The first "cpu MHz" of a /proc/cpuinfo text, or 0. */
    static double cpuMhz(String cpuinfo) {
        for (String line : cpuinfo.split("\n")) {
            if (line.startsWith("cpu MHz")) {
                int colon = line.indexOf(':');
                try {
                    return Double.parseDouble(line.substring(colon + 1).trim());
                } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
                    return 0;
                }
            }
        }
        return 0;
    }
}
