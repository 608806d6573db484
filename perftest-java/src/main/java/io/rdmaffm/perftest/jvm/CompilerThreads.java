package io.rdmaffm.perftest.jvm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * CPU time of this JVM's JIT compiler threads, from {@code /proc/self/task}. A count of finished compilations
 * cannot tell an idle compiler from one that is half-way through a long compile (one C2 compile takes seconds
 * on an emulated CPU); the compiler threads' CPU time can: it stands still only when they have nothing to do.
 *
 * <p>The waits that poll this run during the warm-up and just before a measured window, so its own code must
 * not keep the compiler busy: the compiler threads are looked up once a second, and each poll re-reads their
 * open {@code stat} files into one buffer and parses the bytes (no NIO file channels, no strings).
 */
public final class CompilerThreads {
    private static final long RESCAN_NANOS = 1_000_000_000L;

    /**
     * Parser calls per {@link #exerciseParser}: past tiered C2's thresholds for compiling a method as a whole
     * (600 invocations with 15,000 invocations plus loop iterations; a stat line is some 250 iterations).
     */
    static final int PARSER_CALLS = 2_000;
    /** A compiler thread's stat line as a 6.1 kernel writes it. */
    private static final byte[] SAMPLE_STAT = ("4242 (C2 CompilerThre) S 4200 4200 4100 0 -1 1077936192 2130 0 0 0"
            + " 517 83 0 0 20 0 21 0 5578385 3133440 412 18446744073709551615 93970861887488 93970861907369"
            + " 140731330792224 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 93970861923376 93970861924992 93971057201152"
            + " 140731330796053 140731330796073 140731330796073 140731330797547 0\n").getBytes(StandardCharsets.US_ASCII);

    private static final List<RandomAccessFile> STATS = new ArrayList<>();
    private static final byte[] BUFFER = new byte[1024];
    private static long scanned;
    /** Where {@link #exerciseParser} leaves its results, so that the JIT cannot drop the calls. */
    private static volatile long parsed;

    private CompilerThreads() {
    }

    /**
     * User plus system time, in clock ticks, of the threads named "C1 CompilerThreadN" or "C2 CompilerThreadN"
     * (the kernel keeps 15 characters of a thread's name); -1 where {@code /proc} does not say.
     */
    public static synchronized long cpuTicks() {
        long now = System.nanoTime();
        if (scanned == 0 || now - scanned > RESCAN_NANOS) {
            if (!rescan()) {
                return -1;
            }
            scanned = now;
        }
        long ticks = 0;
        for (int i = 0; i < STATS.size(); i++) {
            try {
                RandomAccessFile f = STATS.get(i);
                f.seek(0);
                int n = f.read(BUFFER);
                ticks += n > 0 ? ticks(BUFFER, n) : 0;
            } catch (IOException e) {
                // the thread ended (the JVM retires idle compiler threads): its time no longer changes
            }
        }
        return ticks;
    }

    /**
     * Runs the stat parser {@link #PARSER_CALLS} times, for the warm-up's rounds: left to the polls alone, its
     * loops passed the back-edge threshold after some seconds of waiting and C2 compiled it on-stack-replacement
     * at whichever poll crossed it; once that was the last poll before a measured window, and the compile
     * finished inside the window. Called in each round, the parser compiles in the first ones, which then do not
     * count as quiet; once compiled as a whole, nothing of it compiles again.
     */
    public static void exerciseParser() {
        long sum = 0;
        for (int i = 0; i < PARSER_CALLS; i++) {
            sum += ticks(SAMPLE_STAT, SAMPLE_STAT.length);
        }
        parsed = sum;
    }

    private static boolean rescan() {
        closeAll();
        // Names through ProcBytes, not Files.readString: NIO's file path (IOUtil.read and its buffers), read
        // ~20 times a second here, compiled at whichever poll pushed it past C1's threshold, once in a window.
        String[] tasks = new java.io.File("/proc/self/task").list();
        if (tasks == null) {
            return false;
        }
        byte[] name = new byte[32];
        for (String task : tasks) {
            String dir = new StringBuilder(32).append("/proc/self/task/").append(task).toString();
            int n = ProcBytes.read(new StringBuilder(40).append(dir).append("/comm").toString(), name);
            if (n > 11 && name[0] == 'C' && (name[1] == '1' || name[1] == '2') && name[2] == ' '
                    && startsWith(name, 3, "Compiler")) {
                try {
                    STATS.add(new RandomAccessFile(new StringBuilder(40).append(dir).append("/stat").toString(), "r"));
                } catch (IOException e) {
                    // gone while we looked
                }
            }
        }
        return true;
    }

    private static boolean startsWith(byte[] b, int at, String prefix) {
        for (int i = 0; i < prefix.length(); i++) {
            if (b[at + i] != prefix.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static void closeAll() {
        for (RandomAccessFile f : STATS) {
            try {
                f.close();
            } catch (IOException ignored) {
                // a /proc file
            }
        }
        STATS.clear();
    }

    /** utime + stime: fields 14 and 15 of proc(5)'s stat, counted after the parenthesized name. */
    static long ticks(byte[] stat, int length) {
        int from = ProcBytes.afterName(stat, length);
        if (from < 0) {
            return 0;
        }
        // After ')': state is field 3 of proc(5), utime 14 and stime 15.
        return Math.max(0, ProcBytes.field(stat, length, from + 1, 11))
                + Math.max(0, ProcBytes.field(stat, length, from + 1, 12));
    }

    /** {@link #ticks(byte[], int)} of a stat line given as text (tests). */
    static long ticks(String stat) {
        byte[] b = stat.getBytes(StandardCharsets.US_ASCII);
        return ticks(b, b.length);
    }
}
