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
 * @param details the first few events by name
 */
public record MeasuredWindow(int compilations, int osrCompilations, int deoptimizations, int gcs, double gcPauseMs,
                             int safepoints, double safepointMs, List<String> details) {

    public MeasuredWindow {
        details = details == null ? List.of() : List.copyOf(details);
    }

    /** Nothing that could disturb a measurement happened. */
    public boolean quiet() {
        return compilations == 0 && deoptimizations == 0 && gcs == 0 && safepoints == 0;
    }

    /** One line, e.g. {@code "2 JIT compilations (1 OSR), 0 deoptimizations, 1 GC (0.40 ms), 3 safepoints (0.12 ms)"}. */
    public String summary() {
        return String.format(Locale.ROOT, "%s (%d OSR), %s, %s (%.2f ms), %s (%.2f ms)",
                count(compilations, "JIT compilation"), osrCompilations, count(deoptimizations, "deoptimization"),
                count(gcs, "GC"), gcPauseMs, count(safepoints, "safepoint"), safepointMs);
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
                f.intOr("safepoints", 0), orZero(f.number("safepoint_ms")), f.strings("details"));
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }
}
