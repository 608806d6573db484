package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ibv_mr}: registered memory. Holds the segment it registered (and, for
 * {@link ProtectionDomain#allocateRegion}, owns its memory and frees it only after deregistration).
 */
public final class MemoryRegion extends NativeObject {
    private final ProtectionDomain pd;
    private final MemorySegment segment;
    private final Arena owned;
    private final int lkey;
    private final int rkey;
    private final int access;

    MemoryRegion(ProtectionDomain pd, MemorySegment handle, MemorySegment segment, Arena owned, int access) {
        super(pd, "memory region", handle);
        this.pd = pd;
        this.segment = segment;
        this.owned = owned;
        this.access = access;
        this.lkey = handle.get(JAVA_INT, Offsets.ibv_mr.lkey);
        this.rkey = handle.get(JAVA_INT, Offsets.ibv_mr.rkey);
    }

    public ProtectionDomain protectionDomain() {
        return pd;
    }

    /** The registered memory. */
    public MemorySegment segment() {
        return segment;
    }

    /** Local key, for SGEs. */
    public int lkey() {
        return lkey;
    }

    /** Remote key, for the peer's RDMA and atomic operations. */
    public int rkey() {
        return rkey;
    }

    /** Virtual address of the first byte (the iova: what a peer puts in remote_addr). */
    public long address() {
        return segment.address();
    }

    public long length() {
        return segment.byteSize();
    }

    /** IBV_ACCESS_* bits it was registered with. */
    public int accessFlags() {
        return access;
    }

    /** The address of {@code offset}, checked to leave {@code length} bytes inside the region. */
    public long addressOf(long offset, long length) {
        if (offset < 0 || length < 0 || offset + length > segment.byteSize()) {
            throw new IndexOutOfBoundsException("bytes [" + offset + ", " + (offset + length)
                    + ") are outside this " + segment.byteSize() + "-byte memory region");
        }
        return segment.address() + offset;
    }

    /** {@code ibv_rereg_mr} is not supported by Soft-RoCE; bound for devices that have it. */
    public void reregister(int accessFlags) {
        int rc = call(h -> (int) Ibv.ibv_rereg_mr.handle().invokeExact(Downcalls.errnoState(), h,
                Constants.IBV_REREG_MR_CHANGE_ACCESS, MemorySegment.NULL, MemorySegment.NULL, 0L, accessFlags));
        Errors.check("ibv_rereg_mr", rc, "device " + pd.context().name());
    }

    @Override
    String describeSuffix() {
        return " (lkey 0x" + Integer.toHexString(lkey) + ")";
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_dereg_mr.handle(), "ibv_dereg_mr", handle, "device " + pd.context().name() + ", lkey 0x" + Integer.toHexString(lkey));
    }

    @Override
    void afterClose() {
        if (owned != null) {
            owned.close();
        } else if (!segment.scope().isAlive()) {
            throw new IllegalStateException("the memory of this region (lkey 0x" + Integer.toHexString(lkey)
                    + ") was freed while it was registered; keep the arena open until the region is closed");
        }
    }
}
