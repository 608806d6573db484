package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.perftest.params.MemoryChoice;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.vocab.Tool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --use_cuda}, {@code --use_cuda_bus_id}, {@code --use_cuda_dmabuf}: what they parse to, every refusal
 * as one line (the command line's exit 2 is ToolCommandLineTest's), and the set-up failures the GPU side can have (no libcuda, no such GPU, a size the
 * GPU cannot hold), which come before anything is registered, against the stand-in libcuda.
 */
class GpuMemoryFlagsTest {

    @AfterEach
    void forgetLibrary() {
        System.clearProperty("rdmaffm.libcuda");
    }

    private static String standIn() {
        String p = System.getProperty("rdmaffm.test.fakeLibcuda");
        Assumptions.assumeTrue(p != null && Files.isRegularFile(Path.of(p)),
                "the stand-in libcuda was not built (native-shim's test-compile makes it): " + p);
        return p;
    }

    @Test
    void flagsParseToTheGpuAndHowToRegister() {
        assertEquals(MemoryChoice.HOST, MemoryChoice.fromFlags(Tool.WRITE_BW, null, null, false));
        MemoryChoice one = MemoryChoice.fromFlags(Tool.WRITE_BW, "1", null, true);
        assertTrue(one.cuda());
        assertEquals(1, one.gpuIndex());
        assertTrue(one.dmaBuf());
        assertEquals("GPU 1 (dma-buf)", one.describe());
        MemoryChoice bus = MemoryChoice.fromFlags(Tool.SEND_LAT, null, "0000:3B:00.0", false);
        assertEquals("0000:3b:00.0", bus.gpuBusId());
        assertEquals("GPU at 0000:3b:00.0", bus.describe());
        assertEquals("3b:00.0", MemoryChoice.fromFlags(Tool.READ_BW, null, "3b:00.0", false).gpuBusId());
    }

    @Test
    void badFlagsAreOneLineEach() {
        assertEquals("--use_cuda takes a GPU index (0, 1, ...), not 'x'", refusal(Tool.WRITE_BW, "x", null, false));
        assertEquals("--use_cuda takes a GPU index (0, 1, ...), not '-1'", refusal(Tool.WRITE_BW, "-1", null, false));
        assertEquals("--use_cuda_bus_id takes a PCI address such as 0000:3b:00.0, not 'gpu0'",
                refusal(Tool.WRITE_BW, null, "gpu0", false));
        assertEquals("--use_cuda and --use_cuda_bus_id both choose the GPU: give one",
                refusal(Tool.WRITE_BW, "0", "0000:3b:00.0", false));
        assertEquals("--use_cuda_dmabuf needs --use_cuda=<GPU index> or --use_cuda_bus_id=<PCI address>",
                refusal(Tool.WRITE_BW, null, null, true));
        assertTrue(refusal(Tool.WRITE_LAT, "0", null, false).startsWith("ib_write_lat polls its buffer from the CPU"));
    }

    private static String refusal(Tool t, String cuda, String bus, boolean dmabuf) {
        return assertThrows(InvalidParameterException.class, () -> MemoryChoice.fromFlags(t, cuda, bus, dmabuf))
                .getMessage();
    }

    @Test
    void noLibcudaIsOneLineWithTheFix() {
        System.setProperty("rdmaffm.libcuda", "/nonexistent/libcuda.so.1");
        assertEquals("/nonexistent/libcuda.so.1 not found: install the NVIDIA driver (its libcuda.so.1), or set"
                + " RDMAFFM_LIBCUDA to the library's path", setUpFailure(MemoryChoice.fromFlags(Tool.WRITE_BW, "0", null,
                false), 65536));
    }

    @Test
    void aGpuIndexThatDoesNotExist() {
        System.setProperty("rdmaffm.libcuda", standIn());
        String m = setUpFailure(MemoryChoice.fromFlags(Tool.WRITE_BW, "5", null, false), 65536);
        assertTrue(m.startsWith("no CUDA GPU 5: the driver sees "), m);
        String bus = setUpFailure(MemoryChoice.fromFlags(Tool.WRITE_BW, null, "0000:99:00.0", false), 65536);
        assertTrue(bus.startsWith("no CUDA GPU at PCI address 0000:99:00.0"), bus);
    }

    @Test
    void aSizeTheGpuCannotHold() {
        System.setProperty("rdmaffm.libcuda", standIn());
        // The stand-in's GPUs hold 1 GiB unless told otherwise.
        String m = setUpFailure(MemoryChoice.fromFlags(Tool.WRITE_BW, "0", null, false), 3L << 30);
        assertTrue(m.contains("cannot hold 3221225472 bytes (cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY): ask for less memory"), m);
    }

    /** The set-up failure: the GPU side fails before the protection domain (null here) is ever used. */
    private static String setUpFailure(MemoryChoice c, long bytes) {
        StringBuilder notes = new StringBuilder();
        InvalidParameterException e = assertThrows(InvalidParameterException.class,
                () -> RunBuffer.allocate(c, null, bytes, 0, notes::append));
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
        assertEquals("", notes.toString());
        return e.getMessage();
    }
}
