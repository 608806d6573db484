package io.rdmaffm.verbs.raw;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * A native function whose downcall handle is built on first use ({@link #handle()}), then kept. Building a
 * handle costs milliseconds of class spinning before the JIT has warmed up, so declaring one costs only this
 * small object: opening a device builds the dozen handles it calls, not the hundred the binding declares.
 *
 * <p>For control verbs, whose calls cost microseconds in the kernel: the handle read through {@link #handle()} is
 * not a JIT constant. The data path (post, poll, the {@code ibv_wr_*} builders) uses static final handles in
 * holder classes instead ({@link Shim.DataPath}, {@link Shim.WorkRequests}), built when that path first runs.
 */
public final class LazyHandle {
    private final SymbolLookup lookup;
    private final String name;
    private final FunctionDescriptor descriptor;
    private final boolean captureErrno;
    private final boolean optional;
    private final Linker.Option[] options;
    private volatile MethodHandle handle;

    private LazyHandle(SymbolLookup lookup, String name, FunctionDescriptor descriptor, boolean captureErrno,
                       boolean optional, Linker.Option... options) {
        this.lookup = lookup;
        this.name = name;
        this.descriptor = descriptor;
        this.captureErrno = captureErrno;
        this.optional = optional;
        this.options = options;
    }

    /** A function that reports no errno. */
    static LazyHandle plain(SymbolLookup lookup, String name, FunctionDescriptor fd) {
        return new LazyHandle(lookup, name, fd, false, false);
    }

    /** A function whose handle captures errno: its first argument is {@link Downcalls#errnoState()}. */
    static LazyHandle errnoCapturing(SymbolLookup lookup, String name, FunctionDescriptor fd, Linker.Option... more) {
        return new LazyHandle(lookup, name, fd, true, false, more);
    }

    /** A function older rdma-core releases lack: calls raise UnsupportedOperationException (see Downcalls). */
    static LazyHandle optional(SymbolLookup lookup, String name, FunctionDescriptor fd, boolean captureErrno) {
        return new LazyHandle(lookup, name, fd, captureErrno, true);
    }

    /** The downcall handle, built on the first call. */
    public MethodHandle handle() {
        MethodHandle h = handle;
        if (h == null) {
            h = build();
        }
        return h;
    }

    private synchronized MethodHandle build() {
        if (handle == null) {
            if (optional) {
                handle = Downcalls.optional(lookup, name, descriptor, captureErrno);
            } else if (captureErrno) {
                handle = Downcalls.errnoCapturing(lookup, name, descriptor, options);
            } else {
                handle = Downcalls.plain(lookup, name, descriptor);
            }
        }
        return handle;
    }

    /** The C name. */
    public String name() {
        return name;
    }
}
