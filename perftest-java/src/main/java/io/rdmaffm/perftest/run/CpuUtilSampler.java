package io.rdmaffm.perftest.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code --cpu_util}: the CPU's utilization over a duration run's sample window, as perftest computes it. perftest
 * reads the first line of /proc/stat when its sample window opens and when it closes and prints user time over
 * user plus idle time (nice, system and the rest count nowhere). Here a virtual thread reads it at the window's
 * two moments, computed from the loop's start; the loop itself is left alone (jiffies are 10 ms, the loop starts
 * microseconds after the sampler).
 */
final class CpuUtilSampler {
    private final Path procStat;
    private final Thread thread;
    private final long[] before = new long[2];
    private final long[] after = new long[2];
    private volatile RuntimeException failure;

    private CpuUtilSampler(Path procStat, long windowStart, long windowEnd) {
        this.procStat = procStat;
        this.thread = Thread.ofVirtual().name("cpu-util").start(() -> sample(windowStart, windowEnd));
    }

    /** Samples {@code procStat} at {@code windowStart} and {@code windowEnd} ({@link System#nanoTime()}). */
    static CpuUtilSampler start(Path procStat, long windowStart, long windowEnd) {
        return new CpuUtilSampler(procStat, windowStart, windowEnd);
    }

    private void sample(long windowStart, long windowEnd) {
        try {
            sleepUntil(windowStart);
            read(before);
            sleepUntil(windowEnd);
            read(after);
        } catch (RuntimeException e) {
            failure = e;
        }
    }

    private static void sleepUntil(long deadline) {
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }

    private void read(long[] userIdle) {
        try (BufferedReader r = Files.newBufferedReader(procStat)) {
            parse(r.readLine(), userIdle);
        } catch (IOException e) {
            throw new UncheckedIOException("--cpu_util: cannot read " + procStat + ": " + e.getMessage(), e);
        }
    }

    /**
     * perftest's reading of /proc/stat's first line ("cpu  user nice system idle ..."): the second word is the
     * user time, the fifth the idle time (jiffies), stored in {@code userIdle}.
     */
    static void parse(String line, long[] userIdle) {
        String[] words = line == null ? new String[0] : line.trim().split("\\s+");
        if (words.length < 5 || !words[0].equals("cpu")) {
            throw new IllegalStateException("--cpu_util: /proc/stat does not start with the cpu line: " + line);
        }
        userIdle[0] = Long.parseLong(words[1]);
        userIdle[1] = Long.parseLong(words[4]);
    }

    /** perftest's figure: user / (user + idle) over the window, in percent, in float as perftest computes it. */
    static float percent(long userBefore, long idleBefore, long userAfter, long idleAfter) {
        long user = userAfter - userBefore;
        long idle = idleAfter - idleBefore;
        return user + idle != 0 ? (float) user / (user + idle) * 100 : 0;
    }

    /** Waits for the window's end and returns the utilization over it, in percent. */
    float awaitPercent() throws InterruptedException {
        thread.join();
        if (failure != null) {
            throw failure;
        }
        return percent(before[0], before[1], after[0], after[1]);
    }
}
