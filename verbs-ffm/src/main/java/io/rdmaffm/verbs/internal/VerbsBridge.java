package io.rdmaffm.verbs.internal;

import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;

import java.lang.foreign.MemorySegment;

/**
 * What the rdma_cm layer needs from the verbs classes that is not public API: native handles, a context that
 * librdmacm owns, and a queue pair created and destroyed by librdmacm. The verbs package installs the one
 * implementation when {@link Context} is initialized; this package is not exported.
 */
public interface VerbsBridge {

    /** Creates the ibv_qp from the filled {@code struct ibv_qp_init_attr}; returns it, or NULL with errno set. */
    @FunctionalInterface
    interface QueuePairCreator {
        MemorySegment create(MemorySegment pd, MemorySegment initAttr) throws Throwable;
    }

    /** The native pointer of an open verbs object; throws IllegalStateException if it is closed. */
    MemorySegment handle(Object verbsObject);

    /** A Context over an ibv_context that librdmacm opened and keeps open; closing it does nothing. */
    Context borrowedContext(MemorySegment ibvContext);

    /** A queue pair made by {@code creator} (e.g. rdma_create_qp) and destroyed by {@code destroyer}. */
    QueuePair createQueuePair(ProtectionDomain pd, QueuePairInit init, String verb, QueuePairCreator creator,
                              Runnable destroyer);

    /** Attributes for ibv_modify_qp that are a copy of a filled {@code struct ibv_qp_attr} and its mask. */
    QueuePairAttributes queuePairAttributes(MemorySegment ibvQpAttr, int mask);

    static VerbsBridge get() {
        VerbsBridge b = Holder.bridge;
        if (b == null) {
            try {
                // Context's static initializer installs the bridge.
                Class.forName("io.rdmaffm.verbs.Context", true, VerbsBridge.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(e);
            }
            b = Holder.bridge;
        }
        return b;
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
