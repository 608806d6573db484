package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.cuda.CudaException.Problem;
import io.rdmaffm.verbs.raw.CudaDriver;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA binding against the stand-in libcuda (host memory behind "device" pointers): how entry points are
 * found, allocation and copies, dma-buf export, and every way it can fail with the one line that says why.
 */
class CudaStandInTest {
    private static final long GIB = 1L << 30;

    @BeforeEach
    void oneGpu() {
        StandInCuda.configure(1, GIB, 12040, true);
    }

    @Test
    void everyEntryPointIsAskedOfGetProcAddressAtItsPinnedVersion() throws IllegalAccessException {
        Cuda cuda = Cuda.open(StandInCuda.path());
        assertEquals(12040, cuda.driverVersion());
        int checked = 0;
        for (Field f : CudaDriver.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == CudaDriver.Entry.class) {
                CudaDriver.Entry e = (CudaDriver.Entry) f.get(null);
                assertEquals(e.version(), StandInCuda.askedVersion(e.name()), e.name());
                checked++;
            }
        }
        assertEquals(18, checked, "entry points declared");
        // The pins that pick the 64-bit ABIs, and the dma-buf export's first version.
        assertEquals(3020, StandInCuda.askedVersion("cuMemAlloc"));
        assertEquals(11070, StandInCuda.askedVersion("cuMemGetHandleForAddressRange"));
    }

    @Test
    void allocatesCopiesInAndOutAndFrees() {
        Cuda cuda = Cuda.open(StandInCuda.path());
        try (CudaDevice gpu = cuda.device(0); Arena a = Arena.ofConfined()) {
            assertEquals("0000:3b:00.0", gpu.pciBusId());
            assertTrue(gpu.name().contains("Stand-in"), gpu.name());
            CudaBuffer buf = gpu.allocate(8192);
            MemorySegment src = a.allocate(4096);
            for (int i = 0; i < 4096; i++) {
                src.set(JAVA_BYTE, i, (byte) (i * 7 + 3));
            }
            buf.copyFromHost(src, 4096);
            MemorySegment back = a.allocate(4096);
            buf.copyToHost(4096, back);
            assertEquals(-1, src.mismatch(back));
            // The stand-in's device memory is host memory: the copy really went to the buffer's address.
            assertEquals(-1, buf.segment().asSlice(4096, 4096).mismatch(src));
            assertThrows(IndexOutOfBoundsException.class, () -> buf.copyFromHost(src, 4097));
            buf.close();
            buf.close();
            assertThrows(IllegalStateException.class, () -> buf.copyToHost(0, back));
        }
    }

    @Test
    void findsAGpuByPciBusId() {
        StandInCuda.configure(2, GIB, 12040, true);
        Cuda cuda = Cuda.open(StandInCuda.path());
        try (CudaDevice gpu = cuda.device("0000:3c:00.0")) {
            assertEquals(1, gpu.ordinal());
            assertEquals("0000:3c:00.0", gpu.pciBusId());
        }
        CudaException e = assertThrows(CudaException.class, () -> cuda.device("0000:99:00.0"));
        assertEquals(Problem.NO_SUCH_GPU, e.problem());
        assertTrue(e.getMessage().contains("no CUDA GPU at PCI address 0000:99:00.0"), e.getMessage());
    }

    @Test
    void aGpuIndexPastTheLastIsRefused() {
        StandInCuda.configure(2, GIB, 12040, true);
        CudaException e = assertThrows(CudaException.class, () -> Cuda.open(StandInCuda.path()).device(2));
        assertEquals(Problem.NO_SUCH_GPU, e.problem());
        assertEquals("no CUDA GPU 2: the driver sees 2 GPUs (indexes 0-1); choose one of those", e.getMessage());
    }

    @Test
    void aSizeTheGpuCannotHoldIsOutOfMemory() {
        StandInCuda.configure(1, 1 << 20, 12040, true);
        try (CudaDevice gpu = Cuda.open(StandInCuda.path()).device(0)) {
            CudaException e = assertThrows(CudaException.class, () -> gpu.allocate(2 << 20));
            assertEquals(Problem.OUT_OF_MEMORY, e.problem());
            assertEquals("cuMemAlloc", e.function());
            assertTrue(e.getMessage().contains("cannot hold 2097152 bytes (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY)"),
                    e.getMessage());
            gpu.allocate(1 << 20).close();
        }
    }

    @Test
    void exportsTheBufferAsADmaBuf() {
        try (CudaDevice gpu = Cuda.open(StandInCuda.path()).device(0); CudaBuffer buf = gpu.allocate(10000)) {
            assertTrue(gpu.dmaBufSupported());
            DmaBuf d = buf.exportDmaBuf();
            assertTrue(d.fd() > 2, "a real fd: " + d.fd());
            assertEquals(0, d.offset(), "cuMemAlloc's memory starts on a page");
            assertEquals(10000, d.length());
            d.close();
            d.close();
        }
    }

    @Test
    void aGpuWithoutDmaBufSupportSaysSo() {
        StandInCuda.configure(1, GIB, 12040, false);
        try (CudaDevice gpu = Cuda.open(StandInCuda.path()).device(0); CudaBuffer buf = gpu.allocate(4096)) {
            assertFalse(gpu.dmaBufSupported());
            CudaException e = assertThrows(CudaException.class, buf::exportDmaBuf);
            assertEquals(Problem.DMA_BUF_UNSUPPORTED, e.problem());
            assertTrue(e.getMessage().contains("CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED is 0"), e.getMessage());
        }
    }

    @Test
    void aDriverBeforeCuda117AllocatesButCannotExport() {
        StandInCuda.configure(1, GIB, 11040, true);
        Cuda cuda = Cuda.open(StandInCuda.path());
        assertFalse(cuda.driverExportsDmaBuf());
        try (CudaDevice gpu = cuda.device(0); CudaBuffer buf = gpu.allocate(4096)) {
            CudaException e = assertThrows(CudaException.class, buf::exportDmaBuf);
            assertEquals(Problem.DMA_BUF_UNSUPPORTED, e.problem());
            assertTrue(e.getMessage().contains("driver (11.4) cannot export dma-bufs: that came with CUDA 11.7"),
                    e.getMessage());
        }
    }

    @Test
    void aDriverTooOldForAPinnedEntryPointIsRefusedByName() {
        StandInCuda.configure(1, GIB, 10020, true);
        CudaException e = assertThrows(CudaException.class, () -> Cuda.open(StandInCuda.path()));
        assertEquals(Problem.DRIVER_TOO_OLD, e.problem());
        assertEquals("cuDevicePrimaryCtxRelease", e.function());
        assertTrue(e.getMessage().contains("lacks cuDevicePrimaryCtxRelease at ABI version 11000 (driver reports CUDA"
                + " 10.2): install a newer NVIDIA driver"), e.getMessage());
    }

    @Test
    void noGpuAtAll() {
        StandInCuda.configure(0, GIB, 12040, true);
        CudaException e = assertThrows(CudaException.class, () -> Cuda.open(StandInCuda.path()));
        assertEquals(Problem.NO_SUCH_GPU, e.problem());
        assertTrue(e.getMessage().contains("sees no GPU (cuInit: CUDA_ERROR_NO_DEVICE)"), e.getMessage());
    }

    @Test
    void noLibrary() {
        CudaException e = assertThrows(CudaException.class, () -> Cuda.open("/nonexistent/libcuda.so.1"));
        assertEquals(Problem.NO_LIBRARY, e.problem());
        assertEquals("/nonexistent/libcuda.so.1 not found: install the NVIDIA driver (its libcuda.so.1), or set"
                + " RDMAFFM_LIBCUDA to the library's path", e.getMessage());
    }

    @Test
    void aLibraryWithoutGetProcAddressIsTooOld() {
        // libc is a loadable library without the entry point: what a pre-11.3 libcuda looks like to the loader.
        CudaException e = assertThrows(CudaException.class, () -> Cuda.open("libc.so.6"));
        assertEquals(Problem.DRIVER_TOO_OLD, e.problem());
        assertTrue(e.getMessage().contains("has no cuGetProcAddress"), e.getMessage());
    }

    @Test
    void aClosedGpuRefusesWorkAndClosesOnce() {
        CudaDevice gpu = Cuda.open(StandInCuda.path()).device(0);
        gpu.allocate(4096).close();
        gpu.close();
        gpu.close();
        assertThrows(IllegalStateException.class, () -> gpu.allocate(4096));
        assertThrows(IllegalArgumentException.class, () -> Cuda.open(StandInCuda.path()).device(0).allocate(0));
    }
}
