package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ibv_srq}: one receive queue shared by many QPs. When fewer than the armed limit of
 * receives remain, the device raises IBV_EVENT_SRQ_LIMIT_REACHED (see {@link AsyncEvents}) once.
 */
public final class SharedReceiveQueue extends NativeObject {
    private final ProtectionDomain pd;

    private SharedReceiveQueue(ProtectionDomain pd, MemorySegment handle) {
        super(pd, "shared receive queue", handle);
        this.pd = pd;
    }

    static SharedReceiveQueue create(ProtectionDomain pd, int maxWr, int maxSge, int limit) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_srq_init_attr);
            a.set(JAVA_INT, Offsets.ibv_srq_init_attr.attr__max_wr, maxWr);
            a.set(JAVA_INT, Offsets.ibv_srq_init_attr.attr__max_sge, maxSge);
            a.set(JAVA_INT, Offsets.ibv_srq_init_attr.attr__srq_limit, limit);
            return pd.life.create(h -> {
                MemorySegment srq = (MemorySegment) Ibv.ibv_create_srq.handle().invokeExact(Downcalls.errnoState(), h, a);
                if (srq.equals(MemorySegment.NULL)) {
                    throw Errors.of("ibv_create_srq", Downcalls.errno(), "device " + pd.context().name()
                            + ", max_wr " + maxWr + ", max_sge " + maxSge);
                }
                return new SharedReceiveQueue(pd, srq.reinterpret(Structs.ibv_srq.byteSize()));
            });
        }
    }

    /**
     * Posts receive work requests [from, from+n) ({@code ibv_post_srq_recv}). Throws IllegalStateException once
     * the SRQ is closed (or being closed by another thread, which waits for a post in progress).
     */
    public void postRecv(RecvWorkRequests batch, int from, int n) {
        Lifetime l = life;
        Lifetime m = batch.memory;
        long h = l.enterAddress(m);
        int rc;
        try {
            rc = (int) Shim.DataPath.rdmaffm_post_srq_recv.invokeExact(h, batch.chainRange(from, n),
                    batch.badWrAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            l.exit(m);
        }
        if (rc != 0) {
            throw Errors.of("ibv_post_srq_recv", Errors.postErrno(rc), "device " + pd.context().name());
        }
    }

    public void postRecv(RecvWorkRequests batch, int n) {
        postRecv(batch, 0, n);
    }

    /** Arms the limit event ({@code ibv_modify_srq} with IBV_SRQ_LIMIT). */
    public void armLimit(int limit) {
        modify(0, limit, Constants.IBV_SRQ_LIMIT);
    }

    /** Resizes ({@code ibv_modify_srq} with IBV_SRQ_MAX_WR), if the device supports it. */
    public void resize(int maxWr) {
        modify(maxWr, 0, Constants.IBV_SRQ_MAX_WR);
    }

    private void modify(int maxWr, int limit, int mask) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_srq_attr);
            a.set(JAVA_INT, Offsets.ibv_srq_attr.max_wr, maxWr);
            a.set(JAVA_INT, Offsets.ibv_srq_attr.srq_limit, limit);
            int rc = call(h -> (int) Ibv.ibv_modify_srq.handle().invokeExact(Downcalls.errnoState(), h, a, mask));
            Errors.check("ibv_modify_srq", rc, "device " + pd.context().name());
        }
    }

    /** {@code ibv_query_srq}: {max_wr, max_sge, srq_limit}. */
    public int[] query() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(Structs.ibv_srq_attr);
            int rc = call(h -> (int) Ibv.ibv_query_srq.handle().invokeExact(Downcalls.errnoState(), h, a));
            Errors.check("ibv_query_srq", rc, "device " + pd.context().name());
            return new int[] {a.get(JAVA_INT, Offsets.ibv_srq_attr.max_wr), a.get(JAVA_INT, Offsets.ibv_srq_attr.max_sge),
                    a.get(JAVA_INT, Offsets.ibv_srq_attr.srq_limit)};
        }
    }

    MemorySegment address() {
        return rawHandle();
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_srq.handle(), "ibv_destroy_srq", handle, "device " + pd.context().name());
    }
}
