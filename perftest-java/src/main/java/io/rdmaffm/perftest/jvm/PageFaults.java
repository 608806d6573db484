package io.rdmaffm.perftest.jvm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * This process's page faults so far, from {@code /proc/self/stat} (fields 10 and 12: minflt, majflt), kept open
 * and re-read at each window's edge. A major fault is a read from a file (a page of the JVM, a jar or the AOT
 * cache touched for the first time): the thread waits for I/O, and a loop that takes one in its window is
 * stalled for the time of a disk or network read.
 */
final class PageFaults implements AutoCloseable {
    private final byte[] buf = new byte[1024];
    private final RandomAccessFile stat;

    PageFaults() {
        RandomAccessFile f;
        try {
            f = new RandomAccessFile("/proc/self/stat", "r");
        } catch (IOException e) {
            f = null; // no /proc: nothing known
        }
        stat = f;
    }

    /** {minor, major} so far, or null where /proc is not there or reads oddly. */
    long[] now() {
        int n = stat == null ? -1 : ProcBytes.read(stat, buf);
        return n > 0 ? parse(buf, n) : null;
    }

    /** {@link #parse(byte[], int)} of a line given as text (tests). */
    static long[] parse(String stat) {
        byte[] b = stat.getBytes(StandardCharsets.US_ASCII);
        return parse(b, b.length);
    }

    /** The command name (field 2) may hold spaces and parentheses: fields count after the last ')'. */
    static long[] parse(byte[] b, int length) {
        int from = ProcBytes.afterName(b, length);
        if (from < 0) {
            return null;
        }
        // After ')': state(3) ppid(4) pgrp(5) session(6) tty_nr(7) tpgid(8) flags(9) minflt(10) cminflt(11) majflt(12)
        long minor = ProcBytes.field(b, length, from + 1, 7);
        long major = ProcBytes.field(b, length, from + 1, 9);
        return minor < 0 || major < 0 ? null : new long[] {minor, major};
    }

    @Override
    public void close() {
        if (stat != null) {
            try {
                stat.close();
            } catch (IOException ignored) {
                // a /proc file
            }
        }
    }
}
