package io.rdmaffm.verbs.raw;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;

/**
 * Builds downcall handles. Handles that report failure through errno capture it in the call itself
 * (FFM captureCallState): the first argument of such a handle is the capture segment, one per thread,
 * so errno is never read from shared state after other code may have changed it.
 *
 * <p>{@link Ibv}, {@link Cm}, {@link Shim} and {@link LibC} declare their functions as {@link LazyHandle}s,
 * built on first use, but for the data path's, which are static final (JIT constants) in holder classes built
 * when that path first runs.
 */
public final class Downcalls {
    private Downcalls() {
    }

    static final Linker LINKER = Linker.nativeLinker();
    private static final Linker.Option CAPTURE_ERRNO = Linker.Option.captureCallState("errno");
    private static final StructLayout CAPTURE_LAYOUT = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE_LAYOUT.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> CAPTURE =
            ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE_LAYOUT));

    /** This thread's errno capture segment, to pass as the first argument of an errno-capturing handle. */
    public static MemorySegment errnoState() {
        return CAPTURE.get();
    }

    /** errno as captured by the last errno-capturing call on this thread. */
    public static int errno() {
        return (int) ERRNO.get(CAPTURE.get(), 0L);
    }

    static MethodHandle plain(SymbolLookup lookup, String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(symbol(lookup, name), fd);
    }

    static MethodHandle errnoCapturing(SymbolLookup lookup, String name, FunctionDescriptor fd, Linker.Option... more) {
        Linker.Option[] options = java.util.Arrays.copyOf(more, more.length + 1);
        options[more.length] = CAPTURE_ERRNO;
        return LINKER.downcallHandle(symbol(lookup, name), fd, options);
    }

    /** For hot, short, non-blocking calls into the data path (no thread-state transition). */
    static MethodHandle critical(SymbolLookup lookup, String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(symbol(lookup, name), fd, Linker.Option.critical(false));
    }

    /** A handle for a symbol that older rdma-core releases lack: calls raise UnsupportedOperationException. */
    static MethodHandle optional(SymbolLookup lookup, String name, FunctionDescriptor fd, boolean captureErrno) {
        var found = lookup.find(name);
        if (found.isPresent()) {
            return captureErrno ? LINKER.downcallHandle(found.get(), fd, CAPTURE_ERRNO)
                    : LINKER.downcallHandle(found.get(), fd);
        }
        MethodType type = fd.toMethodType();
        if (captureErrno) {
            type = type.insertParameterTypes(0, MemorySegment.class);
        }
        MethodHandle thrower = MethodHandles.throwException(type.returnType(), UnsupportedOperationException.class)
                .bindTo(new UnsupportedOperationException(name + " is not available in this rdma-core release"));
        return MethodHandles.dropArguments(thrower, 0, type.parameterList());
    }

    private static MemorySegment symbol(SymbolLookup lookup, String name) {
        return lookup.find(name).orElseThrow(() -> new NativeLibraries.MissingLibraryError(
                "symbol " + name + " not found (rdma-core too old, or the native shim does not match this jar)", null));
    }
}
