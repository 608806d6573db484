package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The few libc calls the binding needs: poll(2) for bounded waits on event fds, names of errors and interfaces.
 * Each handle is built on its first use ({@link LazyHandle}).
 */
public final class LibC {
    private LibC() {
    }

    private static final SymbolLookup L = Downcalls.LINKER.defaultLookup();

    /** int poll(struct pollfd *fds, nfds_t nfds, int timeout_ms). */
    public static final LazyHandle poll = LazyHandle.errnoCapturing(L, "poll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    public static final LazyHandle strerror = LazyHandle.plain(L, "strerror", FunctionDescriptor.of(ADDRESS, JAVA_INT));
    /** char *if_indextoname(unsigned ifindex, char *ifname). */
    public static final LazyHandle if_indextoname = LazyHandle.errnoCapturing(L, "if_indextoname", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    /** int close(int fd): the dma-buf fds a CUDA export hands out. */
    public static final LazyHandle close = LazyHandle.errnoCapturing(L, "close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    /** int eventfd(unsigned int initval, int flags): a wake-up fd that a poll(2) can wait on beside another fd. */
    public static final LazyHandle eventfd = LazyHandle.errnoCapturing(L, "eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    /** int eventfd_write(int fd, eventfd_t value). */
    public static final LazyHandle eventfd_write = LazyHandle.errnoCapturing(L, "eventfd_write",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    /** int fcntl(int fd, int cmd, int arg): used only as F_GETFL/F_SETFL with O_NONBLOCK. */
    public static final LazyHandle fcntl = LazyHandle.errnoCapturing(L, "fcntl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    /** void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off): anonymous huge-page regions. */
    public static final LazyHandle mmap = LazyHandle.errnoCapturing(L, "mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    /** int munmap(void *addr, size_t len). */
    public static final LazyHandle munmap = LazyHandle.errnoCapturing(L, "munmap",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
}
