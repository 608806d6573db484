package io.rdmaffm.perftest.params;

import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.util.function.Predicate;

/**
 * Why {@code --use_rocm} is refused: perftest-java's buffers live in host memory or CUDA memory only, and the
 * line says whether the ROCm runtime (HIP) was there at all, so a user knows which of the two stands in the way.
 */
final class RocmRuntime {
    /** The HIP runtime perftest's ROCm build links against. */
    static final String LIBRARY = "libamdhip64.so";

    private RocmRuntime() {
    }

    /** The one line {@code --use_rocm} is refused with, {@code loadable} telling whether a library loads. */
    static String refusal(Predicate<String> loadable) {
        return loadable.test(LIBRARY)
                ? "--use_rocm: ROCm memory is not supported by perftest-java (the ROCm runtime " + LIBRARY
                        + " is present; use --use_cuda for GPU memory)"
                : "--use_rocm: no ROCm runtime on this host (" + LIBRARY + " not found by the dynamic loader)";
    }

    /** Whether the dynamic loader finds {@code library} (loaded into an arena closed at once). */
    static boolean loadable(String library) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(library, arena);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
