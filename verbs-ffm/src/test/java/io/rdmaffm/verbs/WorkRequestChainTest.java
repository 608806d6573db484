package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Offsets;
import org.junit.jupiter.api.Test;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The lists a post hands to the provider, without a device: the batches store a next pointer only when it changes
 * (a repost of one slot stores nothing), so every sequence of ranges and resets must still leave each posted
 * range linked in order and ended by null, and bad_wr cleared after a failed post.
 */
class WorkRequestChainTest {
    private static final long SEND_WR = SendWorkRequests.WR_SIZE;

    private static long next(SendWorkRequests b, int i) {
        return b.wrs.get(JAVA_LONG, i * SEND_WR + Offsets.ibv_send_wr.next);
    }

    private static long next(RecvWorkRequests b, int i) {
        return b.wrs.get(JAVA_LONG, i * RecvWorkRequests.WR_SIZE + Offsets.ibv_recv_wr.next);
    }

    private static void assertSendList(SendWorkRequests b, int from, int n, long first) {
        long base = b.wrs.address();
        assertEquals(base + from * SEND_WR, first, "first of [" + from + ", " + (from + n) + ")");
        for (int i = from; i < from + n; i++) {
            assertEquals(i == from + n - 1 ? 0L : base + (i + 1) * SEND_WR, next(b, i), "next of entry " + i);
        }
    }

    @Test
    void sendRangesAndResetsAlwaysLeaveTheRangeLinkedAndEnded() {
        try (SendWorkRequests b = new SendWorkRequests(4, 1)) {
            int[][] ranges = {{0, 4}, {1, 1}, {0, 2}, {0, 2}, {2, 2}, {0, 1}, {0, 3}, {3, 1}, {0, 4}};
            for (int[] r : ranges) {
                assertSendList(b, r[0], r[1], b.chainRange(r[0], r[1]));
            }
            b.chainRange(0, 2);
            b.get(0).reset(); // zeroes entry 0, next pointer included
            assertEquals(0L, next(b, 0));
            assertSendList(b, 0, 2, b.chainRange(0, 2));
        }
    }

    @Test
    void aFailedPostsBadWrIsClearedByTheNextPost() {
        try (SendWorkRequests b = new SendWorkRequests(2, 1)) {
            b.chainRange(0, 2);
            b.badWr.set(JAVA_LONG, 0, b.wrs.address() + SEND_WR); // as a provider refusing entry 1
            b.postFailed();
            assertEquals(1, b.badIndex());
            b.chainRange(0, 1);
            assertEquals(-1, b.badIndex());
        }
    }

    @Test
    void receiveRangesAndResetsAlwaysLeaveTheRangeLinkedAndEnded() {
        try (RecvWorkRequests b = new RecvWorkRequests(3, 1)) {
            long base = b.wrs.address();
            int[][] ranges = {{0, 3}, {2, 1}, {0, 1}, {0, 3}, {1, 2}, {0, 2}};
            for (int[] r : ranges) {
                assertEquals(base + r[0] * RecvWorkRequests.WR_SIZE, b.chainRange(r[0], r[1]));
                for (int i = r[0]; i < r[0] + r[1]; i++) {
                    assertEquals(i == r[0] + r[1] - 1 ? 0L : base + (i + 1) * RecvWorkRequests.WR_SIZE, next(b, i),
                            "next of entry " + i + " in [" + r[0] + ", " + (r[0] + r[1]) + ")");
                }
            }
            b.chainRange(0, 3);
            b.reset(1);
            assertEquals(0L, next(b, 1));
            b.chainRange(0, 3);
            assertEquals(base + 2 * RecvWorkRequests.WR_SIZE, next(b, 1));
        }
    }
}
