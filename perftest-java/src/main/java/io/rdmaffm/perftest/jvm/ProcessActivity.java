package io.rdmaffm.perftest.jvm;

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

    /** Nothing known. */
    public static final ProcessActivity UNKNOWN = new ProcessActivity(-1, -1, -1, -1, -1, "");

    public ProcessActivity {
        otherThreads = otherThreads == null ? "" : otherThreads;
    }

    /** The sum over several windows (unknown where either is). */
    public ProcessActivity plus(ProcessActivity o) {
        String names = otherThreads.isEmpty() ? o.otherThreads
                : o.otherThreads.isEmpty() ? otherThreads : otherThreads + "; " + o.otherThreads;
        return new ProcessActivity(sum(minorFaults, o.minorFaults), sum(majorFaults, o.majorFaults),
                sum(loopRunNanos, o.loopRunNanos), sum(loopWaitNanos, o.loopWaitNanos),
                sum(otherThreadsNanos, o.otherThreadsNanos), names);
    }

    private static long sum(long a, long b) {
        return a < 0 || b < 0 ? -1 : a + b;
    }
}
