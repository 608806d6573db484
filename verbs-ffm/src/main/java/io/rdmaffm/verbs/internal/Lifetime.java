package io.rdmaffm.verbs.internal;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The life of one native object (a verbs object, an rdma_cm id or event channel): its pointer, its parent, the
 * objects that use it, the calls in flight on it, and the close that ends it. Rules:
 * <ul>
 * <li>Ownership: a child holds a place in its parent from before its create verb runs ({@link #create}) until it
 * is closed, and so do objects that merely use this one ({@link #reserve}, e.g. a QP its CQs); {@link #close()}
 * is refused while any place is taken, so nothing is destroyed under a live child.
 * <li>Close against use: every native call on the pointer runs between {@link #enter()} and {@link #exit()}.
 * {@link #close()} first makes every later {@code enter()} fail with IllegalStateException, then waits until the
 * calls in flight have returned (each is one short, non-blocking native call), then runs the destroy verb. So a
 * close on one thread during a post or poll on another is never a use-after-free: the call completes before the
 * object is destroyed, or fails with IllegalStateException without reaching native code.
 * <li>{@code close()} is idempotent, checks the destroy verb's result, and leaves the object open (and usable)
 * when that fails. Nothing is ever left to the garbage collector.
 * </ul>
 * The guard is one atomic add on entry and one on exit, on a word the calling thread usually owns in its cache.
 */
public abstract class Lifetime {
    /** Calls in flight in the low bits; the sign bit once close() has begun. */
    private static final int CLOSING = Integer.MIN_VALUE;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Lifetime.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** What {@link #call} and {@link #create} run with the pointer; may throw what invokeExact throws. */
    @FunctionalInterface
    public interface Call<T> {
        T run(MemorySegment handle) throws Throwable;
    }

    private final Lifetime parent;
    private final String kind;
    /** Read by callers between enter() and exit(); cleared by close() only once none is in flight. */
    private MemorySegment handle;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    private volatile boolean closed;
    private int users; // guarded by this
    /** The open children and users among {@link #users}, by identity, for the message of a refused close. */
    private final Set<Lifetime> named = new LinkedHashSet<>(); // guarded by this

    /**
     * A live object of {@code kind} (for messages, e.g. "queue pair"). With a parent, it takes over the place
     * the parent's {@link #create} reserved for it.
     */
    protected Lifetime(Lifetime parent, String kind, MemorySegment handle) {
        this.parent = parent;
        this.kind = kind;
        this.handle = handle;
        if (parent != null) {
            parent.name(this);
        }
    }

    /** Calls the destroy verb; throws when it fails (the object then stays open). */
    protected abstract void destroy(MemorySegment handle);

    /** Runs after the object is destroyed and has left its parent; may report a problem by throwing. */
    protected void afterClose() {
    }

    /** Text that identifies this object in messages, e.g. " (QP 0x11)". */
    protected String describe() {
        return "";
    }

    /**
     * Starts a native call on the pointer: returns it, or throws IllegalStateException once close() has begun.
     * Pair with {@link #exit()} in a finally block; call nothing between them that may wait for this object.
     */
    public final MemorySegment enter() {
        if ((int) STATE.getAndAdd(this, 1) < 0) {
            STATE.getAndAdd(this, -1);
            throw closedException();
        }
        return handle;
    }

    /** Ends the call {@link #enter()} started. */
    public final void exit() {
        STATE.getAndAdd(this, -1);
    }

    /** {@code call} between {@link #enter()} and {@link #exit()}; what it throws passes through unchecked. */
    public final <T> T call(Call<T> call) {
        MemorySegment h = enter();
        try {
            return call.run(h);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            exit();
        }
    }

    /**
     * Creates a child: reserves its place first (so this object cannot close meanwhile and its pointer stays
     * valid for the create verb), then runs {@code create}, which builds the child; its place is given back if
     * {@code create} throws.
     */
    public final <T> T create(Call<T> create) {
        MemorySegment h = reserve();
        boolean made = false;
        try {
            T child = create.run(h);
            made = true;
            return child;
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        } finally {
            if (!made) {
                release();
            }
        }
    }

    /** Takes a place for an object that uses this one, which may then not close before it; returns the pointer. */
    public final synchronized MemorySegment reserve() {
        if (closed || (int) STATE.getVolatile(this) < 0) {
            throw closedException();
        }
        users++;
        return handle;
    }

    /** Gives back a place {@link #reserve()} or {@link #create} took. */
    public final synchronized void release() {
        users--;
    }

    /**
     * Says which object holds one of the places taken with {@link #reserve()} or {@link #create}, so that a
     * refused close can name it; a child's constructor does this for its parent.
     */
    public final synchronized void name(Lifetime holder) {
        named.add(holder);
    }

    /** Gives back the place of {@code holder} (named with {@link #name}). */
    public final synchronized void release(Lifetime holder) {
        named.remove(holder);
        users--;
    }

    /**
     * The pointer, for storing where native code reads it later (a work request); throws if closed. Calls
     * through it go through {@link #enter()} or {@link #call} instead.
     */
    public final MemorySegment handle() {
        MemorySegment h = handle;
        if (closed || (int) STATE.getVolatile(this) < 0) {
            throw closedException();
        }
        return h;
    }

    /** The pointer as an identity (NULL once closed); never to be called through. */
    public final MemorySegment rawHandle() {
        return handle;
    }

    public final boolean isClosed() {
        return closed;
    }

    /** Objects created from this one or using it that are still open. */
    public final synchronized int users() {
        return users;
    }

    public final String kind() {
        return kind;
    }

    /**
     * Destroys the object: refused (IllegalStateException) while objects created from it or using it are open;
     * otherwise refuses new calls, waits for the calls in flight, runs the destroy verb and leaves the parent.
     * Idempotent.
     */
    public final void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            if (users > 0) {
                throw new IllegalStateException("cannot close " + kind + describe() + ": " + users
                        + " object(s) created from it or using it are still open (" + openObjects()
                        + "); close them first");
            }
            STATE.getAndBitwiseOr(this, CLOSING);
            awaitCallsInFlight();
            try {
                destroy(handle);
            } catch (RuntimeException | Error e) {
                STATE.getAndBitwiseAnd(this, ~CLOSING); // still open: usable again
                throw e;
            }
            closed = true;
            handle = MemorySegment.NULL;
        }
        if (parent != null) {
            parent.release(this);
        }
        afterClose();
    }

    /** Names the open objects behind {@link #users}: kind and handle or number of each, at most eight. */
    private String openObjects() {
        StringBuilder sb = new StringBuilder();
        int shown = 0;
        for (Lifetime l : named) {
            if (shown == 8) {
                break;
            }
            sb.append(shown++ == 0 ? "" : ", ").append(l.kind).append(l.identity());
        }
        int rest = users - shown;
        if (rest > 0) {
            sb.append(shown == 0 ? "" : ", and ").append(rest).append(shown == 0 ? " being created" : " more");
        }
        return sb.toString();
    }

    /** {@link #describe()}, or the handle's address when the object has no better name. */
    private String identity() {
        String d = describe();
        return d.isEmpty() ? " 0x" + Long.toHexString(handle.address()) : d;
    }

    /** Spins briefly (a call in flight is one native call), then yields, then parks, so a slow one costs no CPU. */
    private void awaitCallsInFlight() {
        for (int spins = 0; ((int) STATE.getVolatile(this) & ~CLOSING) != 0; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else if (spins < 1_000) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private IllegalStateException closedException() {
        return new IllegalStateException(kind + " is closed" + describe());
    }
}
