package io.rdmaffm.perftest.fabric;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Each rank's links for the non-ring patterns, and the orders refused before anything runs. */
class FabricPlanTest {

    private static FabricOptions opts(FabricPattern p, int rank, int ranks, long bytes) {
        return new FabricOptions(p, rank, ranks, "h", 1, null, 1, -1, bytes, 3, 1, true, 0, 60, 30, 1);
    }

    @Test
    void incastReceiverHasASlotPerSender() {
        FabricWorker.Plan p = FabricWorker.plan(opts(FabricPattern.INCAST, 0, 4, 100));
        assertArrayEquals(new int[] {1, 2, 3}, p.peers);
        assertArrayEquals(new long[] {0, 100, 200}, p.offsets);
        assertEquals("receiver", p.role);
        assertEquals(300, p.regionBytes);
        FabricWorker.Plan s = FabricWorker.plan(opts(FabricPattern.INCAST, 2, 4, 100));
        assertArrayEquals(new int[] {0}, s.peers);
        assertEquals("incast-2", s.names[0]);
        assertEquals("incast-2", p.names[1], "both ends name the link alike");
    }

    @Test
    void alltoallLinksMatchFromBothEnds() {
        for (int r = 0; r < 5; r++) {
            FabricWorker.Plan p = FabricWorker.plan(opts(FabricPattern.ALLTOALL, r, 5, 8));
            assertEquals(4, p.peers.length);
            for (int i = 0; i < 4; i++) {
                int q = p.peers[i];
                FabricWorker.Plan other = FabricWorker.plan(opts(FabricPattern.ALLTOALL, q, 5, 8));
                assertEquals(i, p.link(q, p.names[i]));
                assertEquals(true, other.link(r, p.names[i]) >= 0, "rank " + q + " has the link " + p.names[i]);
            }
        }
    }

    @Test
    void bisectionPairsAcrossTheHalvesAndLeavesTheOddRankIdle() {
        assertArrayEquals(new int[] {3}, FabricWorker.plan(opts(FabricPattern.BISECTION, 0, 7, 8)).peers);
        assertArrayEquals(new int[] {2}, FabricWorker.plan(opts(FabricPattern.BISECTION, 5, 7, 8)).peers);
        assertEquals("idle", FabricWorker.plan(opts(FabricPattern.BISECTION, 6, 7, 8)).role);
        assertEquals(0, FabricWorker.plan(opts(FabricPattern.BISECTION, 6, 7, 8)).peers.length);
    }

    @Test
    void ringLinksNameTheSenderSide() {
        FabricWorker.Plan p = FabricWorker.plan(opts(FabricPattern.ALLREDUCE, 0, 3, 12));
        assertArrayEquals(new int[] {1, 2}, p.peers);
        assertArrayEquals(new String[] {"ring-0", "ring-2"}, p.names);
        assertEquals(12 + 12 + 8, p.regionBytes, "input, output, two staging slots of a chunk");
    }

    @Test
    void badOrdersAreRefusedWithOneLine() {
        assertEquals("-s 12 is not a multiple of 4 x 4 ranks = 16 (float32 elements, one chunk per rank)",
                assertThrows(IllegalArgumentException.class, () -> opts(FabricPattern.ALLREDUCE, 0, 4, 12).validate())
                        .getMessage());
        assertEquals("--rank 3 is not in 0..2 (--ranks 3)", assertThrows(IllegalArgumentException.class,
                () -> opts(FabricPattern.ALLTOALL, 3, 3, 12).validate()).getMessage());
        assertEquals("incast needs at least 2 ranks, not 1", assertThrows(IllegalArgumentException.class,
                () -> opts(FabricPattern.INCAST, 0, 1, 12).validate()).getMessage());
        assertThrows(IllegalArgumentException.class, () -> FabricPattern.of("ring"));
    }
}
