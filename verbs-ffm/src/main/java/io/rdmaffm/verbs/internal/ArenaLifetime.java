package io.rdmaffm.verbs.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The life of the native memory that data-path downcalls read by address: work request lists and completion
 * arrays. Post and poll pass their pointers as {@code long}, so the linker neither checks nor keeps alive a
 * segment per argument (in the Soft-RoCE VM, C2 left those checks as out-of-line calls in four of five runs:
 * about 200 instructions an operation); a post or poll enters this guard instead, and {@link #close()} waits for
 * calls in flight before it frees the memory, so a close racing a post is an exception, never a use-after-free.
 */
public final class ArenaLifetime extends Lifetime {
    private final Arena arena;

    /** Guards {@code arena} (shared, so that any thread may post or poll); {@code kind} names it in messages. */
    public ArenaLifetime(String kind, Arena arena) {
        super(null, kind, MemorySegment.NULL);
        this.arena = arena;
    }

    @Override
    protected void destroy(MemorySegment handle) {
        arena.close();
    }
}
