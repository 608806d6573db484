package io.rdmaffm.verbs;

import java.lang.foreign.MemorySegment;

/**
 * A verbs object owned by a parent (context → PD → MR ...). A child keeps its parent reachable; a parent
 * refuses to close while children are open, so nothing is destroyed under a live child and nothing
 * device-side is ever left to the garbage collector. close() is idempotent.
 */
abstract class NativeObject implements AutoCloseable {
    private final NativeObject parent;
    private final String kind;
    private MemorySegment handle;
    private int openChildren;
    private volatile boolean closed;

    NativeObject(NativeObject parent, String kind, MemorySegment handle) {
        this.parent = parent;
        this.kind = kind;
        this.handle = handle;
        if (parent != null) {
            parent.childOpened();
        }
    }

    /** The native pointer; throws if this object is closed. */
    final MemorySegment handle() {
        MemorySegment h = handle;
        if (closed) {
            throw new IllegalStateException(kind + " is closed" + describeSuffix());
        }
        return h;
    }

    /** The native pointer without the open check, for code that has already checked. */
    final MemorySegment rawHandle() {
        return handle;
    }

    final boolean isClosedInternal() {
        return closed;
    }

    /** True once {@link #close()} has completed. */
    public synchronized boolean isClosed() {
        return closed;
    }

    private synchronized void childOpened() {
        if (closed) {
            throw new IllegalStateException(kind + " is closed" + describeSuffix());
        }
        openChildren++;
    }

    private synchronized void childClosed() {
        openChildren--;
    }

    /** Another object uses this one (a QP its CQs and SRQ): this one may not close before it. */
    final void pin(NativeObject user) {
        childOpened();
    }

    final void unpin(NativeObject user) {
        childClosed();
    }

    /** Open objects created from this one. */
    final synchronized int openChildren() {
        return openChildren;
    }

    /** Text that identifies this object in messages, e.g. " (QP 0x11)". */
    String describeSuffix() {
        return "";
    }

    /**
     * Runs a destroy verb of the form {@code int verb(errno capture, object*)} and checks its result:
     * 0, an errno value, or -1 with errno set.
     */
    static void destroyWith(java.lang.invoke.MethodHandle verb, String name, MemorySegment handle, String context) {
        int rc;
        try {
            rc = (int) verb.invokeExact(io.rdmaffm.verbs.raw.Downcalls.errnoState(), handle);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        Context.check(name, rc, context);
    }

    /** Calls the destroy verb; throws {@link VerbsException} when it fails (the object then stays open). */
    abstract void destroy(MemorySegment handle);

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (openChildren > 0) {
                throw new IllegalStateException("cannot close " + kind + describeSuffix() + ": " + openChildren
                        + " object(s) created from it or using it are still open; close them first");
            }
            destroy(handle);
            closed = true;
            handle = MemorySegment.NULL;
        }
        if (parent != null) {
            parent.childClosed();
        }
        afterClose();
    }

    /** Runs after the object is closed and detached from its parent; may report a problem by throwing. */
    void afterClose() {
    }

    final NativeObject parentObject() {
        return parent;
    }
}
