package io.rdmaffm.perftest.engine;

/**
 * {@code --run_infinitely}: where the loop hands each interval's count, once per interval (perftest prints a row
 * every -D seconds). Called from the loop's thread between polls, never per work request.
 */
@FunctionalInterface
public interface IntervalSink {
    /** {@code completed} work requests completed between {@code start} and {@code end} (loop clock, ns). */
    void interval(long completed, long start, long end);
}
