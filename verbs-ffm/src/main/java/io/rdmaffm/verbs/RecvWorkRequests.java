package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.ArenaLifetime;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable batch of {@code struct ibv_recv_wr} with their SGEs, allocated once; posted with
 * {@link QueuePair#postRecv(RecvWorkRequests, int)} or {@link SharedReceiveQueue#postRecv(RecvWorkRequests, int)}.
 */
public final class RecvWorkRequests implements AutoCloseable {
    static final long WR_SIZE = Structs.ibv_recv_wr.byteSize();
    static final long SGE_SIZE = Structs.ibv_sge.byteSize();
    private static final long WR_ID = Offsets.ibv_recv_wr.wr_id;
    private static final long NEXT = Offsets.ibv_recv_wr.next;
    private static final long SG_LIST = Offsets.ibv_recv_wr.sg_list;
    private static final long NUM_SGE = Offsets.ibv_recv_wr.num_sge;

    /** Guards the memory below: posts pass it by address ({@link ArenaLifetime}). */
    final Lifetime memory;
    final MemorySegment wrs;
    private final long wrsAddress;
    private final MemorySegment sges;
    final long badWrAddress;
    /**
     * Each entry's next pointer as {@link #chainRange} or a reset last wrote it: a post rewrites only what changed
     * (reposting one slot, the latency tools' case, writes nothing), so the post path makes no segment store that
     * the JIT might leave out of line.
     */
    private final long[] nextPointers;
    private final int size;
    private final int maxSge;
    private final MemorySegment[] slots;
    private final MemorySegment[] sgeLists;

    public RecvWorkRequests(int size, int maxSge) {
        if (size < 1 || maxSge < 1) {
            throw new IllegalArgumentException("need at least one work request and one SGE");
        }
        this.size = size;
        this.maxSge = maxSge;
        Arena arena = Arena.ofShared();
        this.memory = new ArenaLifetime("receive work requests", arena);
        this.wrs = arena.allocate(WR_SIZE * size, 64);
        this.wrsAddress = wrs.address();
        this.sges = arena.allocate(SGE_SIZE * size * maxSge, 64);
        this.badWrAddress = arena.allocate(ADDRESS).address();
        this.nextPointers = new long[size];
        this.slots = new MemorySegment[size];
        this.sgeLists = new MemorySegment[size];
        for (int i = 0; i < size; i++) {
            slots[i] = wrs.asSlice(i * WR_SIZE, WR_SIZE);
            sgeLists[i] = sges.asSlice(i * maxSge * SGE_SIZE, maxSge * SGE_SIZE);
            wrs.set(ADDRESS, i * WR_SIZE + SG_LIST, sgeLists[i]);
        }
    }

    public int size() {
        return size;
    }

    /** Sets entry i to receive into one SGE of a region, bounds-checked. */
    public RecvWorkRequests set(int i, long wrId, MemoryRegion mr, long offset, int length) {
        long address = mr.addressOf(offset, length);
        return setRaw(i, wrId, address, length, mr.lkey());
    }

    /** Sets entry i to one raw SGE. */
    public RecvWorkRequests setRaw(int i, long wrId, long address, int length, int lkey) {
        checkIndex(i);
        wrs.set(JAVA_LONG, i * WR_SIZE + WR_ID, wrId);
        wrs.set(JAVA_INT, i * WR_SIZE + NUM_SGE, 1);
        long s = (long) i * maxSge * SGE_SIZE;
        sges.set(JAVA_LONG, s, address);
        sges.set(JAVA_INT, s + 8, length);
        sges.set(JAVA_INT, s + 12, lkey);
        return this;
    }

    /** Sets SGE j of entry i (scatter lists); num_sge becomes at least j+1. */
    public RecvWorkRequests sge(int i, int j, long address, int length, int lkey) {
        checkIndex(i);
        if (j < 0 || j >= maxSge) {
            throw new IndexOutOfBoundsException("SGE " + j + " of " + maxSge);
        }
        long s = ((long) i * maxSge + j) * SGE_SIZE;
        sges.set(JAVA_LONG, s, address);
        sges.set(JAVA_INT, s + 8, length);
        sges.set(JAVA_INT, s + 12, lkey);
        if (wrs.get(JAVA_INT, i * WR_SIZE + NUM_SGE) <= j) {
            wrs.set(JAVA_INT, i * WR_SIZE + NUM_SGE, j + 1);
        }
        return this;
    }

    /**
     * Clears entry i (wr_id, num_sge and its SGEs) as a new batch has it, so no SGE of an earlier use carries over;
     * no allocation.
     */
    public RecvWorkRequests reset(int i) {
        checkIndex(i);
        slots[i].fill((byte) 0);
        nextPointers[i] = 0;
        sgeLists[i].fill((byte) 0);
        wrs.set(ADDRESS, i * WR_SIZE + SG_LIST, sgeLists[i]);
        return this;
    }

    public RecvWorkRequests wrId(int i, long wrId) {
        checkIndex(i);
        wrs.set(JAVA_LONG, i * WR_SIZE + WR_ID, wrId);
        return this;
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("receive work request " + i + " of " + size);
        }
    }

    /**
     * Links entries [from, from+n) as one list (callers re-post one slot of a ring without re-chaining); returns
     * the first's address.
     */
    long chainRange(int from, int n) {
        if (from < 0 || n < 1 || from + n > size) {
            throw new IllegalArgumentException("cannot post [" + from + ", " + (from + n) + ") of " + size);
        }
        for (int i = from; i < from + n - 1; i++) {
            link(i, wrsAddress + (i + 1) * WR_SIZE);
        }
        link(from + n - 1, 0L);
        return wrsAddress + from * WR_SIZE;
    }

    /** Sets entry i's next pointer, unless it already holds {@code next}. */
    private void link(int i, long next) {
        if (nextPointers[i] != next) {
            wrs.set(JAVA_LONG, i * WR_SIZE + NEXT, next);
            nextPointers[i] = next;
        }
    }

    /**
     * Frees the native memory: waits for a post in flight on another thread; later ones throw
     * IllegalStateException. Idempotent.
     */
    @Override
    public void close() {
        memory.close();
    }
}
