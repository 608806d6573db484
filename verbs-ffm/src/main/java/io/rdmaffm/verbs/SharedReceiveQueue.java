package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

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
        StructLayout l = Structs.ibv_srq_init_attr;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            a.set(JAVA_INT, Structs.offset(l, "attr.max_wr"), maxWr);
            a.set(JAVA_INT, Structs.offset(l, "attr.max_sge"), maxSge);
            a.set(JAVA_INT, Structs.offset(l, "attr.srq_limit"), limit);
            MemorySegment srq = (MemorySegment) Ibv.ibv_create_srq().invokeExact(Downcalls.errnoState(), pd.handle(), a);
            if (srq.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_srq", Downcalls.errno(), "device " + pd.context().name()
                        + ", max_wr " + maxWr + ", max_sge " + maxSge);
            }
            return new SharedReceiveQueue(pd, srq.reinterpret(Structs.ibv_srq.byteSize()));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Posts receive work requests [from, from+n) ({@code ibv_post_srq_recv}). */
    public void postRecv(RecvWorkRequests batch, int from, int n) {
        MemorySegment h = handle();
        MemorySegment first = batch.chainRange(from, n);
        int rc;
        try {
            rc = (int) Shim.rdmaffm_post_srq_recv().invokeExact(h, first, batch.badWr);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (rc != 0) {
            throw VerbsException.of("ibv_post_srq_recv", VerbsException.postErrno(rc), "device " + pd.context().name());
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
        StructLayout l = Structs.ibv_srq_attr;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            a.set(JAVA_INT, Structs.offset(l, "max_wr"), maxWr);
            a.set(JAVA_INT, Structs.offset(l, "srq_limit"), limit);
            int rc = (int) Ibv.ibv_modify_srq().invokeExact(Downcalls.errnoState(), handle(), a, mask);
            Context.check("ibv_modify_srq", rc, "device " + pd.context().name());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_query_srq}: {max_wr, max_sge, srq_limit}. */
    public int[] query() {
        StructLayout l = Structs.ibv_srq_attr;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(l);
            int rc = (int) Ibv.ibv_query_srq().invokeExact(Downcalls.errnoState(), handle(), a);
            Context.check("ibv_query_srq", rc, "device " + pd.context().name());
            return new int[] {a.get(JAVA_INT, Structs.offset(l, "max_wr")), a.get(JAVA_INT, Structs.offset(l, "max_sge")),
                    a.get(JAVA_INT, Structs.offset(l, "srq_limit"))};
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    MemorySegment address() {
        return rawHandle();
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_srq(), "ibv_destroy_srq", handle, "device " + pd.context().name());
    }
}
