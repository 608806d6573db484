package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.ArenaLifetime;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A reusable batch of {@code struct ibv_send_wr}, each with its own scatter/gather list, in native memory
 * allocated once. Fill entries through {@link #get(int)} (a view allocated once per entry, so filling and
 * posting allocate nothing), then {@link QueuePair#postSend(SendWorkRequests, int)} posts the first n as one
 * chained list. Not thread-safe. Keep referenced memory registered until the completion is seen.
 */
public final class SendWorkRequests implements AutoCloseable {
    static final StructLayout WR = Structs.ibv_send_wr;
    static final long WR_SIZE = WR.byteSize();
    static final long SGE_SIZE = Structs.ibv_sge.byteSize();
    private static final long WR_ID = Offsets.ibv_send_wr.wr_id;
    static final long NEXT = Offsets.ibv_send_wr.next;
    private static final long SG_LIST = Offsets.ibv_send_wr.sg_list;
    private static final long NUM_SGE = Offsets.ibv_send_wr.num_sge;
    private static final long OPCODE = Offsets.ibv_send_wr.opcode;
    private static final long SEND_FLAGS = Offsets.ibv_send_wr.send_flags;
    private static final long IMM = Offsets.ibv_send_wr.imm_data;
    private static final long RDMA_ADDR = Offsets.ibv_send_wr.wr__rdma__remote_addr;
    private static final long RDMA_RKEY = Offsets.ibv_send_wr.wr__rdma__rkey;
    private static final long ATOMIC_ADDR = Offsets.ibv_send_wr.wr__atomic__remote_addr;
    private static final long ATOMIC_COMPARE_ADD = Offsets.ibv_send_wr.wr__atomic__compare_add;
    private static final long ATOMIC_SWAP = Offsets.ibv_send_wr.wr__atomic__swap;
    private static final long ATOMIC_RKEY = Offsets.ibv_send_wr.wr__atomic__rkey;
    private static final long UD_AH = Offsets.ibv_send_wr.wr__ud__ah;
    private static final long UD_QPN = Offsets.ibv_send_wr.wr__ud__remote_qpn;
    private static final long UD_QKEY = Offsets.ibv_send_wr.wr__ud__remote_qkey;
    private static final long BIND_MW = Offsets.ibv_send_wr.bind_mw__mw;
    private static final long BIND_RKEY = Offsets.ibv_send_wr.bind_mw__rkey;
    private static final long BIND_MR = Offsets.ibv_send_wr.bind_mw__bind_info__mr;
    private static final long BIND_ADDR = Offsets.ibv_send_wr.bind_mw__bind_info__addr;
    private static final long BIND_LENGTH = Offsets.ibv_send_wr.bind_mw__bind_info__length;
    private static final long BIND_ACCESS = Offsets.ibv_send_wr.bind_mw__bind_info__mw_access_flags;
    private static final long SGE_ADDR = Offsets.ibv_sge.addr;
    private static final long SGE_LENGTH = Offsets.ibv_sge.length;
    private static final long SGE_LKEY = Offsets.ibv_sge.lkey;

    /** Guards the memory below: posts pass it by address ({@link ArenaLifetime}). */
    final Lifetime memory;
    final MemorySegment wrs;
    private final long wrsAddress;
    private final MemorySegment sges;
    final MemorySegment badWr;
    final long badWrAddress;
    /**
     * Each entry's next pointer as {@link #chainRange} or a reset last wrote it: a post rewrites only what changed
     * (reposting one slot, the latency tools' case, writes nothing), so the post path makes no segment store that
     * the JIT might leave out of line.
     */
    private final long[] nextPointers;
    /** Whether bad_wr may hold a request: the provider writes it when a post fails, and only then. */
    private boolean badWrWritten;
    private final int size;
    private final int maxSge;
    private final Request[] requests;
    /** Entry i's struct, for posting from it: one view each, made once. */
    private final MemorySegment[] slots;
    /** Type 2 windows bound by BIND_MW in each slot, and their new rkeys (see {@link #afterPosted}). */
    private final MemoryWindow[] boundWindows;
    private final int[] boundRkeys;
    boolean hasBinds;

    /** {@code size} work requests with up to {@code maxSge} SGEs each. */
    public SendWorkRequests(int size, int maxSge) {
        if (size < 1 || maxSge < 1) {
            throw new IllegalArgumentException("need at least one work request and one SGE");
        }
        this.size = size;
        this.maxSge = maxSge;
        Arena arena = Arena.ofShared();
        this.memory = new ArenaLifetime("send work requests", arena);
        this.wrs = arena.allocate(WR_SIZE * size, 64);
        this.wrsAddress = wrs.address();
        this.sges = arena.allocate(SGE_SIZE * size * maxSge, 64);
        this.badWr = arena.allocate(ADDRESS);
        this.badWrAddress = badWr.address();
        this.nextPointers = new long[size];
        this.requests = new Request[size];
        this.slots = new MemorySegment[size];
        this.boundWindows = new MemoryWindow[size];
        this.boundRkeys = new int[size];
        for (int i = 0; i < size; i++) {
            slots[i] = wrs.asSlice(i * WR_SIZE, WR_SIZE);
            requests[i] = new Request(i, sges.asSlice(i * maxSge * SGE_SIZE, maxSge * SGE_SIZE));
            wrs.set(ADDRESS, i * WR_SIZE + SG_LIST, requests[i].sgeList);
        }
    }

    public int size() {
        return size;
    }

    /** The view of entry i; the same object every time. */
    public Request get(int i) {
        return requests[i];
    }

    /**
     * Links entries [from, from+n) through their next pointers, the last one ending the list; returns the first's
     * address.
     */
    long chainRange(int from, int n) {
        if (from < 0 || n < 1 || from + n > size) {
            throw new IllegalArgumentException("cannot post work requests [" + from + ", " + (from + n) + ") of "
                    + size);
        }
        for (int i = from; i < from + n - 1; i++) {
            link(i, wrsAddress + (i + 1) * WR_SIZE);
        }
        link(from + n - 1, 0L);
        if (badWrWritten) {
            // A stale bad_wr from an earlier failure would name the wrong request.
            badWr.set(JAVA_LONG, 0, 0L);
            badWrWritten = false;
        }
        return wrsAddress + from * WR_SIZE;
    }

    /** Sets entry i's next pointer, unless it already holds {@code next}. */
    private void link(int i, long next) {
        if (nextPointers[i] != next) {
            wrs.set(JAVA_LONG, i * WR_SIZE + NEXT, next);
            nextPointers[i] = next;
        }
    }

    /** After a post of this list failed: the provider may have set bad_wr, which the next post clears. */
    void postFailed() {
        badWrWritten = true;
    }

    /**
     * After work requests [from, from+k) were accepted by ibv_post_send: a BIND_MW among them gave its type 2
     * window a new rkey. verbs.h leaves {@code ibv_mw.rkey} at the old value for a bind by work request,
     * but providers read it as the window's current rkey when the next BIND_MW is posted (Soft-RoCE sends
     * it to the kernel, which refuses a bind whose old rkey does not match), so re-binding an invalidated
     * window would fail. Record the new rkey there, as Soft-RoCE itself does for type 1 binds ("user has to
     * undo this if he gets an error wc"). Only runs when a slot was set up with bindMemoryWindow.
     */
    void afterPosted(int from, int k) {
        for (int i = from; i < from + k; i++) {
            MemoryWindow mw = boundWindows[i];
            if (mw != null && wrs.get(JAVA_INT, i * WR_SIZE + OPCODE) == SendOpcode.BIND_MW.value()) {
                mw.boundTo(boundRkeys[i]);
            }
        }
    }

    /** Bytes work request i carries: the sum of its SGE lengths. */
    long messageLength(int i) {
        long base = i * WR_SIZE;
        int num = wrs.get(JAVA_INT, base + NUM_SGE);
        long sgeBase = (long) i * maxSge * SGE_SIZE;
        long total = 0;
        for (int j = 0; j < num && j < maxSge; j++) {
            total += Integer.toUnsignedLong(sges.get(JAVA_INT, sgeBase + j * SGE_SIZE + SGE_LENGTH));
        }
        return total;
    }

    /** The first of work requests [from, from+n) that carries more than {@code limit} bytes, or -1 (allocation-free). */
    int firstLongerThan(int from, int n, int limit) {
        for (int i = from; i < from + n; i++) {
            if (messageLength(i) > limit) {
                return i;
            }
        }
        return -1;
    }

    /** Index of the work request that {@code ibv_post_send} rejected, from its bad_wr output. */
    int badIndex() {
        long bad = badWr.get(JAVA_LONG, 0);
        return bad == 0 ? -1 : (int) ((bad - wrsAddress) / WR_SIZE);
    }

    /**
     * Frees the native memory: waits for a post in flight on another thread; later ones throw
     * IllegalStateException. Idempotent.
     */
    @Override
    public void close() {
        memory.close();
    }

    /**
     * One work request. Setters write straight into the native struct and return this view. A field keeps its value
     * until it is set again, also across posts: {@link #reset()} clears them all before a request is reused for
     * something else.
     */
    public final class Request {
        private final long base;
        private final long sgeBase;
        private final int index;
        private final MemorySegment sgeList;

        Request(int index, MemorySegment sgeList) {
            this.index = index;
            this.base = index * WR_SIZE;
            this.sgeBase = (long) index * maxSge * SGE_SIZE;
            this.sgeList = sgeList;
        }

        /**
         * Clears every field (wr_id, opcode, flags, num_sge, immediate data, the RDMA/atomic/UD/bind targets and the
         * SGEs) as a new batch has them, so nothing of an earlier use carries over: two small memory fills, no
         * allocation. The opcode becomes 0, which is RDMA_WRITE; set the one you want.
         */
        public Request reset() {
            slots[index].fill((byte) 0);
            nextPointers[index] = 0;
            sgeList.fill((byte) 0);
            wrs.set(ADDRESS, base + SG_LIST, sgeList);
            boundWindows[index] = null;
            return this;
        }

        public Request wrId(long id) {
            wrs.set(JAVA_LONG, base + WR_ID, id);
            return this;
        }

        public Request opcode(SendOpcode op) {
            wrs.set(JAVA_INT, base + OPCODE, op.value());
            return this;
        }

        /** IBV_SEND_* bits ({@link SendFlags}). */
        public Request flags(int sendFlags) {
            wrs.set(JAVA_INT, base + SEND_FLAGS, sendFlags);
            return this;
        }

        public int flags() {
            return wrs.get(JAVA_INT, base + SEND_FLAGS);
        }

        /** Sets SGE j raw: address, length, lkey. num_sge becomes at least j+1. */
        public Request sge(int j, long address, int length, int lkey) {
            if (j < 0 || j >= maxSge) {
                throw new IndexOutOfBoundsException("SGE " + j + " of " + maxSge);
            }
            long s = sgeBase + j * SGE_SIZE;
            sges.set(JAVA_LONG, s + SGE_ADDR, address);
            sges.set(JAVA_INT, s + SGE_LENGTH, length);
            sges.set(JAVA_INT, s + SGE_LKEY, lkey);
            if (wrs.get(JAVA_INT, base + NUM_SGE) <= j) {
                wrs.set(JAVA_INT, base + NUM_SGE, j + 1);
            }
            return this;
        }

        /** One SGE over {@code length} bytes at {@code offset} of a region, bounds-checked. */
        public Request local(MemoryRegion mr, long offset, int length) {
            long address = mr.addressOf(offset, length);
            numSge(1);
            return sge(0, address, length, mr.lkey());
        }

        /** Sets num_sge (0 for a zero-length message). */
        public Request numSge(int n) {
            if (n < 0 || n > maxSge) {
                throw new IllegalArgumentException("num_sge " + n + " outside 0.." + maxSge);
            }
            wrs.set(JAVA_INT, base + NUM_SGE, n);
            return this;
        }

        /** Target of RDMA_WRITE[_WITH_IMM] and RDMA_READ. */
        public Request rdma(long remoteAddress, int rkey) {
            wrs.set(JAVA_LONG, base + RDMA_ADDR, remoteAddress);
            wrs.set(JAVA_INT, base + RDMA_RKEY, rkey);
            return this;
        }

        /** Target and operands of ATOMIC_CMP_AND_SWP (compare, swap) and ATOMIC_FETCH_AND_ADD (add, unused). */
        public Request atomic(long remoteAddress, int rkey, long compareAdd, long swap) {
            wrs.set(JAVA_LONG, base + ATOMIC_ADDR, remoteAddress);
            wrs.set(JAVA_INT, base + ATOMIC_RKEY, rkey);
            wrs.set(JAVA_LONG, base + ATOMIC_COMPARE_ADD, compareAdd);
            wrs.set(JAVA_LONG, base + ATOMIC_SWAP, swap);
            return this;
        }

        /** Destination of a UD send. {@code ah} must stay open until this request is posted. */
        public Request ud(AddressHandle ah, int remoteQpn, int remoteQkey) {
            wrs.set(ADDRESS, base + UD_AH, ah.handle());
            wrs.set(JAVA_INT, base + UD_QPN, remoteQpn);
            wrs.set(JAVA_INT, base + UD_QKEY, remoteQkey);
            return this;
        }

        /** Immediate data (host order; sent big-endian) for *_WITH_IMM. */
        public Request immData(int imm) {
            wrs.set(JAVA_INT, base + IMM, Integer.reverseBytes(imm));
            return this;
        }

        /** The rkey to invalidate, for SEND_WITH_INV and LOCAL_INV. */
        public Request invalidateRkey(int rkey) {
            wrs.set(JAVA_INT, base + IMM, rkey);
            return this;
        }

        /**
         * BIND_MW (type 2 windows): bind {@code mw} with a new rkey ({@link MemoryWindow#nextRkey()}) over part
         * of {@code mr}. Clears num_sge and imm_data: a bind carries neither, and Soft-RoCE's post_send refuses
         * a BIND_MW with SGEs or a non-zero imm_data/invalidate_rkey (validate_send_wr: EINVAL), which a slot
         * reused after a send or an invalidation would otherwise still carry. Once posted, the window's
         * {@link MemoryWindow#rkey()} is {@code newRkey}.
         */
        public Request bindMemoryWindow(MemoryWindow mw, int newRkey, MemoryRegion mr, long offset, long length, int access) {
            long address = mr.addressOf(offset, length);
            numSge(0);
            wrs.set(JAVA_INT, base + IMM, 0);
            boundWindows[index] = mw;
            boundRkeys[index] = newRkey;
            hasBinds = true;
            wrs.set(ADDRESS, base + BIND_MW, mw.handle());
            wrs.set(JAVA_INT, base + BIND_RKEY, newRkey);
            wrs.set(ADDRESS, base + BIND_MR, mr.handle());
            wrs.set(JAVA_LONG, base + BIND_ADDR, address);
            wrs.set(JAVA_LONG, base + BIND_LENGTH, length);
            wrs.set(JAVA_INT, base + BIND_ACCESS, access);
            return this;
        }
    }
}
