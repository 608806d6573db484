package io.rdmaffm.verbs.connect;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * Runs a call that blocks in native code (rdma_cm's event channel in connect and accept, rdma_destroy_id and the
 * destroys in close, ibv_reg_mr in allocateRegion and registerMemory)
 * on a platform thread when the caller is a virtual thread, which parks on a future meanwhile: a virtual thread in
 * a native call cannot unmount, so it would hold its carrier for the whole wait. Platform callers run it themselves.
 * The threads ("rdma-cm-wait") are daemons, made as needed and ended after a minute idle.
 */
final class OffCarrier {
    private static final ExecutorService THREADS = Executors.newCachedThreadPool(
            Thread.ofPlatform().daemon().name("rdma-cm-wait ", 0).factory());

    private OffCarrier() {
    }

    static <T> T call(Supplier<T> blocking) {
        if (!Thread.currentThread().isVirtual()) {
            return blocking.get();
        }
        try {
            return CompletableFuture.supplyAsync(blocking, THREADS).join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }
}
