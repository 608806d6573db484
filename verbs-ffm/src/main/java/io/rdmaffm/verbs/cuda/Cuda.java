package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.cuda.CudaException.Problem;
import io.rdmaffm.verbs.raw.CudaDriver;
import io.rdmaffm.verbs.raw.CudaDriver.Entry;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The CUDA driver, loaded at run time (nothing CUDA is needed to build or to run without a GPU) and
 * initialised: its version, its GPUs. Every entry point is bound through {@code cuGetProcAddress} at a pinned
 * ABI version, as C perftest binds them; a driver that lacks one fails here, once, with
 * {@link Problem#DRIVER_TOO_OLD}. The dma-buf export (CUDA 11.7) is optional: an older driver still allocates
 * and registers as peer memory.
 */
public final class Cuda {
    /** The environment variable that names the library to load instead of libcuda.so.1 (a path or soname). */
    public static final String LIBRARY_ENV = "RDMAFFM_LIBCUDA";
    /** The system property that does the same, and wins over the environment. */
    public static final String LIBRARY_PROPERTY = "rdmaffm.libcuda";
    static final String DEFAULT_LIBRARY = "libcuda.so.1";

    final String library;
    final int driverVersion;
    final MethodHandle driverGetVersion;
    final MethodHandle deviceGetCount;
    final MethodHandle deviceGet;
    final MethodHandle deviceGetByPciBusId;
    final MethodHandle deviceGetName;
    final MethodHandle deviceGetAttribute;
    final MethodHandle primaryCtxRetain;
    final MethodHandle primaryCtxRelease;
    final MethodHandle ctxSetCurrent;
    final MethodHandle ctxSynchronize;
    final MethodHandle memAlloc;
    final MethodHandle memFree;
    final MethodHandle memcpyHtoD;
    final MethodHandle memcpyDtoH;
    final MethodHandle pointerSetAttribute;
    /** Null when the driver predates dma-buf export (CUDA 11.7). */
    final MethodHandle memGetHandleForAddressRange;
    /** Null when absent; error names then read "CUDA error N". */
    private final MethodHandle getErrorName;

    private Cuda(CudaDriver d) {
        library = d.library();
        driverGetVersion = required(d, CudaDriver.cuDriverGetVersion);
        driverVersion = readDriverVersion();
        MethodHandle init = required(d, CudaDriver.cuInit);
        deviceGetCount = required(d, CudaDriver.cuDeviceGetCount);
        deviceGet = required(d, CudaDriver.cuDeviceGet);
        deviceGetByPciBusId = required(d, CudaDriver.cuDeviceGetByPCIBusId);
        deviceGetName = required(d, CudaDriver.cuDeviceGetName);
        deviceGetAttribute = required(d, CudaDriver.cuDeviceGetAttribute);
        primaryCtxRetain = required(d, CudaDriver.cuDevicePrimaryCtxRetain);
        primaryCtxRelease = required(d, CudaDriver.cuDevicePrimaryCtxRelease);
        ctxSetCurrent = required(d, CudaDriver.cuCtxSetCurrent);
        ctxSynchronize = required(d, CudaDriver.cuCtxSynchronize);
        memAlloc = required(d, CudaDriver.cuMemAlloc);
        memFree = required(d, CudaDriver.cuMemFree);
        memcpyHtoD = required(d, CudaDriver.cuMemcpyHtoD);
        memcpyDtoH = required(d, CudaDriver.cuMemcpyDtoH);
        pointerSetAttribute = required(d, CudaDriver.cuPointerSetAttribute);
        memGetHandleForAddressRange = optional(d, CudaDriver.cuMemGetHandleForAddressRange);
        getErrorName = optional(d, CudaDriver.cuGetErrorName);
        int rc = call(() -> (int) init.invokeExact(0));
        if (rc == CudaDriver.CUDA_ERROR_NO_DEVICE) {
            throw new CudaException(Problem.NO_SUCH_GPU, "cuInit", rc, "the CUDA driver in " + library
                    + " sees no GPU (cuInit: " + errorName(rc) + "): check nvidia-smi and that the nvidia module is loaded");
        }
        check("cuInit", rc, "initialising the driver in " + library);
    }

    /**
     * Loads the library {@link #LIBRARY_PROPERTY} or {@link #LIBRARY_ENV} names, else libcuda.so.1.
     *
     * @throws CudaException NO_LIBRARY, DRIVER_TOO_OLD, NO_SUCH_GPU (no GPU at all) or CALL_FAILED
     */
    public static Cuda open() {
        String lib = System.getProperty(LIBRARY_PROPERTY);
        if (lib == null || lib.isBlank()) {
            lib = System.getenv(LIBRARY_ENV);
        }
        return open(lib == null || lib.isBlank() ? DEFAULT_LIBRARY : lib);
    }

    /** Loads {@code library} (a soname such as libcuda.so.1, or a path). */
    public static Cuda open(String library) {
        CudaDriver d;
        try {
            d = CudaDriver.load(library);
        } catch (CudaDriver.LoadFailure e) {
            if (e.missing()) {
                throw new CudaException(Problem.NO_LIBRARY, "", 0, library + " not found: install the NVIDIA driver"
                        + " (its libcuda.so.1), or set " + LIBRARY_ENV + " to the library's path");
            }
            throw new CudaException(Problem.DRIVER_TOO_OLD, "cuGetProcAddress", 0, e.getMessage()
                    + ": the CUDA driver is too old, install one for CUDA 11.3 or newer");
        }
        return new Cuda(d);
    }

    /** The driver's version as cuDriverGetVersion reports it, e.g. 12040 for CUDA 12.4. */
    public int driverVersion() {
        return driverVersion;
    }

    /** The library this driver was loaded from, as named. */
    public String library() {
        return library;
    }

    /** {@code 12.4} for 12040. */
    public static String versionText(int v) {
        return v / 1000 + "." + v % 1000 / 10;
    }

    /** Whether the driver can export memory as a dma-buf at all (CUDA 11.7); each GPU may still refuse. */
    public boolean driverExportsDmaBuf() {
        return memGetHandleForAddressRange != null;
    }

    /** How many GPUs the driver sees. */
    public int deviceCount() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment n = a.allocate(JAVA_INT);
            check("cuDeviceGetCount", call(() -> (int) deviceGetCount.invokeExact(n)), "counting GPUs");
            return n.get(JAVA_INT, 0);
        }
    }

    /**
     * The GPU with CUDA index {@code ordinal}.
     *
     * @throws CudaException NO_SUCH_GPU when there is none
     */
    public CudaDevice device(int ordinal) {
        int count = deviceCount();
        if (ordinal < 0 || ordinal >= count) {
            throw new CudaException(Problem.NO_SUCH_GPU, "cuDeviceGet", CudaDriver.CUDA_ERROR_INVALID_DEVICE,
                    "no CUDA GPU " + ordinal + ": the driver sees " + count + (count == 1 ? " GPU (index 0)"
                            : " GPUs (indexes 0-" + (count - 1) + ")") + "; choose one of those");
        }
        try (Arena a = Arena.ofConfined()) {
            MemorySegment dev = a.allocate(JAVA_INT);
            check("cuDeviceGet", call(() -> (int) deviceGet.invokeExact(dev, ordinal)), "GPU " + ordinal);
            return new CudaDevice(this, dev.get(JAVA_INT, 0));
        }
    }

    /**
     * The GPU at PCI address {@code busId} ({@code 0000:3b:00.0} or {@code 3b:00.0}).
     *
     * @throws CudaException NO_SUCH_GPU when no GPU is there
     */
    public CudaDevice device(String busId) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment dev = a.allocate(JAVA_INT);
            MemorySegment id = a.allocateFrom(busId);
            int rc = call(() -> (int) deviceGetByPciBusId.invokeExact(dev, id));
            if (rc == CudaDriver.CUDA_ERROR_INVALID_DEVICE || rc == CudaDriver.CUDA_ERROR_INVALID_VALUE) {
                throw new CudaException(Problem.NO_SUCH_GPU, "cuDeviceGetByPCIBusId", rc, "no CUDA GPU at PCI address "
                        + busId + " (cuDeviceGetByPCIBusId: " + errorName(rc) + "); nvidia-smi -q lists the GPUs' bus ids");
            }
            check("cuDeviceGetByPCIBusId", rc, "PCI address " + busId);
            return new CudaDevice(this, dev.get(JAVA_INT, 0));
        }
    }

    /** The driver's name for a CUresult, e.g. CUDA_ERROR_OUT_OF_MEMORY. */
    String errorName(int rc) {
        if (getErrorName != null) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ADDRESS);
                int r = (int) getErrorName.invokeExact(rc, out);
                MemorySegment s = out.get(ADDRESS, 0);
                if (r == CudaDriver.CUDA_SUCCESS && !s.equals(MemorySegment.NULL)) {
                    return s.reinterpret(256).getString(0);
                }
            } catch (Throwable t) {
                // fall through to the number
            }
        }
        return "CUDA error " + rc;
    }

    /** Throws CALL_FAILED unless {@code rc} is CUDA_SUCCESS. */
    void check(String function, int rc, String what) {
        if (rc != CudaDriver.CUDA_SUCCESS) {
            throw new CudaException(Problem.CALL_FAILED, function, rc, function + " failed (" + errorName(rc) + "), "
                    + what);
        }
    }

    /** A driver call, its Throwable (none from a downcall) rethrown unchecked. */
    interface Call {
        int run() throws Throwable;
    }

    static int call(Call c) {
        try {
            return c.run();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private int readDriverVersion() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            int rc = call(() -> (int) driverGetVersion.invokeExact(v));
            return rc == CudaDriver.CUDA_SUCCESS ? v.get(JAVA_INT, 0) : 0;
        }
    }

    private MethodHandle required(CudaDriver d, Entry e) {
        try {
            return d.bind(e);
        } catch (CudaDriver.MissingEntry m) {
            String have = driverVersion > 0 ? "driver reports CUDA " + versionText(driverVersion) : "driver version unknown";
            throw new CudaException(Problem.DRIVER_TOO_OLD, e.name(), m.result(), "the CUDA driver in " + library
                    + " lacks " + e.name() + " at ABI version " + e.version() + " (" + have
                    + "): install a newer NVIDIA driver");
        }
    }

    private static MethodHandle optional(CudaDriver d, Entry e) {
        try {
            return d.bind(e);
        } catch (CudaDriver.MissingEntry m) {
            return null;
        }
    }
}
