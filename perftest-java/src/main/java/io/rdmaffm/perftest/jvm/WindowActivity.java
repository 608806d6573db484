package io.rdmaffm.perftest.jvm;

import java.util.List;
import java.util.Locale;

/**
 * What the JVM did during one measured window: anything here ran on the CPUs the loop ran on, or stopped it.
 *
 * @param compilations JIT compilations that overlapped the window (any thread, any tier)
 * @param osrCompilations of those, on-stack replacements (a loop compiled while it ran)
 * @param deoptimizations frames sent back to the interpreter inside the window
 * @param gcs garbage collections that overlapped the window
 * @param gcPauseNanos their pauses, summed
 * @param safepoints safepoints that overlapped the window (every thread stopped)
 * @param safepointNanos their time, from the start of synchronization to the end
 * @param process what the operating system did to the process meanwhile (page faults, threads' CPU time)
 * @param details the first few events, e.g. {@code "compiled io.rdmaffm...Loops.bwClient (C2, OSR)"}
 */
public record WindowActivity(int compilations, int osrCompilations, int deoptimizations, int gcs, long gcPauseNanos,
                             int safepoints, long safepointNanos, ProcessActivity process, List<String> details) {

    /** At most this many details per window: enough to name the culprit, never a flood. */
    public static final int MAX_DETAILS = 16;

    public WindowActivity {
        details = List.copyOf(details);
        process = process == null ? ProcessActivity.UNKNOWN : process;
    }

    /** Nothing happened: no compilation, deoptimization, GC, safepoint or major page fault. */
    public boolean quiet() {
        return compilations == 0 && deoptimizations == 0 && gcs == 0 && safepoints == 0 && process.majorFaults() <= 0;
    }

    /** The sum of several windows (the rows of an {@code -a} sweep), for the one line under the table. */
    public WindowActivity plus(WindowActivity o) {
        List<String> d = new java.util.ArrayList<>(details);
        for (String s : o.details) {
            if (d.size() < MAX_DETAILS) {
                d.add(s);
            }
        }
        return new WindowActivity(compilations + o.compilations, osrCompilations + o.osrCompilations,
                deoptimizations + o.deoptimizations, gcs + o.gcs, gcPauseNanos + o.gcPauseNanos,
                safepoints + o.safepoints, safepointNanos + o.safepointNanos, process.plus(o.process), d);
    }

    /**
     * The line printed under a table whose window was not quiet, e.g.
     * {@code " JVM during the measured window: 2 JIT compilations (1 OSR), 0 deoptimizations, 0 GCs, 1 safepoint (0.05 ms)"},
     * with the major page faults after it when there were any.
     */
    public String summaryLine() {
        return String.format(Locale.ROOT, " JVM during the measured window: %s (%d OSR), %s, %s (%.2f ms), %s (%.2f ms)%s%n",
                count(compilations, "JIT compilation"), osrCompilations, count(deoptimizations, "deoptimization"),
                count(gcs, "GC"), gcPauseNanos / 1e6, count(safepoints, "safepoint"), safepointNanos / 1e6,
                process.majorFaults() > 0 ? ", " + process.majorFaults() + " major page fault"
                        + (process.majorFaults() == 1 ? "" : "s") : "");
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
