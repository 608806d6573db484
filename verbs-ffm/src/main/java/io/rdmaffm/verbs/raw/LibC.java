package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static io.rdmaffm.verbs.raw.Downcalls.errnoCapturing;
import static io.rdmaffm.verbs.raw.Downcalls.plain;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few libc calls the binding needs: poll(2) for bounded waits on event fds, names of errors and interfaces.
 * Each handle is built on its first use (see {@link Downcalls}).
 */
public final class LibC {
    private LibC() {
    }

    private static final SymbolLookup L = Downcalls.LINKER.defaultLookup();

    /** int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms). */
    public static MethodHandle poll() {
        return poll.H;
    }

    private static final class poll {
        static final MethodHandle H = errnoCapturing(L, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    }

    public static MethodHandle strerror() {
        return strerror.H;
    }

    private static final class strerror {
        static final MethodHandle H = plain(L, "strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    }

    /** char *if_indextoname(unsigned ifindex, char *ifname). */
    public static MethodHandle if_indextoname() {
        return if_indextoname.H;
    }

    private static final class if_indextoname {
        static final MethodHandle H = errnoCapturing(L, "if_indextoname", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    }

    /** int fcntl(int fd, int cmd, int arg): used only as F_GETFL/F_SETFL with O_NONBLOCK. */
    public static MethodHandle fcntl() {
        return fcntl.H;
    }

    private static final class fcntl {
        static final MethodHandle H = errnoCapturing(L, "fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT),
                java.lang.foreign.Linker.Option.firstVariadicArg(2));
    }
}
