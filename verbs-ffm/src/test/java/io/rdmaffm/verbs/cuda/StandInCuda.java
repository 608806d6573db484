package io.rdmaffm.verbs.cuda;

import org.junit.jupiter.api.Assumptions;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The stand-in libcuda native-shim builds for the tests (native-shim/src/test/c/fake_libcuda.c): its path
 * (system property {@code rdmaffm.test.fakeLibcuda}, set by the build) and its two test-only controls.
 */
public final class StandInCuda {
    private StandInCuda() {
    }

    /** The stand-in's path; skips the test, saying why, when the build did not make it. */
    public static String path() {
        String p = System.getProperty("rdmaffm.test.fakeLibcuda");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
                "the stand-in libcuda was not built (native-shim's test-compile makes it): " + p);
        return p;
    }

    private static SymbolLookup lookup() {
        return SymbolLookup.libraryLookup(Path.of(path()), Arena.global());
    }

    /** Re-initialises the stand-in: GPUs, bytes each holds, driver version it reports, dma-buf support. */
    public static void configure(int gpus, long memory, int driver, boolean dmabuf) {
        MethodHandle h = Linker.nativeLinker().downcallHandle(lookup().find("fake_cuda_configure").orElseThrow(),
                FunctionDescriptor.ofVoid(JAVA_INT, JAVA_LONG, JAVA_INT, JAVA_INT));
        try {
            h.invokeExact(gpus, memory, driver, dmabuf ? 1 : 0);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** The ABI version the binding last asked cuGetProcAddress for {@code name}, or 0 if never. */
    public static int askedVersion(String name) {
        MethodHandle h = Linker.nativeLinker().downcallHandle(lookup().find("fake_cuda_asked_version").orElseThrow(),
                FunctionDescriptor.of(JAVA_INT, ADDRESS));
        try (Arena a = Arena.ofConfined()) {
            return (int) h.invokeExact(a.allocateFrom(name));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }
}
