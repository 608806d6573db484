package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.cuda.CudaException.Problem;
import io.rdmaffm.verbs.raw.CudaDriver;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Device memory from {@code cuMemAlloc}; {@link #close()} frees it (idempotent). Its {@link #segment()} is the
 * device address range for registering with a NIC (peer memory through nvidia_peermem): on a discrete GPU it is
 * not host memory and must never be read or written from Java; {@link #copyFromHost} and {@link #copyToHost}
 * move data in and out.
 */
public final class CudaBuffer implements AutoCloseable {
    private final CudaDevice device;
    private final long address;
    private final long size;
    private boolean closed;

    CudaBuffer(CudaDevice device, long address, long size) {
        this.device = device;
        this.address = address;
        this.size = size;
    }

    public CudaDevice device() {
        return device;
    }

    /** The device address (CUdeviceptr). */
    public long address() {
        return address;
    }

    public long byteSize() {
        return size;
    }

    /** The device address range, for ibv_reg_mr: never to be dereferenced (see the class comment). */
    public MemorySegment segment() {
        return MemorySegment.ofAddress(address).reinterpret(size);
    }

    /** Copies {@code src} (native memory) to {@code offset} in this buffer ({@code cuMemcpyHtoD}). */
    public void copyFromHost(MemorySegment src, long offset) {
        checkRange(offset, src.byteSize());
        device.makeCurrent();
        long n = src.byteSize();
        Cuda cuda = device.cuda();
        cuda.check("cuMemcpyHtoD", Cuda.call(() -> (int) cuda.memcpyHtoD.invokeExact(address + offset, src, n)),
                n + " bytes to " + device + " at offset " + offset);
    }

    /** Copies {@code dst.byteSize()} bytes from {@code offset} in this buffer to {@code dst} ({@code cuMemcpyDtoH}). */
    public void copyToHost(long offset, MemorySegment dst) {
        checkRange(offset, dst.byteSize());
        device.makeCurrent();
        long n = dst.byteSize();
        Cuda cuda = device.cuda();
        cuda.check("cuMemcpyDtoH", Cuda.call(() -> (int) cuda.memcpyDtoH.invokeExact(dst, address + offset, n)),
                n + " bytes from " + device + " at offset " + offset);
    }

    /**
     * Exports the whole buffer as a dma-buf ({@code cuMemGetHandleForAddressRange}): the range is widened to
     * host pages, as the driver requires, and the returned {@link DmaBuf#offset()} is where this buffer starts
     * in it.
     *
     * @throws CudaException DMA_BUF_UNSUPPORTED when the driver (older than CUDA 11.7) or GPU cannot export
     */
    public DmaBuf exportDmaBuf() {
        checkOpen();
        Cuda cuda = device.cuda();
        if (!cuda.driverExportsDmaBuf()) {
            throw new CudaException(Problem.DMA_BUF_UNSUPPORTED, "cuMemGetHandleForAddressRange", 0,
                    "the CUDA driver (" + Cuda.versionText(cuda.driverVersion()) + ") cannot export dma-bufs: that came"
                            + " with CUDA 11.7; install a newer driver, or register as peer memory (nvidia_peermem)");
        }
        if (!device.dmaBufSupported()) {
            throw new CudaException(Problem.DMA_BUF_UNSUPPORTED, "cuDeviceGetAttribute", 0, device
                    + " cannot export dma-bufs (CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0): it needs NVIDIA's open"
                    + " kernel modules and a kernel with CONFIG_DMABUF_MOVE_NOTIFY; or register as peer memory (nvidia_peermem)");
        }
        long page = pageSize();
        long aligned = address & -page;
        long offset = address - aligned;
        long length = (size + offset + page - 1) & -page;
        device.makeCurrent();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment fd = a.allocate(JAVA_INT);
            int rc = Cuda.call(() -> (int) cuda.memGetHandleForAddressRange.invokeExact(fd, aligned, length,
                    CudaDriver.CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0L));
            if (rc == CudaDriver.CUDA_ERROR_NOT_SUPPORTED) {
                throw new CudaException(Problem.DMA_BUF_UNSUPPORTED, "cuMemGetHandleForAddressRange", rc, device
                        + " refused to export a dma-buf (" + cuda.errorName(rc) + "): the kernel or driver lacks dma-buf"
                        + " support; register as peer memory (nvidia_peermem) instead");
            }
            cuda.check("cuMemGetHandleForAddressRange", rc, length + " bytes of " + device + " as a dma-buf");
            return new DmaBuf(fd.get(JAVA_INT, 0), offset, size);
        }
    }

    /** Frees the memory ({@code cuMemFree}). Idempotent. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        device.makeCurrent();
        Cuda cuda = device.cuda();
        cuda.check("cuMemFree", Cuda.call(() -> (int) cuda.memFree.invokeExact(address)), size + " bytes on " + device);
    }

    private void checkRange(long offset, long length) {
        checkOpen();
        if (offset < 0 || length < 0 || offset > size - length) {
            throw new IndexOutOfBoundsException(length + " bytes at offset " + offset + " of a " + size + "-byte GPU buffer");
        }
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the GPU buffer is freed");
        }
    }

    private static long pageSize() {
        // The driver aligns dma-buf ranges to host pages; 4 KiB on every platform this runs on but 64 KiB arm64.
        return Long.getLong("rdmaffm.pageSize", 4096L);
    }
}
