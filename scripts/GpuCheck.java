import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.RdmaDevice;
import io.rdmaffm.verbs.cuda.Cuda;
import io.rdmaffm.verbs.cuda.CudaBuffer;
import io.rdmaffm.verbs.cuda.CudaDevice;
import io.rdmaffm.verbs.cuda.CudaException;
import io.rdmaffm.verbs.cuda.DmaBuf;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * The real-GPU check scripts/gpu-check.sh runs (JDK source launcher, verbs-ffm on the class path): loads the
 * system's libcuda.so.1 through the CUDA binding, allocates on one GPU, copies a pattern in and out, exports a
 * dma-buf, and tries both registrations on the first RDMA device, reporting what each gave. A machine without
 * an RDMA NIC cannot register: it says so. Exit 0 when the GPU side worked, 1 when a GPU step failed, 2 when
 * there is no usable driver or GPU.
 *
 * usage: java --enable-native-access=ALL-UNNAMED -cp verbs-ffm/target/classes scripts/GpuCheck.java [GPU] [RDMA-DEVICE]
 */
public class GpuCheck {
    private static final long BYTES = 2L << 20;

    public static void main(String[] args) {
        int index = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        String rdma = args.length > 1 ? args[1] : null;
        Cuda cuda;
        try {
            cuda = Cuda.open();
        } catch (CudaException e) {
            System.out.println("libcuda: " + e.problem() + ": " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println("libcuda: " + cuda.library() + ", driver CUDA " + Cuda.versionText(cuda.driverVersion())
                + ", dma-buf export in driver: " + cuda.driverExportsDmaBuf() + ", GPUs: " + cuda.deviceCount());
        int failures = 0;
        try (CudaDevice gpu = cuda.device(index)) {
            System.out.println("GPU " + index + ": " + gpu.name() + " at " + gpu.pciBusId() + ", integrated: "
                    + gpu.integrated() + ", DMA_BUF_SUPPORTED: " + gpu.dmaBufSupported() + ", GPU_DIRECT_RDMA_SUPPORTED: "
                    + gpu.attribute(116));
            try (CudaBuffer buf = gpu.allocate(BYTES); Arena a = Arena.ofConfined()) {
                System.out.println("cuMemAlloc: " + BYTES + " bytes at 0x" + Long.toHexString(buf.address()));
                MemorySegment in = a.allocate(BYTES);
                for (long i = 0; i < BYTES; i++) {
                    in.set(JAVA_BYTE, i, (byte) (i * 131 + 17));
                }
                buf.copyFromHost(in, 0);
                MemorySegment out = a.allocate(BYTES);
                buf.copyToHost(0, out);
                long bad = in.mismatch(out);
                System.out.println("cuMemcpyHtoD/DtoH round trip: " + (bad < 0 ? "identical" : "differs at byte " + bad));
                failures += bad < 0 ? 0 : 1;
                DmaBuf dma = null;
                try {
                    dma = buf.exportDmaBuf();
                    System.out.println("dma-buf export: fd " + dma.fd() + ", offset " + dma.offset() + ", length "
                            + dma.length());
                } catch (CudaException e) {
                    System.out.println("dma-buf export refused: " + e.problem() + ": " + e.getMessage());
                }
                failures += register(rdma, buf, dma);
                if (dma != null) {
                    dma.close();
                }
            }
        } catch (CudaException e) {
            System.out.println("GPU step failed: " + e.problem() + ": " + e.getMessage());
            System.exit(e.problem() == CudaException.Problem.NO_SUCH_GPU ? 2 : 1);
        }
        System.out.println(failures == 0 ? "result: GPU side OK" : "result: " + failures + " GPU step(s) failed");
        System.exit(failures == 0 ? 0 : 1);
    }

    /** Both registrations on the RDMA device; a machine without one says why nothing was registered. */
    private static int register(String wanted, CudaBuffer buf, DmaBuf dma) {
        List<RdmaDevice> devices;
        try {
            devices = RdmaDevice.list();
        } catch (RuntimeException | LinkageError e) {
            System.out.println("registration: not tried: libibverbs is unusable here (" + e.getMessage() + ")");
            return 0;
        }
        if (devices.isEmpty()) {
            System.out.println("registration: not tried: this machine has no RDMA device (expected on a GPU-only"
                    + " machine; GPUDirect RDMA needs a NIC)");
            return 0;
        }
        String name = wanted != null ? wanted : devices.getFirst().name();
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
        try (Context ctx = Context.open(name); ProtectionDomain pd = ctx.allocateProtectionDomain()) {
            if (dma != null) {
                try (MemoryRegion mr = pd.registerDmabuf(dma.offset(), dma.length(), buf.address(), dma.fd(), access)) {
                    System.out.println("ibv_reg_dmabuf_mr on " + name + ": lkey 0x" + Integer.toHexString(mr.lkey()));
                } catch (RuntimeException e) {
                    System.out.println("ibv_reg_dmabuf_mr on " + name + " refused: " + e.getMessage());
                }
            }
            try (MemoryRegion mr = pd.registerMemory(buf.segment(), access)) {
                System.out.println("ibv_reg_mr (peer memory) on " + name + ": lkey 0x" + Integer.toHexString(mr.lkey()));
            } catch (RuntimeException e) {
                System.out.println("ibv_reg_mr (peer memory) on " + name + " refused: " + e.getMessage()
                        + " (needs nvidia_peermem loaded)");
            }
        }
        return 0;
    }
}
