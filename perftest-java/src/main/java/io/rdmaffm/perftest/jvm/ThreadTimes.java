package io.rdmaffm.perftest.jvm;

import java.io.File;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * What this process's threads did on their CPUs, from {@code /proc/self/task/<tid>/schedstat} (time on a CPU,
 * time waiting on a runqueue, in ns): read at a window's edges, it says how long the measuring thread waited
 * for its CPU while something else ran there, and which of the JVM's other threads ran meanwhile.
 *
 * <p>The files are opened by {@link #rescan} (before the compiler is let settle for a window, and after each
 * window) and only re-read at the edges: opening files runs JDK code (paths, cleaners) that a window's edge
 * pushed past C1's threshold, and C1 then compiled it inside the window. A thread born after the last rescan is
 * not counted.
 */
final class ThreadTimes implements AutoCloseable {
    private final byte[] buf = new byte[256];
    private long self = -1;
    private long[] tids = new long[0];
    private RandomAccessFile[] files = new RandomAccessFile[0];

    /** One reading: every watched thread's run and wait nanoseconds (-1 where a thread could not be read). */
    record Snapshot(long self, long[] tids, long[] run, long[] waited) {
        int indexOf(long tid) {
            return ThreadTimes.indexOf(tids, tid);
        }
    }

    /** Opens the schedstat file of every thread now alive; the calling thread is the one measured. */
    void rescan() {
        closeFiles();
        int n = ProcBytes.read("/proc/thread-self/stat", buf);
        String[] names = new File("/proc/self/task").list();
        if (n <= 0 || names == null) {
            return;
        }
        self = ProcBytes.field(buf, n, 0, 0);
        long[] ids = new long[names.length];
        RandomAccessFile[] opened = new RandomAccessFile[names.length];
        int k = 0;
        for (String name : names) {
            long tid = digits(name);
            if (tid < 0) {
                continue;
            }
            try {
                opened[k] = new RandomAccessFile(new StringBuilder(40).append("/proc/self/task/").append(name)
                        .append("/schedstat").toString(), "r");
                ids[k++] = tid;
            } catch (IOException e) {
                // the thread ended while we looked
            }
        }
        tids = Arrays.copyOf(ids, k);
        files = Arrays.copyOf(opened, k);
    }

    /**
     * Every watched thread's times now, the measured thread's read first ({@code selfFirst}, at a window's end) or
     * last (at its start), so that the reading's own time falls outside its figures; null if it is not watched.
     */
    Snapshot take(boolean selfFirst) {
        int me = indexOf(tids, self);
        if (me < 0) {
            return null;
        }
        long[] run = new long[tids.length];
        long[] waited = new long[tids.length];
        if (selfFirst) {
            read(me, run, waited);
        }
        for (int i = 0; i < tids.length; i++) {
            if (i != me) {
                read(i, run, waited);
            }
        }
        if (!selfFirst) {
            read(me, run, waited);
        }
        return run[me] < 0 ? null : new Snapshot(self, tids, run, waited);
    }

    private void read(int i, long[] run, long[] waited) {
        int m = ProcBytes.read(files[i], buf);
        run[i] = m > 0 ? ProcBytes.field(buf, m, 0, 0) : -1;
        waited[i] = m > 0 ? ProcBytes.field(buf, m, 0, 1) : -1;
    }

    private static int indexOf(long[] tids, long tid) {
        for (int i = 0; i < tids.length; i++) {
            if (tids[i] == tid) {
                return i;
            }
        }
        return -1;
    }

    /** {run, wait} from a schedstat line ("run_ns wait_ns timeslices"), or null (tests). */
    static long[] parse(String schedstat) {
        byte[] b = schedstat.getBytes(StandardCharsets.US_ASCII);
        long run = ProcBytes.field(b, b.length, 0, 0);
        long wait = ProcBytes.field(b, b.length, 0, 1);
        return run < 0 || wait < 0 ? null : new long[] {run, wait};
    }

    /**
     * From {@code before} to {@code after}: the measured thread's run and wait, the other threads' run summed
     * and the busiest of them named (after the window: names are read then).
     */
    static ProcessActivity between(Snapshot before, Snapshot after, long minorFaults, long majorFaults) {
        if (before == null || after == null || before.self() != after.self()) {
            return new ProcessActivity(minorFaults, majorFaults, -1, -1, -1, "");
        }
        int sb = before.indexOf(before.self());
        int sa = after.indexOf(after.self());
        long[] ran = new long[after.tids().length];
        long others = 0;
        for (int i = 0; i < ran.length; i++) {
            int j = before.indexOf(after.tids()[i]);
            if (i == sa || j < 0 || after.run()[i] < 0 || before.run()[j] < 0) {
                continue;
            }
            ran[i] = Math.max(0, after.run()[i] - before.run()[j]);
            others += ran[i];
        }
        StringBuilder named = new StringBuilder();
        for (int k = 0; k < ProcessActivity.NAMED_THREADS; k++) {
            int top = -1;
            for (int i = 0; i < ran.length; i++) {
                if (ran[i] > 0 && (top < 0 || ran[i] > ran[top])) {
                    top = i;
                }
            }
            if (top < 0) {
                break;
            }
            named.append(k == 0 ? "" : "; ").append(comm(after.tids()[top]))
                    .append(String.format(Locale.ROOT, " %.3f ms", ran[top] / 1e6));
            ran[top] = 0;
        }
        return new ProcessActivity(minorFaults, majorFaults, after.run()[sa] - before.run()[sb],
                after.waited()[sa] - before.waited()[sb], others, named.toString());
    }

    private static String comm(long tid) {
        byte[] b = new byte[64];
        int n = ProcBytes.read("/proc/self/task/" + tid + "/comm", b);
        while (n > 0 && (b[n - 1] == '\n' || b[n - 1] == ' ')) {
            n--;
        }
        return n > 0 ? new String(b, 0, n, StandardCharsets.US_ASCII) : "thread " + tid;
    }

    private static long digits(String s) {
        long v = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return s.isEmpty() ? -1 : v;
    }

    private void closeFiles() {
        for (RandomAccessFile f : files) {
            try {
                f.close();
            } catch (IOException ignored) {
                // a /proc file
            }
        }
        files = new RandomAccessFile[0];
        tids = new long[0];
    }

    @Override
    public void close() {
        closeFiles();
    }
}
