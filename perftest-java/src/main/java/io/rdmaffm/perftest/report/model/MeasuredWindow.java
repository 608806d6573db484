package io.rdmaffm.perftest.report.model;

import java.util.List;
import java.util.Locale;

/**
 * What the JVM did while a loop was measured (schema 1, {@code measured_window}), from JDK Flight Recorder.
 *
 * @param compilations JIT compilations overlapping the window
 * @param osrCompilations of those, on-stack replacements
 * @param deoptimizations deoptimizations in the window
 * @param gcs garbage collections overlapping the window
 * @param gcPauseMs their pauses, ms
 * @param safepoints safepoints overlapping the window
 * @param safepointMs their time, ms
 * @param minorFaults the process's minor page faults in the window, -1 where the document has none
 * @param majorFaults its major page faults (reads from files while the loop ran), -1 where the document has none
 * @param loopRunqueueMs the measuring thread's time waiting for its CPU while something else ran there, ms (-1:
 *                       not in the document)
 * @param otherThreadsCpuMs the process's other threads' CPU time in the window, ms (-1: not in the document)
 * @param details the first few events by name
 */
public record MeasuredWindow(int compilations, int osrCompilations, int deoptimizations, int gcs, double gcPauseMs,
                             int safepoints, double safepointMs, long minorFaults, long majorFaults,
                             double loopRunqueueMs, double otherThreadsCpuMs, List<String> details) {

    public MeasuredWindow {
        details = details == null ? List.of() : List.copyOf(details);
    }

    /** Nothing that could disturb a measurement happened (minor page faults aside: every window has a few). */
    public boolean quiet() {
        return compilations == 0 && deoptimizations == 0 && gcs == 0 && safepoints == 0 && majorFaults <= 0;
    }

    /**
     * One line, e.g. {@code "2 JIT compilations (1 OSR), 0 deoptimizations, 1 GC (0.40 ms), 3 safepoints (0.12 ms)"},
     * with {@code ", 3 major page faults"} after it when there were any.
     */
    public String summary() {
        return String.format(Locale.ROOT, "%s (%d OSR), %s, %s (%.2f ms), %s (%.2f ms)%s",
                count(compilations, "JIT compilation"), osrCompilations, count(deoptimizations, "deoptimization"),
                count(gcs, "GC"), gcPauseMs, count(safepoints, "safepoint"), safepointMs,
                majorFaults > 0 ? ", " + count((int) Math.min(majorFaults, Integer.MAX_VALUE), "major page fault") : "");
    }

    /**
     * What else had the CPUs, e.g. {@code "the measuring thread waited 12.55 ms for its CPU; the JVM's other threads
     * ran 7.72 ms"}; null where the document does not say.
     */
    public String cpuSummary() {
        if (loopRunqueueMs < 0 || otherThreadsCpuMs < 0) {
            return null;
        }
        return String.format(Locale.ROOT, "the measuring thread waited %.2f ms for its CPU; the JVM's other threads"
                + " ran %.2f ms", loopRunqueueMs, otherThreadsCpuMs);
    }

    private static String count(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    static MeasuredWindow read(Fields f) {
        if (f == null) {
            return null;
        }
        return new MeasuredWindow(f.intOr("compilations", 0), f.intOr("osr_compilations", 0),
                f.intOr("deoptimizations", 0), f.intOr("gcs", 0), orZero(f.number("gc_pause_ms")),
                f.intOr("safepoints", 0), orZero(f.number("safepoint_ms")), count(f.number("minor_faults")),
                count(f.number("major_faults")), orUnknown(f.number("loop_thread_runqueue_ms")),
                orUnknown(f.number("other_threads_cpu_ms")), f.strings("details"));
    }

    private static long count(Double d) {
        return d == null ? -1 : d.longValue();
    }

    private static double orUnknown(Double d) {
        return d == null ? -1 : d;
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }
}
