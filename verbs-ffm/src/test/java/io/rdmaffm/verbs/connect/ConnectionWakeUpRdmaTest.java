package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.connect.ConnectedPair.T;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A completion polled by one thread wakes another thread parked in the same connection. The driver signals the
 * parked waiters only after its own polls; when another caller's poll (a blocking call's wait step, progress,
 * tryReceive) takes the completion first, the CQ is empty when the driver looks, and the waiter slept until its
 * deadline (issue 34, found while tracing the future stalls). Made deterministic here: this thread holds the
 * connection's lock, so the driver cannot poll, and takes the message's completion itself.
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConnectionWakeUpRdmaTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Test
    void aMessagePolledByAnotherThreadWakesTheParkedReceiver() throws Exception {
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            Core core = p.client.core();
            MemoryRegion out = p.served.allocateRegion(64, Access.LOCAL_WRITE);
            CompletableFuture<Long> received = new CompletableFuture<>();
            Thread receiver = Thread.ofVirtual().name("receiver").start(() -> {
                long t0 = System.nanoTime();
                try {
                    p.client.receive(WAIT).release();
                    received.complete(System.nanoTime() - t0);
                } catch (Throwable e) {
                    received.completeExceptionally(e);
                }
            });
            awaitParked(core);
            long polled;
            core.lock.lock();
            try {
                p.served.send(out, 0, 8, T); // the served end's own lock and driver
                long end = System.nanoTime() + T.toNanos();
                while (core.pollOnce() == 0) { // the driver waits for the lock meanwhile
                    assertTrue(System.nanoTime() < end, "the message's completion did not come");
                    Thread.onSpinWait();
                }
                polled = System.nanoTime();
            } finally {
                core.unlock();
            }
            long took = received.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS);
            long afterPoll = System.nanoTime() - polled;
            receiver.join();
            // Woken at once it returns in milliseconds (seconds under a loaded emulated CPU); missed, at its 20 s deadline.
            assertTrue(took < WAIT.toNanos() / 2, "the receiver returned " + took / 1_000_000 + " ms after it began, "
                    + "not woken by the poll that took its message (" + afterPoll / 1_000_000 + " ms before the end)");
        }
    }

    /** Until the receiver is parked in the connection (a waiter counted under the lock). */
    private static void awaitParked(Core core) throws InterruptedException {
        long end = System.nanoTime() + T.toNanos();
        while (System.nanoTime() < end) {
            core.lock.lock();
            try {
                if (core.driver.waiters > 0) {
                    return;
                }
            } finally {
                core.unlock();
            }
            Thread.sleep(10);
        }
        throw new AssertionError("the receiver never parked in the connection");
    }
}
