package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.MemoryRegion;

/**
 * Closing a connection, once, by the first thread that calls it: the connection refuses new calls and fails
 * pending ones ({@link Core#markClosed}), disconnect (which moves the QP to the error state, so its pending work
 * requests flush), wait until the threads that were waiting in the connection have left it, stop the rdma_cm
 * watcher, take the connection off its device driver, then destroy: the id with its QP, the caller's regions, the
 * rest of the parts children first, the CQ before the device driver's use of it is released.
 */
final class Teardown {
    private final Core core;
    private boolean done; // guarded by this: the thread that closes holds it until the end

    Teardown(Core core) {
        this.core = core;
    }

    synchronized void close() {
        if (done) {
            return;
        }
        core.markClosed();
        if (core.ownsWatcher) {
            core.watcher.stopSoon(); // it leaves at the DISCONNECTED our disconnect brings, or within its slice
        }
        if (!core.peerGone) {
            core.disconnectQuietly();
        }
        awaitWaiters(core);
        if (core.ownsWatcher) {
            core.watcher.stop();
        } else if (core.watcher != null) {
            core.watcher.forget(core.parts.id());
        }
        // No more events to this connection; a turn of the device driver that already had it saw it closed (the
        // driver only tries the lock, and markClosed took it), so nothing of it touches the CQ after this.
        core.parts.device().detach(core.parts.cq());
        done = true;
        destroy(core);
    }

    /** Until the threads that were waiting in the connection have left it (each wakes within a slice), at most 2 s. */
    private static void awaitWaiters(Core core) {
        core.lock.lock();
        try {
            long end = System.nanoTime() + 2_000_000_000L;
            while (core.driver.waiters > 0 && end - System.nanoTime() > 0) {
                core.driver.progressed.awaitNanos(10_000_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            core.lock.unlock();
        }
    }

    private static void destroy(Core core) {
        RuntimeException first = null;
        try {
            core.parts.id().close();
        } catch (RuntimeException e) {
            first = e;
        }
        for (MemoryRegion r : core.regions) {
            try {
                r.close();
            } catch (RuntimeException e) {
                first = add(first, e);
            }
        }
        try {
            core.parts.close();
        } catch (RuntimeException e) {
            first = add(first, e);
        }
        core.sq.close();
        core.wc.close();
        if (first != null) {
            throw first;
        }
    }

    /** The first failure of a close sequence, with {@code next} added to it as suppressed (or {@code next} if first). */
    static RuntimeException add(RuntimeException first, RuntimeException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
    }
}
