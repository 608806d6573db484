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
