package io.rdmaffm.verbs.raw;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The CUDA driver API (libcuda.so.1), found at run time: nothing CUDA is needed to build. Like C perftest's
 * cuda_loader, only {@code cuGetProcAddress} is looked up by name; every entry point is asked of it with the
 * ABI version this binding was written against, so a newer driver keeps handing out the same signature (the
 * driver keeps old ABIs under old versions: {@code cuMemAlloc} at 2000 is the 32-bit one, at 3020 the 64-bit
 * {@code _v2}). C names; {@code CUresult} is the int every call returns.
 */
@SuppressWarnings("checkstyle:ConstantName")
public final class CudaDriver {
    /** CUresult values the binding tells apart (cuda.h). */
    public static final int CUDA_SUCCESS = 0;
    public static final int CUDA_ERROR_INVALID_VALUE = 1;
    public static final int CUDA_ERROR_OUT_OF_MEMORY = 2;
    public static final int CUDA_ERROR_NO_DEVICE = 100;
    public static final int CUDA_ERROR_INVALID_DEVICE = 101;
    public static final int CUDA_ERROR_NOT_FOUND = 500;
    public static final int CUDA_ERROR_NOT_SUPPORTED = 801;

    /** CUdevice_attribute values (cuda.h). */
    public static final int CU_DEVICE_ATTRIBUTE_INTEGRATED = 18;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_BUS_ID = 33;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID = 34;
    public static final int CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID = 50;
    public static final int CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED = 116;
    public static final int CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED = 124;
    /** CUpointer_attribute: synchronous memory operations on the range, what GPUDirect RDMA needs. */
    public static final int CU_POINTER_ATTRIBUTE_SYNC_MEMOPS = 6;
    /** CUmemRangeHandleType. */
    public static final int CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD = 1;
    /** CUdriverProcAddressQueryResult. */
    public static final int CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2;

    /** The driver version cuMemGetHandleForAddressRange (dma-buf export) came with: CUDA 11.7. */
    public static final int DMA_BUF_DRIVER_VERSION = 11070;

    private static final java.lang.foreign.AddressLayout P = ADDRESS;
    private static final java.lang.foreign.ValueLayout.OfInt I = JAVA_INT;
    private static final java.lang.foreign.ValueLayout.OfLong J = JAVA_LONG;

    /** An entry point: its name, the ABI version asked for, its C signature (CUresult first). */
    public record Entry(String name, int version, FunctionDescriptor descriptor) {
    }

    public static final Entry cuInit = new Entry("cuInit", 2000, FunctionDescriptor.of(I, I));
    public static final Entry cuDriverGetVersion = new Entry("cuDriverGetVersion", 2020, FunctionDescriptor.of(I, P));
    public static final Entry cuDeviceGetCount = new Entry("cuDeviceGetCount", 2000, FunctionDescriptor.of(I, P));
    public static final Entry cuDeviceGet = new Entry("cuDeviceGet", 2000, FunctionDescriptor.of(I, P, I));
    /** CUresult cuDeviceGetByPCIBusId(CUdevice *dev, const char *pciBusId). */
    public static final Entry cuDeviceGetByPCIBusId = new Entry("cuDeviceGetByPCIBusId", 4010, FunctionDescriptor.of(I, P, P));
    public static final Entry cuDeviceGetName = new Entry("cuDeviceGetName", 2000, FunctionDescriptor.of(I, P, I, I));
    /** CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev). */
    public static final Entry cuDeviceGetAttribute = new Entry("cuDeviceGetAttribute", 2000, FunctionDescriptor.of(I, P, I, I));
    public static final Entry cuDevicePrimaryCtxRetain = new Entry("cuDevicePrimaryCtxRetain", 7000, FunctionDescriptor.of(I, P, I));
    /** The _v2 release (11.0), which no longer resets the context on the last release. */
    public static final Entry cuDevicePrimaryCtxRelease = new Entry("cuDevicePrimaryCtxRelease", 11000, FunctionDescriptor.of(I, I));
    public static final Entry cuCtxSetCurrent = new Entry("cuCtxSetCurrent", 4000, FunctionDescriptor.of(I, P));
    public static final Entry cuCtxSynchronize = new Entry("cuCtxSynchronize", 2000, FunctionDescriptor.of(I));
    /** CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize). */
    public static final Entry cuMemAlloc = new Entry("cuMemAlloc", 3020, FunctionDescriptor.of(I, P, J));
    public static final Entry cuMemFree = new Entry("cuMemFree", 3020, FunctionDescriptor.of(I, J));
    /** CUresult cuMemcpyHtoD_v2(CUdeviceptr dst, const void *src, size_t n). */
    public static final Entry cuMemcpyHtoD = new Entry("cuMemcpyHtoD", 3020, FunctionDescriptor.of(I, J, P, J));
    /** CUresult cuMemcpyDtoH_v2(void *dst, CUdeviceptr src, size_t n). */
    public static final Entry cuMemcpyDtoH = new Entry("cuMemcpyDtoH", 3020, FunctionDescriptor.of(I, P, J, J));
    /** CUresult cuPointerSetAttribute(const void *value, CUpointer_attribute attribute, CUdeviceptr ptr). */
    public static final Entry cuPointerSetAttribute = new Entry("cuPointerSetAttribute", 6000, FunctionDescriptor.of(I, P, I, J));
    /** CUresult cuMemGetHandleForAddressRange(void *handle, CUdeviceptr dptr, size_t size, type, unsigned long long flags). */
    public static final Entry cuMemGetHandleForAddressRange = new Entry("cuMemGetHandleForAddressRange",
            DMA_BUF_DRIVER_VERSION, FunctionDescriptor.of(I, P, J, J, I, J));
    /** CUresult cuGetErrorName(CUresult error, const char **pStr). */
    public static final Entry cuGetErrorName = new Entry("cuGetErrorName", 6000, FunctionDescriptor.of(I, I, P));

