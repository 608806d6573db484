package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Ibv;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * {@code struct ibv_comp_channel}: where armed CQs signal completion events. Wait with a timeout
 * ({@link #awaitEvent(Duration)}), or put {@link #fd()} in your own event loop (it is non-blocking).
 */
public final class CompletionChannel extends NativeObject {
    // Resolved once: waitReadable runs on every event wait of the -e data path.
    private static final long POLLFD_FD = Structs.offset(Structs.pollfd, "fd");
    private static final long POLLFD_EVENTS = Structs.offset(Structs.pollfd, "events");
    private static final long POLLFD_REVENTS = Structs.offset(Structs.pollfd, "revents");

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
        this.fd = handle.get(JAVA_INT, Structs.offset(Structs.ibv_comp_channel, "fd"));
        setNonBlocking(fd);
    }

    static void setNonBlocking(int fd) {
        try {
            int flags = (int) LibC.fcntl().invokeExact(Downcalls.errnoState(), fd, Constants.F_GETFL, 0);
            if (flags < 0) {
                throw VerbsException.of("fcntl", Downcalls.errno(), "F_GETFL on fd " + fd);
            }
            int rc = (int) LibC.fcntl().invokeExact(Downcalls.errnoState(), fd, Constants.F_SETFL, flags | Constants.O_NONBLOCK);
            if (rc < 0) {
                throw VerbsException.of("fcntl", Downcalls.errno(), "F_SETFL O_NONBLOCK on fd " + fd);
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
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
        MemorySegment h = handle();
        if (!waitReadable(pollFd, fd, timeout)) {
            return null;
        }
        try {
            int rc = (int) Ibv.ibv_get_cq_event().invokeExact(Downcalls.errnoState(), h, cqOut, ctxOut);
            if (rc != 0) {
                int errno = Downcalls.errno();
                if (errno == 11) { // EAGAIN: another reader took it
                    return null;
                }
                throw VerbsException.of("ibv_get_cq_event", errno, "device " + context.name());
            }
            MemorySegment cqPtr = cqOut.get(ADDRESS, 0);
            Ibv.ibv_ack_cq_events().invokeExact(cqPtr, 1);
            CompletionQueue cq = queues.get(cqPtr.address());
            if (cq == null) {
                throw new IllegalStateException("event for an unknown CQ 0x" + Long.toHexString(cqPtr.address()));
            }
            return cq;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** poll(2) on one fd; true when readable, false on timeout. A negative timeout waits forever. */
    static boolean waitReadable(MemorySegment pollFd, int fd, Duration timeout) {
        long ms = timeout == null ? -1 : Math.max(0, timeout.toMillis());
        pollFd.set(JAVA_INT, POLLFD_FD, fd);
        pollFd.set(JAVA_SHORT, POLLFD_EVENTS, (short) Constants.POLLIN);
        pollFd.set(JAVA_SHORT, POLLFD_REVENTS, (short) 0);
        try {
            while (true) {
                int n = (int) LibC.poll().invokeExact(Downcalls.errnoState(), pollFd, 1L, (int) Math.min(ms, Integer.MAX_VALUE));
                if (n > 0) {
                    return true;
                }
                if (n == 0) {
                    return false;
                }
                int errno = Downcalls.errno();
                if (errno != 4) { // EINTR: retry
                    throw VerbsException.of("poll", errno, "fd " + fd);
                }
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    void destroy(MemorySegment handle) {
        destroyWith(Ibv.ibv_destroy_comp_channel(), "ibv_destroy_comp_channel", handle, "device " + context.name());
    }

    @Override
    void afterClose() {
        arena.close();
    }
}
