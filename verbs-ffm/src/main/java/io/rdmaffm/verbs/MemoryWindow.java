package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ibv_mw}: a window granting remote access to part of a memory region, bound and re-bound
 * without re-registering. Type 1 is bound with {@code ibv_bind_mw}; type 2 with a BIND_MW work request
 * ({@link SendWorkRequests.Request#bindMemoryWindow}, or {@code ibv_wr_bind_mw} through
 * {@link ExtendedSend#bindMemoryWindow}) and invalidated with LOCAL_INV or SEND_WITH_INV.
 */
public final class MemoryWindow extends NativeObject {
    /** enum ibv_mw_type. */
    public enum Type {
        TYPE_1(1), TYPE_2(2);

        private final int value;

        Type(int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }
    }

    private final ProtectionDomain pd;
    private final Type type;

    MemoryWindow(ProtectionDomain pd, MemorySegment handle, Type type) {
        super(pd, "memory window", handle);
        this.pd = pd;
        this.type = type;
    }

    public Type type() {
        return type;
    }

    /**
     * The current rkey (changes with every bind): set by {@code ibv_bind_mw} for type 1, and for type 2 by
     * the binding when a BIND_MW work request built with
     * {@link SendWorkRequests.Request#bindMemoryWindow} or {@link ExtendedSend#bindMemoryWindow} is posted.
     */
    public int rkey() {
        return call(h -> h.get(JAVA_INT, Offsets.ibv_mw.rkey));
    }

    /** The rkey a type 2 bind should use next: {@code ibv_inc_rkey} of the current one. */
    public int nextRkey() {
        int rkey = rkey();
        try {
            return (int) Shim.rdmaffm_inc_rkey.handle().invokeExact(rkey);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    /** A BIND_MW work request with this window was posted: providers take ibv_mw.rkey as the current rkey. */
    void boundTo(int newRkey) {
        call(h -> {
            h.set(JAVA_INT, Offsets.ibv_mw.rkey, newRkey);
            return null;
        });
    }

    int bindType1(QueuePair qp, long wrId, int sendFlags, MemoryRegion mr, long offset, long length, int access) {
        if (type != Type.TYPE_1) {
            throw new IllegalStateException("ibv_bind_mw binds type 1 windows; bind a type 2 window with a BIND_MW work request");
        }
        long address = mr.addressOf(offset, length);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment b = arena.allocate(Structs.ibv_mw_bind);
            b.set(JAVA_LONG, Offsets.ibv_mw_bind.wr_id, wrId);
            b.set(JAVA_INT, Offsets.ibv_mw_bind.send_flags, sendFlags);
            b.set(JAVA_LONG, Offsets.ibv_mw_bind.bind_info__addr, address);
            b.set(JAVA_LONG, Offsets.ibv_mw_bind.bind_info__length, length);
            b.set(JAVA_INT, Offsets.ibv_mw_bind.bind_info__mw_access_flags, access);
            // The verb reads the QP, the window and the region: each stays open until it returns.
            int rc = qp.call(q -> mr.call(m -> call(w -> {
                b.set(ADDRESS, Offsets.ibv_mw_bind.bind_info__mr, m);
                return (int) Shim.rdmaffm_bind_mw.handle().invokeExact(Downcalls.errnoState(), q, w, b);
            })));
            if (rc != 0) {
                throw Errors.of("ibv_bind_mw", Errors.errnoOf(rc), "QP 0x" + Integer.toHexString(qp.qpNumber()));
            }
            return rkey();
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Shim.rdmaffm_dealloc_mw.handle(), "ibv_dealloc_mw", handle, "device " + pd.context().name());
    }
}
