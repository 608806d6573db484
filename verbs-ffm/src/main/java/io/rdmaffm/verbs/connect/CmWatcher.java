package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.EventChannel;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * A daemon thread that reads the rdma_cm events of established connections (a DISCONNECTED when the peer closes or
 * its process dies) from their event channel and hands each to its connection, which then fails everything pending
 * at once: so neither the poll style nor a thread asleep on the completion channel has to look at rdma_cm itself.
 * One per channel: a client connection's own, or a server's, which its accepted connections share; it takes only
 * the events of the connections it watches, so a concurrent accept still gets its connect requests.
 */
final class CmWatcher {
    /** Longest wait on the channel before the thread looks whether it should stop. */
    private static final Duration SLICE = Duration.ofMillis(25);

    private final EventChannel channel;
    private final Map<CmId, Core> watched = new ConcurrentHashMap<>();
    private final Predicate<CmEvent> ours = e -> e.id() != null && watched.containsKey(e.id());
    private final String name;
    private Thread thread; // guarded by this
    private volatile boolean stopping;

    CmWatcher(EventChannel channel, String name) {
        this.channel = channel;
        this.name = name;
    }

    /** Hands {@code id}'s events to {@code core} from now on (and those already waiting on the channel). */
    synchronized void watch(CmId id, Core core) {
        watched.put(id, core);
        if (thread == null && !stopping) {
            thread = Thread.ofPlatform().daemon().name("rdma-cm " + name).start(this::run);
        }
    }

    void forget(CmId id) {
        watched.remove(id);
    }

    /** Asks the thread to stop; it leaves at its next event or within 25 ms. */
    void stopSoon() {
        stopping = true;
    }

    /** Stops the thread and waits for it (at most 2 s). */
    void stop() {
        stopping = true;
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        while (!stopping) {
            CmEvent e;
            try {
                e = channel.nextEvent(ours, SLICE);
            } catch (IllegalStateException closed) {
                return;
            }
            if (e != null) {
                Core core = watched.get(e.id());
                if (core != null) {
                    core.onCm(e);
                }
            }
        }
    }
}
