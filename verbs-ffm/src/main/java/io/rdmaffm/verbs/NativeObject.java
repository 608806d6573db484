package io.rdmaffm.verbs;

import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.internal.VerbsBridge;
import io.rdmaffm.verbs.raw.Downcalls;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A verbs object owned by a parent (context → PD → MR ...), on the binding's one lifetime model
 * ({@link Lifetime}): a child keeps its parent reachable and holds a place in it from before its create verb
 * runs; a parent refuses to close while children are open, so nothing is destroyed under a live child and nothing
 * device-side is ever left to the garbage collector. close() is idempotent, and safe against calls in progress
 * on other threads: it waits for them, and every later call throws IllegalStateException.
 */
abstract class NativeObject implements AutoCloseable {
    static {
        VerbsBridge.install(new Bridge());
    }

    final Lifetime life;

    NativeObject(NativeObject parent, String kind, MemorySegment handle) {
        this.life = new Lifetime(parent == null ? null : parent.life, kind, handle) {
            @Override
            protected void destroy(MemorySegment h) {
                NativeObject.this.destroy(h);
            }

            @Override
            protected void afterClose() {
                NativeObject.this.afterClose();
            }

            @Override
            protected String describe() {
                return describeSuffix();
            }
        };
    }

    /** The native pointer, to store where native code reads it later; throws if this object is closed. */
    final MemorySegment handle() {
        return life.handle();
    }

    /**
     * The native pointer ({@code struct ibv_qp *}, {@code struct ibv_cq *} ...), for interoperating with native
     * code that takes the C object: a JNI or FFM library of your own, a provider's direct-verbs calls. Valid
     * until {@link #close()}; throws IllegalStateException once the object is closed. The binding's guard does not
     * cover what native code does with it: keep the object open while any native code may use the pointer, and
     * leave its destruction to {@link #close()}.
     */
    public final MemorySegment nativeHandle() {
        return life.handle();
    }

    /** The native pointer as an identity (NULL once closed). */
    final MemorySegment rawHandle() {
        return life.rawHandle();
    }

    /** Runs one native call on this object, guarded against a concurrent close (see {@link Lifetime}). */
    final <T> T call(Lifetime.Call<T> call) {
        return life.call(call);
    }

    final boolean isClosedInternal() {
        return life.isClosed();
    }

    /**
     * Confines this object to the calling thread for good, as a confined {@link java.lang.foreign.Arena} is (a
     * choice of the binding; no verb). Its calls (a QP's posts, a CQ's polls, an SRQ's posts) then check the
     * thread instead of taking the guard that lets a close on another thread wait for them: two atomic adds
     * less per call (nothing measurable on rxe under emulation, see docs/benchmarks.md). From then on a
     * call or close on another thread throws WrongThreadException, except that a close is allowed once this
     * thread has ended. Refused (IllegalStateException) while a call on another thread is in flight, or once
     * closed; again on the same thread it does nothing.
     */
    public final void confineToCurrentThread() {
        life.confine();
    }

    /** The thread this object is confined to ({@link #confineToCurrentThread}), or null while any may use it. */
    public final Thread owner() {
        return life.owner();
    }

    /** True once {@link #close()} has completed. */
    public boolean isClosed() {
        return life.isClosed();
    }

    /** Another object uses this one (a QP its CQs and SRQ): this one may not close before it. */
    final void pin() {
        life.reserve();
    }

    /** Gives back a place {@link #pin()} took before {@code user} existed (its create failed). */
    final void unpin() {
        life.release();
    }

    /** Names the object that took a place with {@link #pin()}, for the message of a refused close. */
    final void pinnedBy(NativeObject user) {
        life.name(user.life);
    }

    /** Gives back the place of {@code user}, named with {@link #pinnedBy}. */
    final void unpin(NativeObject user) {
        life.release(user.life);
    }

    /** Open objects created from this one or using it. */
    final int openChildren() {
        return life.users();
    }

    /** Text that identifies this object in messages, e.g. " (QP 0x11)". */
    String describeSuffix() {
        return "";
    }

    /**
     * Runs a destroy verb of the form {@code int verb(errno capture, object*)} and checks its result:
     * 0, an errno value, or -1 with errno set.
     */
    static void destroyWith(MethodHandle verb, String name, MemorySegment handle, String context) {
        int rc;
        try {
            rc = (int) verb.invokeExact(Downcalls.errnoState(), handle);
        } catch (Throwable t) {
            throw Errors.unchecked(t);
        }
        Errors.check(name, rc, context);
    }

    /** Calls the destroy verb; throws {@link VerbsException} when it fails (the object then stays open). */
    abstract void destroy(MemorySegment handle);

    /**
     * Destroys the object (the C destroy verb named in the subclass): refused with IllegalStateException while
     * objects created from it or using it are open; waits for calls in progress on other threads to return, and
     * every call after it throws IllegalStateException. Idempotent.
     */
    @Override
    public void close() {
        life.close();
    }

    /** Runs after the object is closed and detached from its parent; may report a problem by throwing. */
    void afterClose() {
    }
}
