package io.rdmaffm.verbs.connect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code CompletableFuture} style, under the connection's lock: futures of posted operations (one per send queue
 * slot), futures waiting for messages, operations waiting for room in the send queue or for credits (in order); the
 * device's {@link DeviceDriver} drives the connection while any of them is pending. Futures are completed by whichever thread
 * sees the completion, after it has released the lock ({@link #takeReady}), so dependent actions never run under it.
 * Nothing here is touched by the poll and blocking styles unless futures exist.
 */
final class AsyncOps {
    /** An operation that could not be posted yet. */
    record Waiting(byte kind, long local, int lkey, int length, long remote, int rkey, CompletableFuture<Void> future) {
    }

    private final CompletableFuture<?>[] bySlot;
    private int posted;
    final ArrayDeque<CompletableFuture<Message>> receivers = new ArrayDeque<>();
    final ArrayDeque<Waiting> backlog = new ArrayDeque<>();
    private final ArrayList<CompletableFuture<Object>> ready = new ArrayList<>();
    private final ArrayList<Object> results = new ArrayList<>();

    AsyncOps(int depth) {
        this.bySlot = new CompletableFuture<?>[depth];
    }

    boolean pending() {
        return posted > 0 || !receivers.isEmpty() || !backlog.isEmpty();
    }

    boolean hasReady() {
        return !ready.isEmpty();
    }

    void attach(int slot, CompletableFuture<Void> f) {
        bySlot[slot] = f;
        posted++;
    }

    /** Send queue slots of sequences (from, to] completed: their futures succeed. */
    void completed(SendQueue sq, long from, long to) {
        for (long s = from + 1; s <= to && posted > 0; s++) {
            int slot = sq.slot(s);
            CompletableFuture<?> f = bySlot[slot];
            if (f != null) {
                bySlot[slot] = null;
                posted--;
                ready(f, null);
            }
        }
    }

    /** A message for the oldest receiver, if one waits; false if none does. */
    boolean deliver(Message m) {
        CompletableFuture<Message> f = receivers.pollFirst();
        if (f == null) {
            return false;
        }
        ready(f, m);
        return true;
    }

    /** Every pending future fails with {@code e}. */
    void failAll(Throwable e) {
        for (int i = 0; i < bySlot.length; i++) {
            if (bySlot[i] != null) {
                ready(bySlot[i], e);
                bySlot[i] = null;
            }
        }
        posted = 0;
        for (CompletableFuture<Message> f; (f = receivers.pollFirst()) != null; ) {
            ready(f, e);
        }
        for (Waiting w; (w = backlog.pollFirst()) != null; ) {
            ready(w.future(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private void ready(CompletableFuture<?> f, Object result) {
        ready.add((CompletableFuture<Object>) f);
        results.add(result);
    }

    /** The futures to complete and their results (a value or a Throwable), taken out; run them without the lock. */
    Object[][] takeReady() {
        Object[][] out = {ready.toArray(), results.toArray()};
        ready.clear();
        results.clear();
        return out;
    }

    /** Completes what {@link #takeReady} took. */
    @SuppressWarnings("unchecked")
    static void complete(Object[][] batch) {
        for (int i = 0; i < batch[0].length; i++) {
            CompletableFuture<Object> f = (CompletableFuture<Object>) batch[0][i];
            Object r = batch[1][i];
            if (r instanceof Throwable t) {
                f.completeExceptionally(t);
            } else {
                f.complete(r);
            }
        }
    }
}
