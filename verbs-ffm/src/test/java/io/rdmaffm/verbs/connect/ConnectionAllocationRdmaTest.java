package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

import static io.rdmaffm.verbs.connect.ConnectedPair.T;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The connection API's poll style allocates nothing per operation: 8-byte RDMA READs ({@code tryRead},
 * {@code progress}, {@code isComplete}) and message round trips ({@code trySend}, {@code tryReceive},
 * {@code release}, both ends driven by this thread), counted with the thread's allocated-bytes counter after a
 * warm-up. rdma.connect.allocation.ops sets the measured count of each (default 20,000).
 */
@Tag("rdma")
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ConnectionAllocationRdmaTest {
    private static final int OPS = Integer.getInteger("rdma.connect.allocation.ops", 20_000);
    private static final int WARMUP = Integer.getInteger("rdma.connect.allocation.warmup", 15_000);
    private static final long BOUND_BYTES = 4096;

    @Test
    void pollStyleReadsAndMessagesAllocateNothing() throws Exception {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (ConnectedPair p = new ConnectedPair(new ConnectionOptions(), new ConnectionOptions())) {
            MemoryRegion exposed = p.served.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_READ);
            RemoteBuffer remote = RemoteBuffer.of(exposed);
            MemoryRegion local = p.client.allocateRegion(4096, Access.LOCAL_WRITE);
            MemoryRegion reply = p.served.allocateRegion(4096, Access.LOCAL_WRITE);

            reads(p.client, local, remote, WARMUP);
            long before = threads.getCurrentThreadAllocatedBytes();
            long start = System.nanoTime();
            reads(p.client, local, remote, OPS);
            long readNanos = System.nanoTime() - start;
            long readBytes = threads.getCurrentThreadAllocatedBytes() - before;

            roundTrips(p, local, reply, WARMUP);
            before = threads.getCurrentThreadAllocatedBytes();
            start = System.nanoTime();
            roundTrips(p, local, reply, OPS);
            long tripNanos = System.nanoTime() - start;
            long tripBytes = threads.getCurrentThreadAllocatedBytes() - before;

            System.out.printf("connection allocation test: %,d 8-byte READs %,d bytes allocated (%.2f us/op); %,d "
                    + "message round trips %,d bytes (%.2f us/op)%n", OPS, readBytes, readNanos / 1e3 / OPS, OPS,
                    tripBytes, tripNanos / 1e3 / OPS);
            assertTrue(readBytes <= BOUND_BYTES, readBytes + " bytes allocated over " + OPS + " READs");
            assertTrue(tripBytes <= BOUND_BYTES, tripBytes + " bytes allocated over " + OPS + " round trips");
        }
    }

    /** One 8-byte READ at a time, polled to completion; no allocation in here. */
    private static void reads(Connection c, MemoryRegion local, RemoteBuffer remote, int n) {
        long deadline = System.nanoTime() + T.toNanos() * 10;
        for (int i = 0; i < n; i++) {
            long seq;
            while ((seq = c.tryRead(local, 0, remote, 0, 8)) < 0) {
                c.progress();
            }
            while (!c.isComplete(seq)) {
                c.progress();
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("READ " + i + " stalled");
                }
            }
        }
    }

    /** A message to the server and its reply, both ends polled by this thread; no allocation in here. */
    private static void roundTrips(ConnectedPair p, MemoryRegion local, MemoryRegion reply, int n) {
        long deadline = System.nanoTime() + T.toNanos() * 10;
        for (int i = 0; i < n; i++) {
            while (p.client.trySend(local, 0, 8) < 0) {
                p.client.progress();
            }
            Message m;
            while ((m = p.served.tryReceive()) == null) {
                stall(deadline, i);
            }
            m.release();
            while (p.served.trySend(reply, 0, 8) < 0) {
                p.served.progress();
            }
            while ((m = p.client.tryReceive()) == null) {
                stall(deadline, i);
            }
            m.release();
        }
    }

    private static void stall(long deadline, int i) {
        if (System.nanoTime() > deadline) {
            throw new AssertionError("round trip " + i + " stalled");
        }
    }
}
