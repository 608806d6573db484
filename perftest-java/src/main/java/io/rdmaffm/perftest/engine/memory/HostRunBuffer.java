package io.rdmaffm.perftest.engine.memory;

import io.rdmaffm.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;

/** Host memory the region owns: the view is the buffer, nothing to copy. */
record HostRunBuffer(MemoryRegion region) implements RunBuffer {

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
        region.close();
    }
}
