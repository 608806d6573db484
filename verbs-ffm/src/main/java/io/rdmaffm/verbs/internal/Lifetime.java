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
 * An object used by one thread can instead be {@link #confine confined} to it, as a confined Arena is: its calls
 * then check the thread, two plain loads, and no other thread may call through it or close it while that thread
 * lives. Under the emulated CPU the pair of adds measured about 27 ns alone, but confining a CQ changed the whole
 * critical poll by nothing measurable (CallPartsBenchmark, EmptyPollBenchmark.ffmConfined; docs/benchmarks.md), so the
 * confinement is for callers who want the check, not a speed-up that the tools rely on.
 */
public abstract class Lifetime {
    /** Calls in flight in the low bits; the sign bit once close() has begun. */
    private static final int CLOSING = Integer.MIN_VALUE;
    /** Set once by {@link #confine}: calls on other threads back out. */
    private static final int CONFINED = 1 << 30;
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
    /** The handle's address, for the data path's downcalls, which take pointers as {@code long}. */
    private final long address;
    @SuppressWarnings("unused") // through STATE
    private volatile int state;
    private volatile boolean closed;
    /** The only thread that may call through or close this object once {@link #confine} ran; null while shared. */
    private volatile Thread owner;
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
        this.address = handle.address();
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
        Thread o = owner;
        if (o != null) {
            // Confined: only this thread calls and closes, so nothing can close the object under the call.
            if (closed) {
                throw closedException();
            }
            if (o != Thread.currentThread()) {
                throw wrongThread(o, "call through");
            }
            return handle;
        }
        int s = (int) STATE.getAndAdd(this, 1);
        if ((s & (CLOSING | CONFINED)) != 0) {
            STATE.getAndAdd(this, -1);
            throw s < 0 ? closedException() : wrongThread(owner, "call through");
        }
        return handle;
    }

    /**
     * {@link #enter()} for a data-path downcall (post, poll), which takes its pointers as {@code long} so that the
     * linker has no segment to check and keep alive per argument: enters this object and {@code memory}, the
     * buffer the call passes by address, and returns this object's pointer. Throws IllegalStateException, having
     * entered neither, once either is closed. Pair with {@link #exit(Lifetime)}.
     */
    public final long enterAddress(Lifetime memory) {
        enter();
        try {
            memory.enter();
        } catch (RuntimeException | Error e) {
            exit();
            throw e;
        }
        return address;
    }

    /** Ends the call {@link #enterAddress(Lifetime)} started. */
    public final void exit(Lifetime memory) {
        memory.exit();
        exit();
    }

    /** Ends the call {@link #enter()} started. */
    public final void exit() {
        // A shared call in flight keeps confine() from succeeding, so owner reads the same here as in its enter().
        if (owner == null) {
            STATE.getAndAdd(this, -1);
        }
    }

    /**
     * Confines the object to the calling thread from now on (for good; again on the same thread does nothing):
     * {@link #enter()} then checks the thread instead of counting calls, another thread's call or close throws
     * WrongThreadException, and a close from another thread is allowed only once this thread has ended (no call
     * can then be in flight). Refused while a call is in flight on another thread, and once closed.
     */
    public final synchronized void confine() {
        Thread me = Thread.currentThread();
        Thread o = owner;
        if (o == me) {
            return;
        }
        if (o != null) {
            throw wrongThread(o, "confine");
        }
        if (closed || !STATE.compareAndSet(this, 0, CONFINED)) {
            if (closed || (int) STATE.getVolatile(this) < 0) {
                throw closedException();
            }
            throw new IllegalStateException("cannot confine " + kind + describe()
                    + " to this thread: a call on another thread is in flight");
        }
        owner = me;
    }

    /** The thread the object is confined to, or null while any thread may use it. */
    public final Thread owner() {
        return owner;
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
            Thread o = owner;
            if (o != null && o != Thread.currentThread() && o.isAlive()) {
                throw wrongThread(o, "close");
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
        for (int spins = 0; ((int) STATE.getVolatile(this) & ~(CLOSING | CONFINED)) != 0; spins++) {
            if (spins < 100) {
                Thread.onSpinWait();
            } else if (spins < 1_000) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(50_000);
            }
        }
    }

    private WrongThreadException wrongThread(Thread o, String what) {
        return new WrongThreadException("cannot " + what + " " + kind + describe() + " on thread \""
                + Thread.currentThread().getName() + "\": it is confined to "
                + (o == null ? "another thread" : "thread \"" + o.getName() + "\""));
    }

    private IllegalStateException closedException() {
        return new IllegalStateException(kind + " is closed" + describe());
    }
}
