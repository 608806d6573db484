package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.ArenaLifetime;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A reusable array of {@code struct ibv_wc} that {@link CompletionQueue#poll(Completions)} fills; accessors
 * read entry {@code i} of the last poll in place, so polling allocates nothing. Not thread-safe: one per
 * polling thread. Owns its native memory; {@link #close()} frees it.
 */
public final class Completions implements AutoCloseable {
    static final long SIZE = Structs.ibv_wc.byteSize();
    private static final long WR_ID = Offsets.ibv_wc.wr_id;
    private static final long STATUS = Offsets.ibv_wc.status;
    private static final long OPCODE = Offsets.ibv_wc.opcode;
    private static final long VENDOR_ERR = Offsets.ibv_wc.vendor_err;
    private static final long BYTE_LEN = Offsets.ibv_wc.byte_len;
    private static final long IMM = Offsets.ibv_wc.imm_data;
    private static final long QP_NUM = Offsets.ibv_wc.qp_num;
    private static final long SRC_QP = Offsets.ibv_wc.src_qp;
    private static final long WC_FLAGS = Offsets.ibv_wc.wc_flags;
    private static final long PKEY_INDEX = Offsets.ibv_wc.pkey_index;
    private static final long SLID = Offsets.ibv_wc.slid;
    private static final long SL = Offsets.ibv_wc.sl;

    /** IBV_WC_WITH_IMM: immData() is valid. */
    public static final int WITH_IMM = 1 << 1;
    /** IBV_WC_GRH: a UD receive buffer starts with the 40-byte GRH. */
    public static final int GRH = 1 << 0;
    /**
     * IBV_WC_WITH_INV: invalidatedRkey() is valid. Soft-RoCE does not set this bit: its kernel writes the
     * kernel's enum ib_wc_flags into the user CQ, where IB_WC_WITH_INVALIDATE is 1 &lt;&lt; 2, the bit
     * libibverbs calls IBV_WC_IP_CSUM_OK ({@link #RXE_WITH_INVALIDATE}); it also sets GRH on every receive.
     * The invalidated rkey itself is reported correctly.
     */
    public static final int WITH_INV = 1 << 3;
    /** Where Soft-RoCE reports SEND_WITH_INV on a receive (kernel IB_WC_WITH_INVALIDATE; IBV_WC_IP_CSUM_OK). */
    public static final int RXE_WITH_INVALIDATE = 1 << 2;

    /** Guards {@link #array}: polls pass it by address ({@link ArenaLifetime}). */
    final Lifetime memory;
    final MemorySegment array;
    final long arrayAddress;
    private final int capacity;
    int count;

    public Completions(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, not " + capacity);
        }
        this.capacity = capacity;
        Arena arena = Arena.ofShared();
        this.memory = new ArenaLifetime("completions", arena);
        this.array = arena.allocate(SIZE * capacity, 64);
        this.arrayAddress = array.address();
    }

    public int capacity() {
        return capacity;
    }

    /** Entries filled by the last poll. */
    public int count() {
        return count;
    }

    private long at(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("completion " + i + " of " + count);
        }
        return i * SIZE;
    }

    public long wrId(int i) {
        return array.get(JAVA_LONG, at(i) + WR_ID);
    }

    public WorkCompletionStatus status(int i) {
        return WorkCompletionStatus.of(array.get(JAVA_INT, at(i) + STATUS));
    }

    /** The raw IBV_WC_* status value. */
    public int statusCode(int i) {
        return array.get(JAVA_INT, at(i) + STATUS);
    }

    public boolean isSuccess(int i) {
        return array.get(JAVA_INT, at(i) + STATUS) == 0;
    }

    public WorkCompletionOpcode opcode(int i) {
        return WorkCompletionOpcode.of(array.get(JAVA_INT, at(i) + OPCODE));
    }

    public int vendorError(int i) {
        return array.get(JAVA_INT, at(i) + VENDOR_ERR);
    }

    public int byteLength(int i) {
        return array.get(JAVA_INT, at(i) + BYTE_LEN);
    }

    /** Immediate data in host order (the wire carries it big-endian), valid when WITH_IMM is set. */
    public int immData(int i) {
        return Integer.reverseBytes(array.get(JAVA_INT, at(i) + IMM));
    }

    /** The rkey a SEND_WITH_INV invalidated, valid when WITH_INV is set. */
    public int invalidatedRkey(int i) {
        return array.get(JAVA_INT, at(i) + IMM);
    }

    public int qpNumber(int i) {
        return array.get(JAVA_INT, at(i) + QP_NUM);
    }

    /** Source QP of a UD receive. */
    public int sourceQp(int i) {
        return array.get(JAVA_INT, at(i) + SRC_QP);
    }

    public int flags(int i) {
        return array.get(JAVA_INT, at(i) + WC_FLAGS);
    }

    public int pkeyIndex(int i) {
        return Short.toUnsignedInt(array.get(JAVA_SHORT, at(i) + PKEY_INDEX));
    }

    public int slid(int i) {
        return Short.toUnsignedInt(array.get(JAVA_SHORT, at(i) + SLID));
    }

    public int serviceLevel(int i) {
        return Byte.toUnsignedInt(array.get(JAVA_BYTE, at(i) + SL));
    }

    /** The native ibv_wc of entry i, e.g. for {@code ibv_create_ah_from_wc}. */
    MemorySegment entry(int i) {
        return array.asSlice(at(i), SIZE);
    }

    /**
     * One line describing entry i, for error messages (allocates; not for the data path). The opcode only for a
     * successful completion: ibv_poll_cq(3) leaves it undefined otherwise, and Soft-RoCE leaves 0 there
     * (IBV_WC_SEND), which named a failed RDMA write a SEND.
     */
    public String describe(int i) {
        return "wr_id " + wrId(i) + (isSuccess(i) ? " " + opcode(i) : "") + " status " + status(i) + " ("
                + statusCode(i) + ", vendor error 0x"
                + Integer.toHexString(vendorError(i)) + ") qp 0x" + Integer.toHexString(qpNumber(i));
    }

    /**
     * Frees the native memory: waits for a poll in flight on another thread; later ones throw
     * IllegalStateException. Idempotent.
     */
    @Override
    public void close() {
        memory.close();
    }
}
