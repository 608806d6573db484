package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.verbs.MemoryRegion;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Host memory: the view is the buffer, nothing to copy. Allocated by the region ({@code mapping} null), or
 * mapped by the run itself ({@link MappedRunBuffer}), when {@code mapping} is the arena that unmaps it; closing
 * deregisters, then unmaps.
 */
record HostRunBuffer(MemoryRegion region, Arena mapping) implements RunBuffer {

    /** Memory the region allocated and frees. */
    HostRunBuffer(MemoryRegion region) {
        this(region, null);
    }

    @Override
    public MemorySegment hostView() {
        return region.segment();
    }

    @Override
    public void pushToDevice() {
        // the view is the buffer
    }

    @Override
    public void pullFromDevice() {
        // the view is the buffer
    }

    @Override
    public void close() {
        try {
            region.close();
        } finally {
            if (mapping != null) {
                mapping.close();
            }
        }
    }
}
