package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Shim;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ibv_cq}, or an extended {@code ibv_cq_ex} (same API; polled through start/next/end_poll).
 * {@link #poll(Completions)} is the data path: one downcall, no allocation. Poll from one thread at a time.
 */
public final class CompletionQueue extends NativeObject {
    private final Context context;
    private final CompletionChannel channel;
    private final boolean extended;
    private final MemorySegment pollHandle;
    private int capacity;

    private CompletionQueue(Context context, CompletionChannel channel, MemorySegment handle, MemorySegment pollHandle,
                            boolean extended) {
        super(channel != null ? channel : context, "completion queue", handle);
        this.context = context;
        this.channel = channel;
        this.extended = extended;
        this.pollHandle = pollHandle;
        this.capacity = handle.get(JAVA_INT, Structs.offset(Structs.ibv_cq, "cqe"));
        if (channel != null) {
            channel.register(this);
        }
    }

    /** {@code ibv_create_cq}. */
    static CompletionQueue create(Context context, int entries, CompletionChannel channel, int vector) {
        if (entries < 1) {
            throw new IllegalArgumentException("a CQ needs at least one entry, not " + entries);
        }
        MemorySegment channelHandle = channel == null ? MemorySegment.NULL : channel.handle();
        try {
            MemorySegment cq = (MemorySegment) Ibv.ibv_create_cq().invokeExact(Downcalls.errnoState(), context.handle(),
                    entries, MemorySegment.NULL, channelHandle, vector);
            if (cq.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_cq", Downcalls.errno(), "device " + context.name() + ", " + entries
                        + " entries, vector " + vector);
            }
            cq = cq.reinterpret(Structs.ibv_cq.byteSize());
            return new CompletionQueue(context, channel, cq, cq, false);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_create_cq_ex} with the standard completion fields. */
    static CompletionQueue createExtended(Context context, int entries, CompletionChannel channel, int vector) {
        if (entries < 1) {
            throw new IllegalArgumentException("a CQ needs at least one entry, not " + entries);
        }
        var l = Structs.ibv_cq_init_attr_ex;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(l);
            attr.set(JAVA_INT, Structs.offset(l, "cqe"), entries);
            attr.set(java.lang.foreign.ValueLayout.ADDRESS, Structs.offset(l, "channel"),
                    channel == null ? MemorySegment.NULL : channel.handle());
            attr.set(JAVA_INT, Structs.offset(l, "comp_vector"), vector);
            attr.set(JAVA_LONG, Structs.offset(l, "wc_flags"), io.rdmaffm.verbs.raw.Constants.IBV_WC_STANDARD_FLAGS);
            MemorySegment cqx = (MemorySegment) Shim.rdmaffm_create_cq_ex().invokeExact(Downcalls.errnoState(),
                    context.handle(), attr);
            if (cqx.equals(MemorySegment.NULL)) {
                throw VerbsException.of("ibv_create_cq_ex", Downcalls.errno(), "device " + context.name() + ", "
                        + entries + " entries");
            }
            MemorySegment cq = ((MemorySegment) Shim.rdmaffm_cq_ex_to_cq().invokeExact(cqx)).reinterpret(Structs.ibv_cq.byteSize());
            return new CompletionQueue(context, channel, cq, cqx.reinterpret(Structs.ibv_cq_ex.byteSize()), true);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public Context context() {
        return context;
    }

    /** The channel events go to, or null. */
    public CompletionChannel channel() {
        return channel;
    }

    /** True for a CQ created with {@code ibv_create_cq_ex}. */
    public boolean isExtended() {
        return extended;
    }

    /** Entries the device actually allocated (may exceed what was asked). */
    public int capacity() {
        return capacity;
    }

    /**
     * Polls up to {@code completions.capacity()} completions ({@code ibv_poll_cq}, or
     * {@code ibv_start_poll}/{@code ibv_next_poll}/{@code ibv_end_poll} for an extended CQ) into the array.
     * Returns how many; 0 when the CQ is empty. A failed completion is data: check
     * {@link Completions#status(int)}.
     */
    public int poll(Completions completions) {
        MemorySegment h = handle();
        int n;
        try {
            n = extended
                    ? (int) Shim.rdmaffm_cq_ex_poll().invokeExact(pollHandle, completions.capacity(), completions.array)
                    : (int) Shim.rdmaffm_poll_cq().invokeExact(h, completions.capacity(), completions.array);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (n < 0) {
            completions.count = 0;
            throw VerbsException.of(extended ? "ibv_start_poll" : "ibv_poll_cq", -n, "device " + context.name());
        }
        completions.count = n;
        return n;
    }

    /** Arms the CQ for one event on its channel ({@code ibv_req_notify_cq}). */
    public void requestNotify(boolean solicitedOnly) {
        if (channel == null) {
            throw new IllegalStateException("this completion queue has no completion channel to notify");
        }
        try {
            int rc = (int) Shim.rdmaffm_req_notify_cq().invokeExact(handle(), solicitedOnly ? 1 : 0);
            if (rc != 0) {
                throw VerbsException.of("ibv_req_notify_cq", rc, "device " + context.name());
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** {@code ibv_resize_cq}; returns the new capacity. */
    public int resize(int entries) {
        try {
            int rc = (int) Ibv.ibv_resize_cq().invokeExact(Downcalls.errnoState(), handle(), entries);
            Context.check("ibv_resize_cq", rc, "device " + context.name() + ", " + entries + " entries");
            capacity = handle().get(JAVA_INT, Structs.offset(Structs.ibv_cq, "cqe"));
            return capacity;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_cq(), "ibv_destroy_cq", handle, "device " + context.name());
        if (channel != null) {
            channel.unregister(this);
        }
    }
}
