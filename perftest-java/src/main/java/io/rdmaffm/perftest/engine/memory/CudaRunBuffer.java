package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.perftest.params.MemoryChoice;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cuda.Cuda;
import io.rdmaffm.verbs.cuda.CudaBuffer;
import io.rdmaffm.verbs.cuda.CudaDevice;
import io.rdmaffm.verbs.cuda.CudaException;
import io.rdmaffm.verbs.cuda.DmaBuf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * GPU memory from the CUDA driver, registered as a dma-buf ({@code --use_cuda_dmabuf}) where the driver, GPU
 * and NIC allow it, else as peer memory (ibv_reg_mr on the device address, which needs nvidia_peermem). A
 * dma-buf the GPU cannot export, or the NIC refuses, falls back to peer memory and says so. Every way it can
 * fail is one line with the cause and the fix.
 */
final class CudaRunBuffer implements RunBuffer {
    private final CudaDevice gpu;
    private final CudaBuffer buffer;
    private final DmaBuf dmaBuf;
    private final MemoryRegion region;
    private final Arena hostArena = Arena.ofShared();
    private final MemorySegment host;
    private boolean closed;

    private CudaRunBuffer(CudaDevice gpu, CudaBuffer buffer, DmaBuf dmaBuf, MemoryRegion region) {
        this.gpu = gpu;
        this.buffer = buffer;
        this.dmaBuf = dmaBuf;
        this.region = region;
        this.host = hostArena.allocate(buffer.byteSize(), 4096);
    }

    static CudaRunBuffer allocate(MemoryChoice choice, ProtectionDomain pd, long bytes, int access,
            Consumer<String> notes) {
        CudaDevice gpu = null;
        CudaBuffer buf = null;
        DmaBuf dma = null;
        try {
            Cuda cuda = Cuda.open();
            gpu = choice.gpuBusId() != null ? cuda.device(choice.gpuBusId()) : cuda.device(choice.gpuIndex());
            buf = gpu.allocate(bytes);
            MemoryRegion mr = null;
            if (choice.dmaBuf()) {
                try {
                    dma = buf.exportDmaBuf();
                    mr = pd.registerDmabuf(dma.offset(), dma.length(), buf.address(), dma.fd(), access);
                } catch (CudaException e) {
                    notes.accept(e.getMessage() + "; registering GPU memory as peer memory instead");
                } catch (VerbsException e) {
                    notes.accept("the NIC refused the dma-buf (" + e.getMessage()
                            + "); registering GPU memory as peer memory instead");
                }
            }
            if (mr == null) {
                mr = registerPeer(pd, buf, access, gpu);
            }
            return new CudaRunBuffer(gpu, buf, dma, mr);
        } catch (CudaException e) {
            closeQuietly(dma, buf, gpu);
            throw new InvalidParameterException(e.getMessage());
        } catch (RuntimeException | Error e) {
            closeQuietly(dma, buf, gpu);
            throw e;
        }
    }

    static void preflight(MemoryChoice choice) {
        try {
            Cuda cuda = Cuda.open();
            (choice.gpuBusId() != null ? cuda.device(choice.gpuBusId()) : cuda.device(choice.gpuIndex())).close();
        } catch (CudaException e) {
            throw new InvalidParameterException(e.getMessage());
        }
    }

    private static MemoryRegion registerPeer(ProtectionDomain pd, CudaBuffer buf, int access, CudaDevice gpu) {
        try {
            return pd.registerMemory(buf.segment(), access);
        } catch (VerbsException e) {
            throw new InvalidParameterException("registering " + buf.byteSize() + " bytes of " + gpu
                    + " memory was refused (" + e.getMessage() + "): the NIC needs nvidia_peermem loaded (modprobe"
                    + " nvidia_peermem), or --use_cuda_dmabuf with NVIDIA's open kernel modules");
        }
    }

    @Override
    public MemoryRegion region() {
        return region;
    }

    @Override
    public MemorySegment hostView() {
        return host;
    }

    @Override
    public void pushToDevice() {
        buffer.copyFromHost(host, 0);
    }

    @Override
    public void pullFromDevice() {
        buffer.copyToHost(0, host);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            region.close();
        } finally {
            closeQuietly(dmaBuf, buffer, gpu);
            hostArena.close();
        }
    }

    private static void closeQuietly(AutoCloseable... all) {
        for (AutoCloseable c : all) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // closing after a failure: the first failure is what the user sees
                }
            }
        }
    }
}
