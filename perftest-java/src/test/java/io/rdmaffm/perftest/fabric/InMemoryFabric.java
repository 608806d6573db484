package io.rdmaffm.perftest.fabric;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The links of n in-memory ranks, for running the worker's own lane code ({@link PeerLane}, {@link RingRank})
 * without a device: a write is a copy into the peer's memory at the place its plan says, an immediate is a queue.
 * It counts what each lane wrote, and the writes made while the lane's write times were on (as
 * {@link RdmaEndpoint} counts them).
 */
final class InMemoryFabric {
    private final FabricWorker.Plan[] plans;
    private final MemorySegment[] mem;
    /** Bytes each rank's lane wrote. */
    final long[][] written;
    /** Writes each rank's lane made while its write times were on. */
    final long[][] timedWrites;
    private final boolean[][] timing;
    /** Per rank, lane and link: the immediates in; ring: link 0 from the previous rank, 1 from the next. */
    private final List<List<List<LinkedBlockingQueue<Integer>>>> in = new ArrayList<>();

    InMemoryFabric(FabricWorker.Plan[] plans, MemorySegment[] mem, int threads) {
        int n = plans.length;
        this.plans = plans;
        this.mem = mem;
        written = new long[n][threads];
        timedWrites = new long[n][threads];
        timing = new boolean[n][threads];
        for (int r = 0; r < n; r++) {
            List<List<LinkedBlockingQueue<Integer>>> lanes = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                List<LinkedBlockingQueue<Integer>> links = new ArrayList<>();
                for (int i = 0; i < Math.max(2, plans[r].peers.length); i++) {
                    links.add(new LinkedBlockingQueue<>());
                }
                lanes.add(links);
            }
            in.add(lanes);
        }
    }

    /** Lane {@code lane} of rank {@code rank}'s ring links. */
    RingLinks ring(int rank, int lane) {
        int n = plans.length;
        int next = (rank + 1) % n;
        int prev = (rank + n - 1) % n;
        return new RingLinks() {
            @Override
            public void writeNext(long from, long b, long to, int imm) {
                MemorySegment.copy(mem[rank], from, mem[next], to, b);
                wrote(rank, lane, b);
                in.get(next).get(lane).get(0).add(imm);
            }

            @Override
            public void signalPrev(int imm) {
                in.get(prev).get(lane).get(1).add(imm);
            }

            @Override
            public int awaitPrev() {
                return take(in.get(rank).get(lane).get(0));
            }

            @Override
            public int awaitNext() {
                return take(in.get(rank).get(lane).get(1));
            }

            @Override
            public void awaitSends() {
            }

            @Override
            public void timeWrites(boolean on) {
                timing[rank][lane] = on;
            }
        };
    }

    /** Lane {@code lane} of rank {@code rank}'s links of the other patterns, as its plan lays them out. */
    PeerLinks peer(int rank, int lane) {
        FabricWorker.Plan me = plans[rank];
        return new PeerLinks() {
            @Override
            public void write(int link, long from, long b, long to, int imm) {
                int q = me.peers[link];
                int back = plans[q].link(rank, me.names[link]);
                MemorySegment.copy(mem[rank], from, mem[q], plans[q].offsets[back] + to, b);
                wrote(rank, lane, b);
                in.get(q).get(lane).get(back).add(imm);
            }

            @Override
            public int awaitImm(int link) {
                return take(in.get(rank).get(lane).get(link));
            }

            @Override
            public void awaitAllSends() {
            }

            @Override
            public void timeWrites(boolean on) {
                timing[rank][lane] = on;
            }
        };
    }

    private void wrote(int rank, int lane, long bytes) {
        written[rank][lane] += bytes;
        timedWrites[rank][lane] += timing[rank][lane] ? 1 : 0;
    }

    private static int take(LinkedBlockingQueue<Integer> q) {
        try {
            Integer v = q.poll(10, TimeUnit.SECONDS);
            if (v == null) {
                throw new FabricFailure("step timeout in the in-memory fabric");
            }
            return v;
        } catch (InterruptedException e) {
            throw new FabricFailure("interrupted");
        }
    }
}
