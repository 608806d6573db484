package io.rdmaffm.perftest.jvm;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time of this JVM's JIT compiler threads, from {@code /proc/self/task}. A count of finished compilations
 * cannot tell an idle compiler from one that is half-way through a long compile (one C2 compile takes seconds
 * on an emulated CPU); the compiler threads' CPU time can: it stands still only when they have nothing to do.
 */
public final class CompilerThreads {
    private static final Path TASKS = Path.of("/proc/self/task");

    private CompilerThreads() {
    }

    /**
     * User plus system time, in clock ticks, of the threads named "C1 CompilerThreadN" or "C2 CompilerThreadN"
     * (the kernel keeps 15 characters of a thread's name); -1 where {@code /proc} does not say.
     */
    public static long cpuTicks() {
        long ticks = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String name = Files.readString(task.resolve("comm")).strip();
                    if (name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler")) {
                        ticks += ticks(Files.readString(task.resolve("stat")));
                    }
                } catch (IOException e) {
                    // the thread ended while we looked: its time no longer changes
                }
            }
        } catch (IOException | UnsupportedOperationException e) {
            return -1;
        }
        return ticks;
    }

    /** utime + stime: fields 14 and 15 of proc(5)'s stat, counted after the parenthesized name. */
    static long ticks(String stat) {
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Long.parseLong(f[11]) + Long.parseLong(f[12]);
    }
}
