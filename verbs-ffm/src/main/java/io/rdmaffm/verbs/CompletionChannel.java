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
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct ibv_comp_channel}: where armed CQs signal completion events. Wait with a timeout
 * ({@link #awaitEvent(Duration)}), or put {@link #fd()} in your own event loop (it is non-blocking).
 */
public final class CompletionChannel extends NativeObject {
    private final Context context;
    private final int fd;
    private final Map<Long, CompletionQueue> queues = new ConcurrentHashMap<>();
    private final Arena arena = Arena.ofShared();
    private final MemorySegment pollFd = arena.allocate(Structs.pollfd);
    private final MemorySegment cqOut = arena.allocate(ADDRESS);
    private final MemorySegment ctxOut = arena.allocate(ADDRESS);

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

    void unregister(CompletionQueue cq) {
        queues.remove(cq.rawHandle().address());
    }

    /**
     * Waits for the next completion event ({@code poll(2)} then {@code ibv_get_cq_event}) and acknowledges it.
     * Returns the CQ that fired, or null when {@code timeout} passed first. Re-arm the CQ with
     * {@link CompletionQueue#requestNotify(boolean)} before polling it, so no completion is missed.
     */
    public synchronized CompletionQueue awaitEvent(Duration timeout) {
        handle();
        if (!Fds.awaitReadable(pollFd, fd, timeout == null ? -1 : Math.max(0, timeout.toNanos()), "fd")) {
            return null;
        }
        MemorySegment h = life.enter();
        int rc;
        try {
            rc = (int) Ibv.ibv_get_cq_event.handle().invokeExact(Downcalls.errnoState(), h, cqOut, ctxOut);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            life.exit();
        }
        if (rc != 0) {
            int errno = Downcalls.errno();
            if (errno == Constants.EAGAIN) { // another reader took it
                return null;
            }
            throw Errors.of("ibv_get_cq_event", errno, "device " + context.name());
        }
        MemorySegment cqPtr = cqOut.get(ADDRESS, 0);
        // Through the pointer, not the CQ's guard: ibv_destroy_cq waits until every event of the CQ is
        // acknowledged, so the CQ cannot be freed before this, and a close in progress needs it to finish.
        try {
            Ibv.ibv_ack_cq_events.handle().invokeExact(cqPtr, 1);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        CompletionQueue cq = queues.get(cqPtr.address());
        if (cq == null) {
            throw new IllegalStateException("event for an unknown CQ 0x" + Long.toHexString(cqPtr.address()));
        }
        return cq;
    }

    /**
     * {@code ibv_destroy_comp_channel}; refused while CQs use the channel. Waits for an {@link #awaitEvent} in
     * progress (its poll(2) uses this channel's memory, freed here).
     */
    @Override
    public synchronized void close() {
        super.close();
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_comp_channel.handle(), "ibv_destroy_comp_channel", handle, "device " + context.name());
    }

    @Override
    void afterClose() {
        arena.close();
    }
}
