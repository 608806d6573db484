package io.rdmaffm.perftest.fabric;

import java.util.concurrent.locks.LockSupport;

/**
 * How a wait spends an empty poll: busy first (the fast path), then it gives the core away, since the ranks of one
 * host, their lanes' threads and (on Soft-RoCE) the kernel's packet processing may share it.
 */
final class Idle {
    /** Empty polls before a wait starts yielding the CPU. */
    static final int SPIN_POLLS = 2048;

    private Idle() {
    }

    /** After the {@code polls}-th empty poll in a row. */
    static void pause(int polls) {
        if (polls < SPIN_POLLS) {
            Thread.onSpinWait();
        } else if (polls < SPIN_POLLS * 8) {
            Thread.yield();
        } else {
            LockSupport.parkNanos(20_000);
        }
    }
}
