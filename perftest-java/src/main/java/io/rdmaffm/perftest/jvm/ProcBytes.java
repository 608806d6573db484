package io.rdmaffm.perftest.jvm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;

/**
 * Small /proc files read and parsed as bytes, for the readings taken at a measured window's edges: no NIO
 * channels, no regular expressions, no strings, and at the edges themselves only files kept open, so that the
 * reading queues no JIT compilation that would then run inside the window (a JDK method pushed past its
 * threshold by the last call compiles while the loop runs; seen with {@code String.split}, {@code IOUtil.read}
 * and the JDK's file opening).
 */
final class ProcBytes {
    /** Parser calls per {@link #exercise}: past the thresholds at which C1 and then C2 compile a method whole. */
    static final int PARSER_CALLS = 2_000;
    /**
     * Re-readings per {@link #exercise}: each reads every thread's file once. With 15 (about 300 reads), C1 still
     * compiled the per-thread read inside one window in eight (tiered compilation delays tier 3 while C2 is
     * busy, as it is before the warm-up); 40 puts them well past it.
     */
    static final int READINGS = 40;
    private static final byte[] SAMPLE = ("4242 (C2 CompilerThre) S 4200 4200 4100 0 -1 1077936192 2130 0 7 0 517 83"
            + " 0 0 20 0 21 0 5578385 3133440 412\n").getBytes(StandardCharsets.US_ASCII);
    /** Where {@link #exercise} leaves its results, so that the JIT cannot drop the calls. */
    private static volatile long parsed;

    private ProcBytes() {
    }

    /**
     * Before the warm-up: the parsers and the kept files' re-reading compiled now, while the warm-up waits for a
     * quiet compiler, rather than at whichever window's edge first pushed them past a threshold (seen: C1
     * compiling a reader inside the window it was reading for).
     */
    static void exercise(ThreadTimes threads, PageFaults faults) {
        long sum = 0;
        for (int i = 0; i < PARSER_CALLS; i++) {
            int from = afterName(SAMPLE, SAMPLE.length);
            sum += field(SAMPLE, SAMPLE.length, from + 1, 7) + field(SAMPLE, SAMPLE.length, 0, 0);
        }
        for (int i = 0; i < READINGS; i++) {
            ThreadTimes.Snapshot s = threads.take(i % 2 == 0);
            long[] f = faults.now();
            sum += (s == null ? 0 : s.run()[0]) + (f == null ? 0 : f[0]);
        }
        parsed = sum;
    }

    /** Opens, reads into {@code buf} and closes the file; the number of bytes, or -1 (not at a window's edge). */
    static int read(String path, byte[] buf) {
        try (RandomAccessFile f = new RandomAccessFile(path, "r")) {
            return read(f, buf);
        } catch (IOException e) {
            return -1;
        }
    }

    /** Reads an open file from its start into {@code buf}; the number of bytes, or -1. */
    static int read(RandomAccessFile f, byte[] buf) {
        try {
            f.seek(0);
            int n = 0;
            int r;
            while (n < buf.length && (r = f.read(buf, n, buf.length - n)) > 0) {
                n += r;
            }
            return n;
        } catch (IOException e) {
            return -1;
        }
    }

    /** The number in space-separated field {@code field} (0-based) counted from {@code from}; -1 if none. */
    static long field(byte[] b, int length, int from, int field) {
        int at = from;
        for (int f = 0; f < field; f++) {
            while (at < length && b[at] != ' ') {
                at++;
            }
            while (at < length && b[at] == ' ') {
                at++;
            }
        }
        if (at >= length || b[at] < '0' || b[at] > '9') {
            return -1;
        }
        long v = 0;
        while (at < length && b[at] >= '0' && b[at] <= '9') {
            v = v * 10 + (b[at++] - '0');
        }
        return v;
    }

    /** The position just after the last ')' (the end of a stat line's command name), or -1. */
    static int afterName(byte[] b, int length) {
        for (int at = length - 1; at >= 0; at--) {
            if (b[at] == ')') {
                return at + 1;
            }
        }
        return -1;
    }
}