    /** CUresult cuGetProcAddress_v2(symbol, void **pfn, int cudaVersion, cuuint64_t flags, int *symbolStatus) (12.0). */
    private static final FunctionDescriptor GET_PROC_V2 = FunctionDescriptor.of(I, P, P, I, J, P);
    /** CUresult cuGetProcAddress(symbol, void **pfn, int cudaVersion, cuuint64_t flags) (11.3). */
    private static final FunctionDescriptor GET_PROC_V1 = FunctionDescriptor.of(I, P, P, I, J);

    private final String library;
    private final MethodHandle getProcV2;
    private final MethodHandle getProcV1;

    private CudaDriver(String library, MethodHandle getProcV2, MethodHandle getProcV1) {
        this.library = library;
        this.getProcV2 = getProcV2;
        this.getProcV1 = getProcV1;
    }

    /** Why a library could not be bound; {@link #load} fails with it. */
    public static final class LoadFailure extends Exception {
        private static final long serialVersionUID = 1L;
        private final boolean missing;

        LoadFailure(String message, boolean missing) {
            super(message);
            this.missing = missing;
        }

        /** True when the library itself was not found; false when it lacks cuGetProcAddress (too old). */
        public boolean missing() {
            return missing;
        }
    }

    /** Opens {@code library} (a soname or a path) and finds its cuGetProcAddress. */
    public static CudaDriver load(String library) throws LoadFailure {
        SymbolLookup lookup;
        try {
            lookup = library.contains("/") ? SymbolLookup.libraryLookup(java.nio.file.Path.of(library), Arena.global())
                    : SymbolLookup.libraryLookup(library, Arena.global());
        } catch (IllegalArgumentException e) {
            throw new LoadFailure(library + " cannot be loaded", true);
        }
        Optional<MemorySegment> v2 = lookup.find("cuGetProcAddress_v2");
        Optional<MemorySegment> v1 = lookup.find("cuGetProcAddress");
        if (v2.isEmpty() && v1.isEmpty()) {
            throw new LoadFailure(library + " has no cuGetProcAddress", false);
        }
        return new CudaDriver(library,
                v2.map(s -> Downcalls.LINKER.downcallHandle(s, GET_PROC_V2)).orElse(null),
                v1.map(s -> Downcalls.LINKER.downcallHandle(s, GET_PROC_V1)).orElse(null));
    }

    /** The library as named to {@link #load}. */
    public String library() {
        return library;
    }

    /** An entry point the driver does not hand out: {@code tooOld} when it knows the name but not that version. */
    public static final class MissingEntry extends Exception {
        private static final long serialVersionUID = 1L;
        private final int result;
        private final boolean tooOld;

        MissingEntry(String message, int result, boolean tooOld) {
            super(message);
            this.result = result;
            this.tooOld = tooOld;
        }

        public int result() {
            return result;
        }

        public boolean tooOld() {
            return tooOld;
        }
    }

    /** The downcall handle of {@code e}, asked of cuGetProcAddress at the entry's pinned version. */
    public MethodHandle bind(Entry e) throws MissingEntry {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pfn = a.allocate(ADDRESS);
            MemorySegment status = a.allocate(JAVA_INT);
            MemorySegment name = a.allocateFrom(e.name());
            int rc = getProcV2 != null
                    ? (int) getProcV2.invokeExact(name, pfn, e.version(), 0L, status)
                    : (int) getProcV1.invokeExact(name, pfn, e.version(), 0L);
            MemorySegment fn = pfn.get(ADDRESS, 0);
            if (rc != CUDA_SUCCESS || fn.equals(MemorySegment.NULL)) {
                boolean tooOld = getProcV2 != null && status.get(JAVA_INT, 0) == CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT;
                throw new MissingEntry("cuGetProcAddress(\"" + e.name() + "\", version " + e.version() + ") returned "
                        + rc, rc, tooOld);
            }
            return Downcalls.LINKER.downcallHandle(fn, e.descriptor());
        } catch (MissingEntry m) {
            throw m;
        } catch (Throwable t) {
            throw new IllegalStateException("cuGetProcAddress(\"" + e.name() + "\") failed", t);
        }
    }
}
