package io.rdmaffm.verbs.connect;

import java.time.Duration;

/** Deadlines as System.nanoTime() values: Long.MAX_VALUE when the timeout is too long to count. */
final class Deadlines {
    private Deadlines() {
    }

    /** System.nanoTime() plus a positive timeout (saturated); IllegalArgumentException otherwise. */
    static long positive(Duration timeout, String what) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException(what + " needs a positive timeout, not " + timeout);
        }
        return saturated(timeout);
    }

    /** Now plus the timeout (zero or more: zero checks once), saturated. */
    static long op(Duration timeout) {
        if (timeout == null || timeout.isNegative()) {
            throw new IllegalArgumentException("a timeout of zero or more is required, not " + timeout);
        }
        return saturated(timeout);
    }

    private static long saturated(Duration timeout) {
        long now = System.nanoTime();
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
        return now + nanos < now ? Long.MAX_VALUE : now + nanos;
    }

    static long remaining(long deadline) {
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
    }
}
