package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.cuda.CudaException.Problem;
import io.rdmaffm.verbs.raw.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One GPU and its primary context, retained on the first allocation and released by {@link #close()}
 * (idempotent). Each call that needs the context makes it current on the calling thread first: CUDA's current
 * context is per OS thread, and a virtual thread may move between carriers.
 */
public final class CudaDevice implements AutoCloseable {
    /** GPU page: the granularity of GPUDirect pinning (C perftest's ACCEL_PAGE_SIZE). */
    static final long GPU_PAGE = 64 * 1024;

    private final Cuda cuda;
    private final int device;
    private MemorySegment context = MemorySegment.NULL;
    private boolean closed;

    CudaDevice(Cuda cuda, int device) {
        this.cuda = cuda;
        this.device = device;
    }

    /** The CUDA device handle (its index for the driver). */
    public int ordinal() {
        return device;
    }

    /** The GPU's name, e.g. {@code NVIDIA H100 80GB HBM3}. */
    public String name() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(256);
            cuda.check("cuDeviceGetName", Cuda.call(() -> (int) cuda.deviceGetName.invokeExact(buf, 256, device)),
                    "GPU " + device);
            return buf.getString(0);
        }
    }

    /** The GPU's PCI address, {@code 0000:3b:00.0}. */
    public String pciBusId() {
        return String.format("%04x:%02x:%02x.0", attribute(CudaDriver.CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID),
                attribute(CudaDriver.CU_DEVICE_ATTRIBUTE_PCI_BUS_ID), attribute(CudaDriver.CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID));
    }

    /** Whether the GPU can export its memory as a dma-buf (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED, and a driver of 11.7+). */
    public boolean dmaBufSupported() {
        return cuda.driverExportsDmaBuf() && attribute(CudaDriver.CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED) == 1;
    }

    /** Whether an integrated GPU (memory shared with the host, e.g. Tegra). */
    public boolean integrated() {
        return attribute(CudaDriver.CU_DEVICE_ATTRIBUTE_INTEGRATED) == 1;
    }

    /** {@code cuDeviceGetAttribute}. */
    public int attribute(int attribute) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment v = a.allocate(JAVA_INT);
            cuda.check("cuDeviceGetAttribute", Cuda.call(() -> (int) cuda.deviceGetAttribute.invokeExact(v, attribute,
                    device)), "attribute " + attribute + " of GPU " + device);
            return v.get(JAVA_INT, 0);
        }
    }

    /** The driver this GPU belongs to. */
    public Cuda cuda() {
        return cuda;
    }

    /**
     * Allocates {@code bytes} of device memory ({@code cuMemAlloc}), zeroed-or-not as the driver leaves it, with
     * synchronous memory operations on (what GPUDirect RDMA needs for a NIC to see completed copies). The
     * allocation is rounded up to whole 64 KiB GPU pages, the unit GPUDirect pins, as C perftest does: the
     * page-widened range a dma-buf export covers then never leaves the allocation.
     *
     * @throws CudaException OUT_OF_MEMORY when the GPU cannot hold it
     */
    public synchronized CudaBuffer allocate(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("GPU buffer size must be positive, not " + bytes);
        }
        makeCurrent();
        long rounded = (bytes + GPU_PAGE - 1) & -GPU_PAGE;
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ptr = a.allocate(JAVA_LONG);
            int rc = Cuda.call(() -> (int) cuda.memAlloc.invokeExact(ptr, rounded));
            if (rc == CudaDriver.CUDA_ERROR_OUT_OF_MEMORY) {
                throw new CudaException(Problem.OUT_OF_MEMORY, "cuMemAlloc", rc, "GPU " + device + " cannot hold "
                        + bytes + " bytes (cuMemAlloc: " + cuda.errorName(rc) + "): ask for less memory");
            }
            cuda.check("cuMemAlloc", rc, bytes + " bytes on GPU " + device);
            long address = ptr.get(JAVA_LONG, 0);
            MemorySegment one = a.allocateFrom(JAVA_INT, 1);
            int set = Cuda.call(() -> (int) cuda.pointerSetAttribute.invokeExact(one,
                    CudaDriver.CU_POINTER_ATTRIBUTE_SYNC_MEMOPS, address));
            if (set != CudaDriver.CUDA_SUCCESS) {
                Cuda.call(() -> (int) cuda.memFree.invokeExact(address));
                cuda.check("cuPointerSetAttribute", set, "SYNC_MEMOPS on GPU " + device);
            }
            return new CudaBuffer(this, address, bytes);
        }
    }

    /** Retains the primary context once, and makes it current on this thread. */
    synchronized void makeCurrent() {
        if (closed) {
            throw new IllegalStateException("GPU " + device + " is closed");
        }
        if (context.equals(MemorySegment.NULL)) {
            try (Arena a = Arena.ofConfined()) {
                MemorySegment out = a.allocate(ADDRESS);
                cuda.check("cuDevicePrimaryCtxRetain", Cuda.call(() -> (int) cuda.primaryCtxRetain.invokeExact(out,
                        device)), "GPU " + device);
                context = out.get(ADDRESS, 0);
            }
        }
        MemorySegment c = context;
        cuda.check("cuCtxSetCurrent", Cuda.call(() -> (int) cuda.ctxSetCurrent.invokeExact(c)), "GPU " + device);
    }

    /** Releases the primary context if it was retained; buffers must be closed first. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!context.equals(MemorySegment.NULL)) {
            context = MemorySegment.NULL;
            cuda.check("cuDevicePrimaryCtxRelease", Cuda.call(() -> (int) cuda.primaryCtxRelease.invokeExact(device)),
                    "GPU " + device);
        }
    }

    @Override
    public String toString() {
        return "GPU " + device;
    }
}
