package io.rdmaffm.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An RDMA WRITE or READ whose remote address or rkey (as a peer would send them) falls outside the registered
 * region: the device fails the work request with the remote access error as a completion (data, not a crash),
 * and not one byte of the registered page or of the pages around it changes. The target is the middle page of
 * three, all filled with a pattern; only the middle one is registered.
 */
@Tag("rdma")
class RemoteAccessBoundsRdmaTest {
    private static final long PAGE = 4096;
    private static final int LENGTH = 64;
    private static final byte GUARD = (byte) 0xA5;
    private static final Duration T = Duration.ofSeconds(20);

    @ParameterizedTest(name = "{0} at {1} (+{2}), rkey changed: {3}")
    @CsvSource({"RDMA_WRITE, start, -8, false", "RDMA_WRITE, end, -8, false", "RDMA_WRITE, start, 1073741824, false",
        "RDMA_WRITE, start, 0, true", "RDMA_READ, end, -8, false"})
    void outsideTheRegionIsARemoteAccessErrorAndWritesNothing(SendOpcode op, String from, long delta,
            boolean otherKey) {
        try (Arena arena = Arena.ofConfined();
             RcLoopback lo = new RcLoopback(8, 8);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             Completions wc = new Completions(1)) {
            MemorySegment pages = arena.allocate(3 * PAGE, PAGE);
            pages.fill(GUARD);
            MemorySegment middle = pages.asSlice(PAGE, PAGE);
            try (MemoryRegion target = lo.pd.registerMemory(middle,
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
                 MemoryRegion local = lo.pd.allocateRegion(PAGE, Access.LOCAL_WRITE)) {
                local.segment().fill((byte) 0x5A);
                long address = (from.equals("start") ? target.address() : target.address() + PAGE) + delta;
                int rkey = otherKey ? target.rkey() ^ 0x00ff_ff00 : target.rkey();
                send.get(0).wrId(9).opcode(op).flags(SendFlags.SIGNALED).local(local, 0, LENGTH).rdma(address, rkey);
                lo.qp.postSend(send, 1);
                RcLoopback.awaitOne(lo.cq, wc, T);
                System.out.println(op + " to " + from + (delta >= 0 ? "+" : "") + delta
                        + (otherKey ? ", other rkey" : "") + ": " + wc.describe(0));
                assertEquals(9, wc.wrId(0));
                assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, wc.status(0), wc.describe(0));
                assertEquals(-1, firstChanged(pages, GUARD), "byte changed in the target pages");
                if (op == SendOpcode.RDMA_READ) {
                    assertEquals(-1, firstChanged(local.segment(), (byte) 0x5A), "byte changed in the local region");
                }
            }
        }
    }

    private static long firstChanged(MemorySegment s, byte expected) {
        for (long i = 0; i < s.byteSize(); i++) {
            if (s.get(ValueLayout.JAVA_BYTE, i) != expected) {
                return i;
            }
        }
        return -1;
    }
}
