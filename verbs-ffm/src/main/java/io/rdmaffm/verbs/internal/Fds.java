package io.rdmaffm.verbs.internal;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.LibC;
import io.rdmaffm.verbs.raw.Offsets;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The event fds of verbs and rdma_cm (completion channel, async events, rdma_cm channel): made non-blocking, so
 * no read can hang, and waited on with poll(2), so every wait is bounded. {@code kind} names the fd in messages
 * ("fd", "rdma_cm fd"); messages are built only on failure, so waits on the data path allocate nothing.
 */
public final class Fds {
    private Fds() {
    }

    /** EFD_CLOEXEC | EFD_NONBLOCK (Linux: O_CLOEXEC, O_NONBLOCK). */
    private static final int EVENTFD_FLAGS = 0x80000 | Constants.O_NONBLOCK;

    /** A non-blocking eventfd (counter 0): {@link #signal} makes it readable; closed with {@link #closeFd}. */
    public static int eventFd(String kind) {
        int fd;
        try {
            fd = (int) LibC.eventfd.handle().invokeExact(Downcalls.errnoState(), 0, EVENTFD_FLAGS);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        if (fd < 0) {
            throw Errors.of("eventfd", Downcalls.errno(), kind);
        }
        return fd;
    }

    /** Adds 1 to an eventfd's counter: it stays readable (nobody reads it back; it is only ever closed). */
    public static void signal(int eventFd) {
        try {
            int rc = (int) LibC.eventfd_write.handle().invokeExact(Downcalls.errnoState(), eventFd, 1L);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    public static void closeFd(int fd) {
        try {
            int rc = (int) LibC.close.handle().invokeExact(Downcalls.errnoState(), fd);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
    }

    /**
     * poll(2) for POLLIN on two fds, {@code pollFds} holding two {@code struct pollfd}: bit 0 set when {@code fd0}
     * is readable, bit 1 for {@code fd1}; 0 when {@code timeoutNanos} passed first (negative: no limit). EINTR
     * restarts the wait.
     */
    public static int awaitEither(MemorySegment pollFds, int fd0, int fd1, long timeoutNanos, String kind) {
        long size = io.rdmaffm.verbs.raw.Structs.pollfd.byteSize();
        pollFds.set(JAVA_INT, Offsets.pollfd.fd, fd0);
        pollFds.set(JAVA_SHORT, Offsets.pollfd.events, (short) Constants.POLLIN);
        pollFds.set(JAVA_INT, size + Offsets.pollfd.fd, fd1);
        pollFds.set(JAVA_SHORT, size + Offsets.pollfd.events, (short) Constants.POLLIN);
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        while (true) {
            long left = deadline == Long.MAX_VALUE ? -1 : Math.max(0, deadline - System.nanoTime());
            int ms = left < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
            pollFds.set(JAVA_SHORT, Offsets.pollfd.revents, (short) 0);
            pollFds.set(JAVA_SHORT, size + Offsets.pollfd.revents, (short) 0);
            int n;
            try {
                n = (int) LibC.poll.handle().invokeExact(Downcalls.errnoState(), pollFds, 2L, ms);
            } catch (Throwable t) {
                throw Errors.unchecked(t);
            }
            if (n >= 0) {
                return (pollFds.get(JAVA_SHORT, Offsets.pollfd.revents) != 0 ? 1 : 0)
                        | (pollFds.get(JAVA_SHORT, size + Offsets.pollfd.revents) != 0 ? 2 : 0);
            }
            int errno = Downcalls.errno();
            if (errno != Constants.EINTR) {
                throw Errors.of("poll", errno, kind + " " + fd0);
            }
            if (left == 0) {
                return 0;
            }
        }
    }

    /** fcntl(F_GETFL), then fcntl(F_SETFL, flags | O_NONBLOCK). */
    public static void setNonBlocking(int fd, String kind) {
        int flags;
        int rc;
        try {
            flags = (int) LibC.fcntl.handle().invokeExact(Downcalls.errnoState(), fd, Constants.F_GETFL, 0);
            if (flags < 0) {
                throw Errors.of("fcntl", Downcalls.errno(), "F_GETFL on " + kind + " " + fd);
            }
            rc = (int) LibC.fcntl.handle().invokeExact(Downcalls.errnoState(), fd, Constants.F_SETFL,
                    flags | Constants.O_NONBLOCK);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        if (rc < 0) {
            throw Errors.of("fcntl", Downcalls.errno(), "F_SETFL O_NONBLOCK on " + kind + " " + fd);
        }
    }

    /**
     * poll(2) for POLLIN on one fd, in {@code pollFd} (a {@code struct pollfd} the caller owns): true when it is
     * readable, false when {@code timeoutNanos} passed first (negative: no limit). A signal (EINTR) restarts the
     * wait with the time that is left.
     */
    public static boolean awaitReadable(MemorySegment pollFd, int fd, long timeoutNanos, String kind) {
        long deadline = timeoutNanos < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNanos;
        pollFd.set(JAVA_INT, Offsets.pollfd.fd, fd);
        pollFd.set(JAVA_SHORT, Offsets.pollfd.events, (short) Constants.POLLIN);
        while (true) {
            long left = deadline == Long.MAX_VALUE ? -1 : Math.max(0, deadline - System.nanoTime());
            int ms = left < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (left + 999_999) / 1_000_000);
            pollFd.set(JAVA_SHORT, Offsets.pollfd.revents, (short) 0);
            int n;
            try {
                n = (int) LibC.poll.handle().invokeExact(Downcalls.errnoState(), pollFd, 1L, ms);
            } catch (Throwable t) {
                throw Errors.unchecked(t);
            }
            if (n != -1) {
                return n > 0;
            }
            int errno = Downcalls.errno();
            if (errno != Constants.EINTR) {
                throw Errors.of("poll", errno, kind + " " + fd);
            }
            if (left == 0) {
                return false;
            }
        }
    }
}
