package io.rdmaffm.verbs.raw;

import java.lang.foreign.MemorySegment;

/** Version and ABI of the loaded native shim; a mismatch with this jar is refused at first use. */
public final class ShimInfo {
    private ShimInfo() {
    }

    /** Must equal RDMAFFM_SHIM_ABI in rdmaffm_shim.h. */
    public static final int EXPECTED_ABI = 2;

    public static int abi() {
        try {
            return (int) Shim.rdmaffm_shim_abi.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    public static String version() {
        try {
            MemorySegment s = (MemorySegment) Shim.rdmaffm_shim_version.invokeExact();
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** Throws when the shim on the library path is not the one this jar was built with. */
    public static void requireCompatible() {
        int abi = abi();
        if (abi != EXPECTED_ABI) {
            throw new NativeLibraries.MissingLibraryError("native shim ABI " + abi + " does not match this jar (expects "
                    + EXPECTED_ABI + "); remove a stale -Drdmaffm.shim.path", null);
        }
    }
}
