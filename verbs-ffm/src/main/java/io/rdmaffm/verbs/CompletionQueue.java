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
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code struct ibv_cq}, or an extended {@code ibv_cq_ex} (same API; polled through start/next/end_poll).
 * {@link #poll(Completions)} is the data path: one downcall, no allocation. Poll from one thread at a time.
 * {@link #close()} may come from another thread while one polls: it waits for the poll in progress to return,
 * and the next poll throws IllegalStateException.
 */
public final class CompletionQueue extends NativeObject {
    /** How long {@link #await} polls in a loop before it sleeps: about one round trip on a fast fabric. */
    private static final long SPIN_NANOS = 50_000;
    /** Longest sleep between polls of {@link #await} on a CQ without a completion channel. */
    private static final long MAX_PAUSE_NANOS = 1_000_000;

    private final Context context;
    private final CompletionChannel channel;
    private final boolean extended;
    /** The extended CQ's pointer for the shim's poll (freed with the CQ, so the CQ's guard covers it). */
    private final long pollAddress;
    private int capacity;

    private CompletionQueue(Context context, CompletionChannel channel, MemorySegment handle, MemorySegment pollHandle,
                            boolean extended) {
        super(channel != null ? channel : context, "completion queue", handle);
        this.context = context;
        this.channel = channel;
        this.extended = extended;
        this.pollAddress = pollHandle.address();
        this.capacity = handle.get(JAVA_INT, Offsets.ibv_cq.cqe);
        if (channel != null) {
            channel.register(this);
        }
    }

    /**
     * Runs a create verb with the context's and the channel's pointers: the CQ's parent (its channel, or the
     * context without one) holds its place from before the verb; with a channel, the context's guard keeps the
     * context (which may not be the channel's) open for the verb too.
     */
    private static CompletionQueue make(Context context, CompletionChannel channel, CreateVerb verb) {
        if (channel == null) {
            return context.life.create(ctx -> verb.create(ctx, MemorySegment.NULL));
        }
        return context.call(ctx -> channel.life.create(ch -> verb.create(ctx, ch)));
    }

    @FunctionalInterface
    private interface CreateVerb {
        CompletionQueue create(MemorySegment context, MemorySegment channel) throws Throwable;
    }

    /** {@code ibv_create_cq}. */
    static CompletionQueue create(Context context, int entries, CompletionChannel channel, int vector) {
        if (entries < 1) {
            throw new IllegalArgumentException("a CQ needs at least one entry, not " + entries);
        }
        return make(context, channel, (ctx, ch) -> {
            MemorySegment cq = (MemorySegment) Ibv.ibv_create_cq.handle().invokeExact(Downcalls.errnoState(), ctx, entries,
                    MemorySegment.NULL, ch, vector);
            if (cq.equals(MemorySegment.NULL)) {
                throw Errors.of("ibv_create_cq", Downcalls.errno(), "device " + context.name() + ", " + entries
                        + " entries, vector " + vector);
            }
            cq = cq.reinterpret(Structs.ibv_cq.byteSize());
            return new CompletionQueue(context, channel, cq, cq, false);
        });
    }

    /** {@code ibv_create_cq_ex} with the standard completion fields. */
    static CompletionQueue createExtended(Context context, int entries, CompletionChannel channel, int vector) {
        if (entries < 1) {
            throw new IllegalArgumentException("a CQ needs at least one entry, not " + entries);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(Structs.ibv_cq_init_attr_ex);
            attr.set(JAVA_INT, Offsets.ibv_cq_init_attr_ex.cqe, entries);
            attr.set(JAVA_INT, Offsets.ibv_cq_init_attr_ex.comp_vector, vector);
            attr.set(JAVA_LONG, Offsets.ibv_cq_init_attr_ex.wc_flags, Constants.IBV_WC_STANDARD_FLAGS);
            return make(context, channel, (ctx, ch) -> {
                attr.set(ADDRESS, Offsets.ibv_cq_init_attr_ex.channel, ch);
                MemorySegment cqx = (MemorySegment) Shim.rdmaffm_create_cq_ex.handle().invokeExact(Downcalls.errnoState(),
                        ctx, attr);
                if (cqx.equals(MemorySegment.NULL)) {
                    throw Errors.of("ibv_create_cq_ex", Downcalls.errno(), "device " + context.name() + ", "
                            + entries + " entries");
                }
                MemorySegment cq = ((MemorySegment) Shim.rdmaffm_cq_ex_to_cq.handle().invokeExact(cqx))
                        .reinterpret(Structs.ibv_cq.byteSize());
                return new CompletionQueue(context, channel, cq, cqx.reinterpret(Structs.ibv_cq_ex.byteSize()), true);
            });
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
     * {@link Completions#status(int)}. Throws IllegalStateException once the CQ is closed (or being closed).
     */
    public int poll(Completions completions) {
        Lifetime l = life;
        Lifetime m = completions.memory;
        long h = l.enterAddress(m);
        int n;
        try {
            n = extended
                    ? (int) Shim.DataPath.rdmaffm_cq_ex_poll.invokeExact(pollAddress, completions.capacity(),
                            completions.arrayAddress)
                    : (int) Shim.DataPath.rdmaffm_poll_cq.invokeExact(h, completions.capacity(),
                            completions.arrayAddress);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            l.exit(m);
        }
        if (n < 0) {
            completions.count = 0;
            throw Errors.of(extended ? "ibv_start_poll" : "ibv_poll_cq", -n, "device " + context.name());
        }
        completions.count = n;
        return n;
    }

    /**
     * Waits for completions, at most {@code timeout}: polls ({@link #poll}) and returns at once when there are any
     * (allocating nothing); else polls in a loop for up to 50 &micro;s; then, with a completion channel, arms the CQ
     * ({@code ibv_req_notify_cq}), polls once more (a completion that arrived before the arming raises no event)
     * and sleeps on the channel until this CQ's event, then polls again; without a channel, sleeps between polls
     * in steps that grow to 1 ms. Returns how many completions were polled into {@code completions}, or 0 when the
     * timeout passed first (it never waits longer). Poll from one thread at a time, as with {@link #poll}; a close
     * of the CQ on another thread makes it throw IllegalStateException.
     */
    public int await(Completions completions, Duration timeout) {
        int n = poll(completions);
        if (n != 0) {
            return n;
        }
        if (timeout == null) {
            throw new IllegalArgumentException("a timeout is required (Duration.ZERO: poll once)");
        }
        return awaitUntil(completions, CompletionChannel.deadline(timeout));
    }

    private int awaitUntil(Completions completions, long deadline) {
        long spinEnd = System.nanoTime() + Math.min(SPIN_NANOS, Math.max(0, CompletionChannel.remaining(deadline)));
        int n;
        while (spinEnd - System.nanoTime() > 0) {
            if ((n = poll(completions)) != 0) {
                return n;
            }
            Thread.onSpinWait();
        }
        long pause = 1_000;
        while (true) {
            long left = CompletionChannel.remaining(deadline);
            if (left <= 0) {
                return poll(completions);
            }
            if (channel != null) {
                requestNotify(false);
                if ((n = poll(completions)) != 0) {
                    return n;
                }
                channel.take(this, deadline);
            } else {
                LockSupport.parkNanos(Math.min(left, pause));
                pause = Math.min(pause * 2, MAX_PAUSE_NANOS);
            }
            if ((n = poll(completions)) != 0) {
                return n;
            }
        }
    }

    /** Arms the CQ for one event on its channel ({@code ibv_req_notify_cq}). */
    public void requestNotify(boolean solicitedOnly) {
        if (channel == null) {
            throw new IllegalStateException("this completion queue has no completion channel to notify");
        }
        int rc = call(h -> (int) Shim.DataPath.rdmaffm_req_notify_cq.invokeExact(h, solicitedOnly ? 1 : 0));
        if (rc != 0) {
            throw Errors.of("ibv_req_notify_cq", rc, "device " + context.name());
        }
    }

    /** {@code ibv_resize_cq}; returns the new capacity. */
    public int resize(int entries) {
        int rc = call(h -> (int) Ibv.ibv_resize_cq.handle().invokeExact(Downcalls.errnoState(), h, entries));
        Errors.check("ibv_resize_cq", rc, "device " + context.name() + ", " + entries + " entries");
        capacity = call(h -> h.get(JAVA_INT, Offsets.ibv_cq.cqe));
        return capacity;
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_cq.handle(), "ibv_destroy_cq", handle, "device " + context.name());
        if (channel != null) {
            channel.unregister(this);
        }
    }
}
