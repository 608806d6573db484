package io.rdmaffm.verbs.connect;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Diagnostics for VirtualThreadStress (off unless {@code -Drdmaffm.connect.carrierTime=true}): how long the native
 * calls the connection API makes on a virtual thread's carrier take, by kind, so a stress run can tell a carrier
 * held in native code (a post that does the device's work in the caller's system call, as rxe's does) from
 * carriers that are merely few for the runnable virtual threads. Wall time around the call: what the carrier was
 * held for, whatever the kernel did meanwhile. No allocation; with the flag off each site costs one constant test.
 */
final class CarrierTime {
    static final boolean ON = Boolean.getBoolean("rdmaffm.connect.carrierTime");

    static final int POST_SEND = 0;
    static final int POST_RECV = 1;
    static final int POLL = 2;
    static final int NOTIFY = 3;
    static final int REGISTER = 4;
    private static final String[] NAMES = {"post send", "post recv", "poll", "arm", "register"};
    /** Per kind: calls, total ns, max ns, calls over 1 ms, over 10 ms, over 100 ms. */
    private static final AtomicLongArray STATS = new AtomicLongArray(NAMES.length * 6);

    private CarrierTime() {
    }

    /** nanoTime now when timing is on and the caller is a virtual thread, else 0 (nothing is recorded). */
    static long start() {
        return ON && Thread.currentThread().isVirtual() ? System.nanoTime() : 0;
    }

    static void end(int kind, long t0) {
        if (t0 == 0) {
            return;
        }
        long d = System.nanoTime() - t0;
        int b = kind * 6;
        STATS.incrementAndGet(b);
        STATS.addAndGet(b + 1, d);
        STATS.accumulateAndGet(b + 2, d, Math::max);
        if (d > 1_000_000L) {
            STATS.incrementAndGet(b + 3);
        }
        if (d > 10_000_000L) {
            STATS.incrementAndGet(b + 4);
        }
        if (d > 100_000_000L) {
            STATS.incrementAndGet(b + 5);
        }
    }

    /** One line: per kind, calls, total, max and how many took over 1/10/100 ms, on virtual threads' carriers. */
    static String summary() {
        if (!ON) {
            return "carrier native time: off";
        }
        StringBuilder sb = new StringBuilder("carrier native time (virtual callers):");
        for (int k = 0; k < NAMES.length; k++) {
            int b = k * 6;
            sb.append(String.format(" %s %d calls, total %.0f ms, max %.1f ms, >1 ms %d, >10 ms %d, >100 ms %d;",
                    NAMES[k], STATS.get(b), STATS.get(b + 1) / 1e6, STATS.get(b + 2) / 1e6, STATS.get(b + 3),
                    STATS.get(b + 4), STATS.get(b + 5)));
        }
        return sb.toString();
    }
}
