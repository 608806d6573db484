package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One driver thread per device, not per connection (issue 34's follow-up): many connections of one process, every
 * one with a thread waiting in it, are driven by one "rdma-device" thread (the old design ran one "rdma-connection"
 * thread per connection), which ends with the device's last connection; and one connection failing, or busy under
 * its lock, does not delay a receive on another connection of the same device. Every case runs with the driver's
 * backstop sweep switched off, so that a wake-up that only the sweep would have delivered fails here.
 */
@Tag("rdma")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DeviceDriverRdmaTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    /** Far below WAIT: a receive woken by its message returns in milliseconds (seconds under a loaded TCG VM). */
    private static final long PROMPT_NANOS = WAIT.toNanos() / 2;

    @BeforeAll
    static void noSweep() {
        DeviceDriver.sweepNanos = Long.MAX_VALUE;
    }

    @AfterAll
    static void sweepAgain() {
        DeviceDriver.sweepNanos = DeviceDriver.SWEEP_NANOS;
    }

    /**
     * Messages that were in the CQ before its arming, more than one poll's batch (32) of them, reach futures
     * asked for later: the arming polls the CQ empty. It polled once, so the 33rd future on, with the CQ armed and
     * no further completion coming, waited for the sweep (here: for ever). The messages are released only at the
     * end, since a release posts a credit update, whose completion would raise an event and hide the gap.
     */
    @Test
    void futuresNeedNoSweep() throws Exception {
        int n = 100;
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions().receiveBuffers(128),
                new ConnectionOptions().receiveBuffers(128))) {
            MemoryRegion out = p.client.allocateRegion(8, Access.LOCAL_WRITE);
            for (int i = 0; i < n; i++) {
                p.client.send(out, 0, 8, WAIT); // nobody waits on the server's side: its CQ is not armed
            }
            List<Message> got = new ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    CompletableFuture<Message> f = p.served.receiveAsync();
                    int k = i;
                    got.add(assertDoesNotThrow(() -> f.get(WAIT.toSeconds(), TimeUnit.SECONDS),
                            "receiveAsync #" + k + " of " + n + " messages that had all arrived"));
                }
            } finally {
                got.forEach(Message::release);
            }
        }
    }

    @Test
    void manyConnectionsWithWaitersHaveOneDriverThreadThatEndsWithThem() throws Exception {
        int before = driverThreads();
        List<ConnectedPair> pairs = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                pairs.add(new ConnectedPair(new ConnectionOptions(), new ConnectionOptions()));
            }
            List<Connection> all = new ArrayList<>();
            for (ConnectedPair p : pairs) {
                all.add(p.client);
                all.add(p.served);
            }
            // A thread waits in every one of the 8 connections: the old design had started 8 drivers by then.
            List<CompletableFuture<Long>> received = new ArrayList<>();
            for (Connection c : all) {
                received.add(receiveOnVirtualThread(c));
            }
            for (Connection c : all) {
                awaitParked(c.core());
            }
            int during = driverThreads();
            for (ConnectedPair p : pairs) {
                MemoryRegion a = p.client.allocateRegion(8, Access.LOCAL_WRITE);
                MemoryRegion b = p.served.allocateRegion(8, Access.LOCAL_WRITE);
                p.client.send(a, 0, 8, WAIT);
                p.served.send(b, 0, 8, WAIT);
            }
            for (CompletableFuture<Long> r : received) {
                long took = r.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS);
                assertTrue(took < WAIT.toNanos(), "a receive took " + took / 1_000_000 + " ms");
            }
            assertEquals(1, during - before, "driver threads (rdma-device / rdma-connection) while 8 connections of "
                    + "one device had a waiter: " + driverNames());
        } finally {
            for (ConnectedPair p : pairs) {
                p.close();
            }
        }
        long end = System.nanoTime() + 5_000_000_000L;
        while (driverThreads() > before && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        assertEquals(before, driverThreads(), "the device's driver thread did not end with its last connection: "
                + driverNames());
    }

    @Test
    void oneConnectionFailingOrBusyDoesNotDelayAnothersReceive() throws Exception {
        try (ConnectedPair a = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions());
             ConnectedPair b = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion out = b.served.allocateRegion(8, Access.LOCAL_WRITE);

            // A fails (its peer goes) while B's receive waits; B's message, sent after, arrives promptly.
            CompletableFuture<Long> aReceive = receiveOnVirtualThread(a.client);
            CompletableFuture<Long> bReceive = receiveOnVirtualThread(b.client);
            awaitParked(a.client.core());
            awaitParked(b.client.core());
            a.served.close();
            ExecutionException gone = assertThrows(ExecutionException.class,
                    () -> aReceive.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS));
            assertInstanceOf(ConnectionException.class, gone.getCause());
            b.served.send(out, 0, 8, WAIT);
            long took = bReceive.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS);
            assertTrue(took < WAIT.toNanos(), "B's receive ran to its deadline");

            // A's lock held (a connection busy in a long call) while B's message comes: the driver must not wait
            // for A's lock to wake B's receiver (it only tries a connection's lock).
            CompletableFuture<Long> second = receiveOnVirtualThread(b.client);
            awaitParked(b.client.core());
            long sent;
            long arrived;
            Core held = a.client.core();
            held.lock.lock();
            try {
                sent = System.nanoTime();
                b.served.send(out, 0, 8, WAIT);
                second.get(WAIT.toSeconds() + 30, TimeUnit.SECONDS);
                arrived = System.nanoTime();
            } finally {
                held.unlock();
            }
            assertTrue(arrived - sent < PROMPT_NANOS, "B's receive returned " + (arrived - sent) / 1_000_000
                    + " ms after its message was sent, while A's lock was held");
        }
    }

    /** A virtual thread's receive on {@code c}; the future holds how long it took (nanoseconds). */
    private static CompletableFuture<Long> receiveOnVirtualThread(Connection c) {
        CompletableFuture<Long> f = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            long t0 = System.nanoTime();
            try {
                c.receive(WAIT).release();
                f.complete(System.nanoTime() - t0);
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    /** Live threads named as a connection driver, per device ("rdma-device") or per connection ("rdma-connection"). */
    private static int driverThreads() {
        return driverNames().size();
    }

    private static List<String> driverNames() {
        List<String> names = new ArrayList<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && (t.getName().startsWith(DeviceDriver.THREAD_PREFIX)
                    || t.getName().startsWith("rdma-connection"))) {
                names.add(t.getName());
            }
        }
        return names;
    }

    /** Until a thread is parked in the connection (a waiter counted under the lock). */
    private static void awaitParked(Core core) throws InterruptedException {
        long end = System.nanoTime() + WAIT.toNanos();
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
        throw new AssertionError("no thread parked in the connection");
    }
}
