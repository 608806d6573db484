package io.rdmaffm.verbs.cuda;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.RdmaTestDevice;
import io.rdmaffm.verbs.VerbsUnsupportedException;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stand-in GPU memory registered on Soft-RoCE: its device pointers are host pointers, so ibv_reg_mr takes the
 * buffer's range as it would take peer memory; the dma-buf export is a real fd that rxe refuses (it has no
 * reg_dmabuf_mr), which is the refusal the tools fall back from.
 */
@Tag("rdma")
class CudaRegistrationRdmaTest {
    @Test
    void gpuBufferRegistersAsPeerMemoryAndItsDmaBufIsRefused() {
        StandInCuda.configure(1, 1L << 30, 12040, true);
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             CudaDevice gpu = Cuda.open(StandInCuda.path()).device(0);
             CudaBuffer buf = gpu.allocate(65536)) {
            int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
            try (MemoryRegion mr = pd.registerMemory(buf.segment(), access)) {
                assertEquals(buf.address(), mr.address());
                assertEquals(65536, mr.length());
                assertTrue(mr.rkey() != 0);
            }
            try (DmaBuf d = buf.exportDmaBuf()) {
                VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class,
                        () -> pd.registerDmabuf(d.offset(), d.length(), buf.address(), d.fd(), access));
                assertEquals("ibv_reg_dmabuf_mr", e.verb());
            }
        }
    }
}
