package io.rdmaffm.verbs.internal;

import java.lang.foreign.MemorySegment;

/**
 * The three things the rdma_cm package needs from the verbs package that are not public API: the Context of
 * an ibv_context librdmacm opened, a QueuePair that librdmacm creates and destroys, and QueuePairAttributes
 * copied from a filled {@code struct ibv_qp_attr}. Java has no friend packages, so the verbs package installs
 * the one implementation here when it is initialized (NativeObject's static initializer), and rdma_cm takes it
 * from here ({@link #get(Class)}, which initializes the verbs package first if need be).
 *
 * <p>It names no verbs type, so that this package depends on the verbs package only for the exception types
 * it creates ({@link Errors}) and the dependency graph has no cycle: arguments and results are the verbs objects
 * named in each method, and the rdma_cm side casts them back.
 */
public interface VerbsBridge {

    /** Creates the ibv_qp from the filled {@code struct ibv_qp_init_attr}; returns it, or NULL with errno set. */
    @FunctionalInterface
    interface QueuePairCreator {
        MemorySegment create(MemorySegment pd, MemorySegment initAttr) throws Throwable;
    }

    /** The {@code Context} of an ibv_context that librdmacm opened and keeps open; closing it does nothing. */
    Object borrowedContext(MemorySegment ibvContext);

    /**
     * A {@code QueuePair} on {@code protectionDomain} (a ProtectionDomain) as {@code init} (a QueuePairInit)
     * describes, made by {@code creator} (e.g. rdma_create_qp) and destroyed by {@code destroyer}.
     */
    Object createQueuePair(Object protectionDomain, Object init, String verb, QueuePairCreator creator,
                           Runnable destroyer);

    /** {@code QueuePairAttributes} for ibv_modify_qp that are a copy of a filled {@code struct ibv_qp_attr}. */
    Object queuePairAttributes(MemorySegment ibvQpAttr, int mask);

    /** The verbs package's implementation, once any verbs object class is initialized (as after Context.open). */
    static VerbsBridge get() {
        VerbsBridge bridge = Holder.bridge;
        if (bridge == null) {
            throw new IllegalStateException("the verbs package is not initialized yet: open a Context first");
        }
        return bridge;
    }

    /**
     * The verbs package's implementation, initializing {@code verbsClass} first if it is not installed yet: any
     * verbs object class (e.g. Context), whose initialization runs NativeObject's, which installs it.
     */
    static VerbsBridge get(Class<?> verbsClass) {
        VerbsBridge bridge = Holder.bridge;
        if (bridge == null) {
            try {
                Class.forName(verbsClass.getName(), true, verbsClass.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            bridge = Holder.bridge;
        }
        return bridge;
    }

    static void install(VerbsBridge bridge) {
        Holder.bridge = bridge;
    }

    final class Holder {
        private Holder() {
        }

        private static volatile VerbsBridge bridge;
    }
}
