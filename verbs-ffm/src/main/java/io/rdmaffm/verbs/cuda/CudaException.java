package io.rdmaffm.verbs.cuda;

/**
 * A CUDA driver call failed, or the driver could not be used at all. Carries the problem (what a user can fix),
 * the driver function and its {@code CUresult} (0 when no call was made), and a one-line message that names
 * the cause and the fix.
 */
public final class CudaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What went wrong, in the terms of its fix. */
    public enum Problem {
        /** libcuda.so.1 is not installed (or not where {@link Cuda#LIBRARY_ENV} points). */
        NO_LIBRARY,
        /** The driver lacks an entry point, or an ABI version of one, that the binding needs. */
        DRIVER_TOO_OLD,
        /** No GPU has that index or PCI bus id, or the driver sees no GPU at all. */
        NO_SUCH_GPU,
        /** The GPU cannot hold the allocation. */
        OUT_OF_MEMORY,
        /** The GPU or driver cannot export its memory as a dma-buf. */
        DMA_BUF_UNSUPPORTED,
        /** Any other failed call. */
        CALL_FAILED
    }

    private final Problem problem;
    private final String function;
    private final int result;

    CudaException(Problem problem, String function, int result, String message) {
        super(message);
        this.problem = problem;
        this.function = function;
        this.result = result;
    }

    public Problem problem() {
        return problem;
    }

    /** The driver function that failed, e.g. {@code cuMemAlloc}; empty when none was called. */
    public String function() {
        return function;
    }

    /** The CUresult it returned; 0 when none was called. */
    public int result() {
        return result;
    }
}
