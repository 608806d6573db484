package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.perftest.params.MemoryChoice;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

/**
 * A run's registered buffer and the host's view of it for {@code --verify}. For host memory the view is the
 * buffer; for GPU memory it is a host copy that {@link #pushToDevice()} and {@link #pullFromDevice()} move
 * through the driver. {@link #close()} deregisters and frees.
 */
public interface RunBuffer extends AutoCloseable {

    /** The registered region the work requests use. */
    MemoryRegion region();

    /** Host memory holding the buffer's contents, for the pattern and its check. */
    MemorySegment hostView();

    /** Makes what was written to {@link #hostView()} the buffer's contents. */
    void pushToDevice();

    /** Makes {@link #hostView()} show the buffer's contents. */
    void pullFromDevice();

    @Override
    void close();

    /**
     * Before the run meets its peer: the GPU {@code choice} names can be had (the driver loads, the GPU exists),
     * so such a set-up failure is one line and exit 2 at once, not after a peer has connected. Nothing for host
     * memory.
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException no libcuda, driver too old, no such GPU
     */
    static void preflight(MemoryChoice choice) {
        if (choice.cuda()) {
            CudaRunBuffer.preflight(choice);
        }
    }

    /**
     * Allocates and registers {@code bytes} where {@code choice} says; {@code notes} receives the lines a user
     * should see (a fallback from dma-buf to peer memory).
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException when GPU memory cannot be had or registered
     *                                                                (one line: the cause and the fix)
     */
    static RunBuffer allocate(MemoryChoice choice, ProtectionDomain pd, long bytes, int access, Consumer<String> notes) {
        return choice.cuda() ? CudaRunBuffer.allocate(choice, pd, bytes, access, notes)
                : new HostRunBuffer(pd.allocateRegion(bytes, access));
    }

    /**
     * {@code --mmap FILE}: {@code bytes} of the file from {@code offset}, mapped shared and registered.
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException no such file, too short, offset not page-aligned
     */
    static RunBuffer mappedFile(ProtectionDomain pd, java.nio.file.Path file, long offset, long bytes, int access,
                                int pageSize) {
        return MappedRunBuffer.file(pd, file, offset, bytes, access, pageSize);
    }

    /**
     * {@code --use_hugepages}: {@code bytes} in huge pages, registered.
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException too few huge pages free (with the pool's figures)
     */
    static RunBuffer hugePages(ProtectionDomain pd, long bytes, int access) {
        return MappedRunBuffer.hugePages(pd, bytes, access);
    }
}
