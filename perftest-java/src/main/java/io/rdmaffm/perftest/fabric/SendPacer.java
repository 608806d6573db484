package io.rdmaffm.perftest.fabric;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * {@code --rate}'s pacing of one sender's lane (docs/fabric-design.md §12): a timed iteration that sends is held
 * until {@code gap} = its rank's bytes per iteration × 8 / rate has passed since it began, so that every timed
 * iteration lasts at least a gap and the rank's bytes over the sum of its iteration times (the figure the driver
 * reports) are at most the rate. perftest's SW limiter ({@code engine.BwLoops}) keeps absolute deadlines instead,
 * which let a burst follow a late one at once: over the measured iterations' sum that can pass the rate. Allocates
 * nothing; the clock is read only when pacing.
 */
final class SendPacer {
    /** Above this much left a hold parks (a park can wake this much late); below it spins. */
    static final long PARK_ABOVE_NANOS = 200_000;
    /** No cap: begin and hold do nothing. */
    static final SendPacer NONE = new SendPacer(0, System::nanoTime);

    private final long gapNanos;
    private final LongSupplier clock;
    private long began;

    /**
     * @param gapNanos the least time per iteration, 0 for none
     * @param clock    nanoseconds (System::nanoTime; a fake one in the tests)
     */
    SendPacer(long gapNanos, LongSupplier clock) {
        if (gapNanos < 0) {
            throw new IllegalArgumentException("gap " + gapNanos + " ns");
        }
        this.gapNanos = gapNanos;
        this.clock = clock;
    }

    /** The pacer of a rank that sends {@code bytesPerIteration} per iteration under {@code rate} (null: none). */
    static SendPacer of(SendRate rate, long bytesPerIteration) {
        return rate == null || bytesPerIteration == 0 ? NONE
                : new SendPacer(rate.gapNanos(bytesPerIteration), System::nanoTime);
    }

    long gapNanos() {
        return gapNanos;
    }

    /** At the start of a timed iteration, before its writes. */
    void begin() {
        if (gapNanos > 0) {
            began = clock.getAsLong();
        }
    }

    /** At its end, after its sends completed: returns once a gap has passed since {@link #begin()}. */
    void hold() {
        if (gapNanos == 0) {
            return;
        }
        long left;
        while ((left = gapNanos - (clock.getAsLong() - began)) > 0) {
            if (left > PARK_ABOVE_NANOS) {
                LockSupport.parkNanos(left - PARK_ABOVE_NANOS / 2);
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
