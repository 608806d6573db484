package io.rdmaffm.perftest.jvm;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the operating system did to the process during one measured window; -1 (or "") where it is not known.
 *
 * @param minorFaults        minor page faults (fresh pages handed out; a few in every window)
 * @param majorFaults        major page faults: reads from a file while the loop ran (the thread waits for I/O)
 * @param loopRunNanos       the measuring thread's time on its CPU
 * @param loopWaitNanos      the measuring thread's time runnable but waiting for a CPU (something else ran there)
 * @param otherThreadsNanos  the process's other threads' time on CPUs (compiler, GC, JFR, the JVM's periodic tasks;
 *                           a thread that ended inside the window is gone from /proc and not counted)
 * @param otherThreads       the busiest of them, e.g. {@code "C2 CompilerThre 1.200 ms; VM Periodic Tas 0.040 ms"}
 */
public record ProcessActivity(long minorFaults, long majorFaults, long loopRunNanos, long loopWaitNanos,
                              long otherThreadsNanos, String otherThreads) {

    /** Other threads named in {@link #otherThreads()}: the busiest few. */
    static final int NAMED_THREADS = 4;

    /** Nothing known. */
    public static final ProcessActivity UNKNOWN = new ProcessActivity(-1, -1, -1, -1, -1, "");

    public ProcessActivity {
        otherThreads = otherThreads == null ? "" : otherThreads;
    }

    /**
     * The sum over several windows (unknown where either is); the busiest other threads of both, their times added
     * by name (an -a sweep's total names the few busiest of all its windows, not every window's).
     */
    public ProcessActivity plus(ProcessActivity o) {
        String names = mergeNamed(otherThreads, o.otherThreads);
        return new ProcessActivity(sum(minorFaults, o.minorFaults), sum(majorFaults, o.majorFaults),
                sum(loopRunNanos, o.loopRunNanos), sum(loopWaitNanos, o.loopWaitNanos),
                sum(otherThreadsNanos, o.otherThreadsNanos), names);
    }

    private static long sum(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }

    /** Two "name 1.200 ms; name 0.040 ms" lists as one, times added by name, the busiest first. */
    static String mergeNamed(String a, String b) {
        if (a.isEmpty() || b.isEmpty()) {
            return a.isEmpty() ? b : a;
        }
        Map<String, Double> ms = new LinkedHashMap<>();
        parseNamed(a, ms);
        parseNamed(b, ms);
        List<Map.Entry<String, Double>> busiest = new ArrayList<>(ms.entrySet());
        busiest.sort((x, y) -> Double.compare(y.getValue(), x.getValue()));
        StringBuilder named = new StringBuilder();
        for (int k = 0; k < Math.min(NAMED_THREADS, busiest.size()); k++) {
            named.append(k == 0 ? "" : "; ").append(busiest.get(k).getKey())
                    .append(String.format(Locale.ROOT, " %.3f ms", busiest.get(k).getValue()));
        }
        return named.toString();
    }

    /** Adds a "name 1.200 ms; name 0.040 ms" list's times to {@code into} by name, in the list's order. */
    static void parseNamed(String list, Map<String, Double> into) {
        for (String entry : list.split("; ")) {
            int unit = entry.lastIndexOf(" ms");
            int space = unit < 0 ? -1 : entry.lastIndexOf(' ', unit - 1);
            if (space < 0) {
                into.merge(entry, 0.0, Double::sum);
                continue;
            }
            double v;
            try {
                v = Double.parseDouble(entry.substring(space + 1, unit));
            } catch (NumberFormatException e) {
                v = 0;
            }
            into.merge(entry.substring(0, space), v, Double::sum);
        }
    }
}
