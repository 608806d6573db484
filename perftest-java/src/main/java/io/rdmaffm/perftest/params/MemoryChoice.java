package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Tool;

/**
 * Where a run's buffer lives: host memory, or one GPU's memory ({@code --use_cuda=<index>} or
 * {@code --use_cuda_bus_id=<PCI address>}), registered as peer memory or, with {@code --use_cuda_dmabuf}, as a
 * dma-buf.
 *
 * @param gpuIndex the CUDA index, or -1 (host memory, or chosen by bus id)
 * @param gpuBusId the GPU's PCI address, or null
 * @param dmaBuf   export the buffer as a dma-buf and register that
 */
public record MemoryChoice(int gpuIndex, String gpuBusId, boolean dmaBuf) {
    /** Host memory, as without any of the flags. */
    public static final MemoryChoice HOST = new MemoryChoice(-1, null, false);

    /** Whether the buffer is GPU memory. */
    public boolean cuda() {
        return gpuIndex >= 0 || gpuBusId != null;
    }

    /**
     * From perftest's flags, each null or false when not given.
     *
     * @throws InvalidParameterException one line naming the flag and what it takes
     */
    public static MemoryChoice fromFlags(Tool tool, String useCuda, String busId, boolean dmaBuf) {
        if (useCuda == null && busId == null) {
            if (dmaBuf) {
                throw new InvalidParameterException("--use_cuda_dmabuf needs --use_cuda=<GPU index> or"
                        + " --use_cuda_bus_id=<PCI address>");
            }
            return HOST;
        }
        if (useCuda != null && busId != null) {
            throw new InvalidParameterException("--use_cuda and --use_cuda_bus_id both choose the GPU: give one");
        }
        if (tool == Tool.WRITE_LAT) {
            // ib_write_lat spins on the last byte of its buffer from the CPU, which GPU memory does not allow;
            // C perftest refuses it too.
            throw new InvalidParameterException("ib_write_lat polls its buffer from the CPU and cannot use GPU"
                    + " memory: use --use_cuda with ib_send_lat, ib_read_lat or a bandwidth tool");
        }
        if (busId != null) {
            if (!busId.matches("(?i)([0-9a-f]{4}:)?[0-9a-f]{2}:[0-9a-f]{2}\\.[0-7]")) {
                throw new InvalidParameterException("--use_cuda_bus_id takes a PCI address such as 0000:3b:00.0, not '"
                        + busId + "'");
            }
            return new MemoryChoice(-1, busId.toLowerCase(java.util.Locale.ROOT), dmaBuf);
        }
        int index;
        try {
            index = Integer.parseInt(useCuda.trim());
        } catch (NumberFormatException e) {
            index = -1;
        }
        if (index < 0) {
            throw new InvalidParameterException("--use_cuda takes a GPU index (0, 1, ...), not '" + useCuda + "'");
        }
        return new MemoryChoice(index, null, dmaBuf);
    }

    /** {@code GPU 0}, {@code GPU at 0000:3b:00.0}, or {@code host memory}. */
    public String describe() {
        String gpu = gpuBusId != null ? "GPU at " + gpuBusId : "GPU " + gpuIndex;
        return !cuda() ? "host memory" : gpu + (dmaBuf ? " (dma-buf)" : "");
    }
}
