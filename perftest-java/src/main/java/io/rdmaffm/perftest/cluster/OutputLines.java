package io.rdmaffm.perftest.cluster;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

/**
 * How an end of a rail test waits for a line of its standard output while it grows: one way for a process started
 * here ({@link LocalProcessRunner}) and for an order run by a host's worker ({@link WorkerEnd}), so both give
 * {@link PairRunner} the same answer for the same output.
 */
final class OutputLines {
    private OutputLines() {
    }

    /**
     * The first complete line of {@code out} that {@code match} accepts. Waits on {@code monitor}, whose lock the
     * caller holds and which is notified whenever {@code out} grows or its source ends, in slices of at most
     * {@code sliceNanos}, until {@code deadlineNanos} ({@link System#nanoTime()}) or until {@code ended} says no more
     * will come.
     *
     * @return the line, or null at the deadline or the end
     */
    static String await(Object monitor, StringBuilder out, Predicate<String> match, long deadlineNanos,
                        BooleanSupplier ended, long sliceNanos) throws InterruptedException {
        int scanned = 0;
        while (true) {
            int nl;
            while ((nl = out.indexOf("\n", scanned)) >= 0) {
                String line = out.substring(scanned, nl);
                scanned = nl + 1;
                if (match.test(line)) {
                    return line;
                }
            }
            long left = deadlineNanos - System.nanoTime();
            if (left <= 0 || ended.getAsBoolean()) {
                return null;
            }
            TimeUnit.NANOSECONDS.timedWait(monitor, Math.min(left, sliceNanos));
        }
    }
}
