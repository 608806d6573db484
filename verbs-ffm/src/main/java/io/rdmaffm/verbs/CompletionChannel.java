package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Fds;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ibv_comp_channel}: where armed CQs signal completion events. Wait with a timeout
 * ({@link #awaitEvent(Duration)} for any CQ, {@link #awaitEvent(CompletionQueue, Duration)} for one), let
 * {@link CompletionQueue#await(Completions, Duration)} do it, or put {@link #fd()} in your own event loop (it is
 * non-blocking).
 *
 * <p>Thread-safe, and every wait ends by its deadline: several threads may wait at once, for the same or for
 * different CQs; one of them reads the fd at a time (in slices of at most 50 ms) and hands each event to a waiter of
 * its CQ (or of any CQ); an event nobody waits for yet is kept for the next one. Every event is acknowledged
 * ({@code ibv_ack_cq_events}) as soon as it is read, so a CQ can always be destroyed.
 */
public final class CompletionChannel extends NativeObject {
    /** Longest single poll(2): a reader gives other waiters (and a close) a turn at least this often. */
    private static final long SLICE_NANOS = 50_000_000L;

    private final Context context;
    private final int fd;
    private final Map<Long, CompletionQueue> queues = new ConcurrentHashMap<>();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFd = arena.allocate(Structs.pollfd);
    private final MemorySegment cqOut = arena.allocate(ADDRESS);
    private final MemorySegment ctxOut = arena.allocate(ADDRESS);
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    /** CQs whose events were read but not yet handed to a waiter, one entry per event, in arrival order. */
    private final ArrayDeque<CompletionQueue> fired = new ArrayDeque<>(); // guarded by lock
    private boolean reading; // guarded by lock: one thread reads the fd at a time

    CompletionChannel(Context context, MemorySegment handle) {
        super(context, "completion channel", handle);
        this.context = context;
        this.fd = handle.get(JAVA_INT, Offsets.ibv_comp_channel.fd);
        Fds.setNonBlocking(fd, "fd");
    }

    /** The channel's file descriptor (non-blocking), readable when an event is pending. */
    public int fd() {
        handle();
        return fd;
    }

    void register(CompletionQueue cq) {
        queues.put(cq.rawHandle().address(), cq);
    }

    /** The CQ is destroyed: forget its events, and wake its waiters so that they see it closed. */
    void unregister(CompletionQueue cq) {
        queues.remove(cq.rawHandle().address());
        lock.lock();
        try {
            fired.removeIf(c -> c == cq);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the next completion event of any CQ on this channel ({@code poll(2)} then {@code ibv_get_cq_event})
     * and acknowledges it. Returns the CQ that fired, or null when {@code timeout} (null: no limit) passed first.
     * Re-arm the CQ with {@link CompletionQueue#requestNotify(boolean)} before polling it, so no completion is
     * missed.
     */
    public CompletionQueue awaitEvent(Duration timeout) {
        return take(null, deadline(timeout));
    }

    /**
     * Waits for the next completion event of {@code cq} (armed with {@link CompletionQueue#requestNotify}); true
     * when one came, false when {@code timeout} passed first. Events of other CQs that arrive meanwhile are kept for
     * their waiters.
     */
    public boolean awaitEvent(CompletionQueue cq, Duration timeout) {
        if (cq == null || cq.channel() != this) {
            throw new IllegalArgumentException("the completion queue must use this channel");
        }
        return take(cq, deadline(timeout)) == cq;
    }

    /** System.nanoTime() plus the timeout, saturated; Long.MAX_VALUE (no limit) for null. */
    static long deadline(Duration timeout) {
        if (timeout == null) {
            return Long.MAX_VALUE;
        }
        long nanos;
        try {
            nanos = Math.max(0, timeout.toNanos());
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
        long now = System.nanoTime();
        long deadline = now + nanos;
        return deadline < now ? Long.MAX_VALUE : deadline;
    }

    /** Nanoseconds left until a {@link #deadline}; Long.MAX_VALUE for none. */
    static long remaining(long deadline) {
        return deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - System.nanoTime();
    }

    /**
     * Hands out the next event of {@code target} (any CQ when null), reading the fd when no other thread does;
     * null when the deadline passed first.
     */
    CompletionQueue take(CompletionQueue target, long deadline) {
        while (true) {
            long left;
            lock.lock();
            try {
                handle();
                CompletionQueue got = target == null ? fired.pollFirst()
                        : fired.removeFirstOccurrence(target) ? target : null;
                if (got != null) {
                    return got;
                }
                if (target != null) {
                    target.handle(); // throws once the CQ is closed (its close wakes its waiters)
                }
                left = remaining(deadline);
                if (left <= 0) {
                    return null;
                }
                if (reading) {
                    changed.awaitNanos(Math.min(left, SLICE_NANOS));
                    continue;
                }
                reading = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a completion event", e);
            } finally {
                lock.unlock();
            }
            CompletionQueue got = null;
            try {
                got = readOne(Math.min(left, SLICE_NANOS));
            } finally {
                lock.lock();
                try {
                    reading = false;
                    if (got != null) {
                        fired.addLast(got);
                    }
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
        }
    }

    /**
     * One poll(2) of at most {@code nanos}, then one {@code ibv_get_cq_event} if the fd is readable, acknowledged at
     * once; returns the CQ of the event, or null. Runs under the channel's guard, so a close waits for it.
     */
    private CompletionQueue readOne(long nanos) {
        MemorySegment h = life.enter();
        try {
            if (!Fds.awaitReadable(pollFd, fd, nanos, "fd")) {
                return null;
            }
            int rc = (int) Ibv.ibv_get_cq_event.handle().invokeExact(Downcalls.errnoState(), h, cqOut, ctxOut);
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == Constants.EAGAIN) { // another reader of the fd took it
                    return null;
                }
                throw Errors.of("ibv_get_cq_event", errno, "device " + context.name());
            }
            MemorySegment cqPtr = cqOut.get(ADDRESS, 0);
            // Through the pointer, not the CQ's guard: ibv_destroy_cq waits until every event of the CQ is
            // acknowledged, so the CQ cannot be freed before this, and a close in progress needs it to finish.
            Ibv.ibv_ack_cq_events.handle().invokeExact(cqPtr, 1);
            // Null when unknown: its CQ was destroyed right after the event was read (its waiters were woken then).
            return queues.get(cqPtr.address());
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            life.exit();
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_comp_channel.handle(), "ibv_destroy_comp_channel", handle, "device " + context.name());
    }

    /**
     * {@code ibv_destroy_comp_channel}; refused while CQs use the channel. Waits for a read of the channel in
     * progress on another thread (at most one 50 ms slice); later waits throw IllegalStateException.
     */
    @Override
    public void close() {
        super.close();
        lock.lock();
        try {
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    void afterClose() {
        arena.close();
    }
}
