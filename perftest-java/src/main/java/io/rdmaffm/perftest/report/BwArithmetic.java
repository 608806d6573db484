package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;

/**
 * perftest 4.5-0.17's bandwidth figures from the post and completion timestamps the engine records, done
 * after the measured loop so the loop itself only stores longs.
 * <p>
 * Timestamps are in ticks of {@code ticksPerSecond} (1e9 for {@link System#nanoTime}). {@code tposted[k]} is
 * taken just before posting work request k (all QPs counted together); {@code tcompleted[c - 1]} when the
 * completion count reaches c, which with CQ moderation only happens for c a multiple of {@code cqMod}, and
 * for the last request (always signaled).
 */
public final class BwArithmetic {
    private BwArithmetic() {
    }

    /**
     * Iteration-mode figures.
     *
     * @param size           message size, bytes
     * @param n              work requests counted: iterations × QPs
     * @param tposted        post timestamps, at least {@code n} entries
     * @param tcompleted     completion timestamps as described above, at least {@code n} entries
     * @param postList       {@code -l}: the peak search starts at each post-list boundary
     * @param cqMod          {@code -Q}: only every cqMod-th completion timestamp exists
     * @param noPeak         peak not computed ({@code -N}, many iterations, send_bw server): prints 0.00 and
     *                       the average uses {@code tcompleted[0]} as the end of the run
     * @param unit           report unit
     * @param ticksPerSecond clock rate of the timestamps
     */
    public static BwReport iterations(long size, int n, long[] tposted, long[] tcompleted, int postList,
            int cqMod, boolean noPeak, BwUnit unit, double ticksPerSecond) {
        if (n < 1 || postList < 1 || cqMod < 1) {
            throw new IllegalArgumentException("n, postList and cqMod must be positive");
        }
        long optDelta = Long.MAX_VALUE;
        if (!noPeak) {
            for (int i = 0; i < n; i += postList) {
                // First completion timestamp at or after request i that the engine actually recorded.
                for (int j = roundUp(i + 1, cqMod) - 1; j < n; j += cqMod) {
                    optDelta = Math.min(optDelta, (tcompleted[j] - tposted[i]) / (j - i + 1));
                }
                if (n % cqMod != 0) {
                    int j = n - 1;
                    optDelta = Math.min(optDelta, (tcompleted[j] - tposted[i]) / (j - i + 1));
                }
            }
        }
        long end = tcompleted[noPeak ? 0 : n - 1];
        return figures(size, n, end - tposted[0], noPeak ? 0 : optDelta, unit, ticksPerSecond);
    }

    /**
     * Duration-mode ({@code -D}) figures: no peak; {@code completed} completions were counted between the
     * start and end of the sampling window.
     */
    public static BwReport duration(long size, long completed, long sampleStart, long sampleEnd, BwUnit unit,
            double ticksPerSecond) {
        return figures(size, completed, sampleEnd - sampleStart, 0, unit, ticksPerSecond);
    }

    private static BwReport figures(long size, long n, long ticks, long optDelta, BwUnit unit, double hz) {
        double sum = ticks;
        long factor = unit.bytesPerUnit();
        double avg = ((double) size * n * hz) / (sum * factor);
        double msgRate = ((double) n * hz) / (sum * 1_000_000);
        double peak = 0;
        if (optDelta > 0) {
            // perftest divides two integers (bytes·Hz over ticks·factor) converted to double.
            long up = size * (long) hz;
            long down = optDelta * factor;
            peak = (double) up / down;
        }
        return new BwReport(size, n, peak, avg, msgRate);
    }

    private static int roundUp(int value, int multiple) {
        return ((value + multiple - 1) / multiple) * multiple;
    }
}
