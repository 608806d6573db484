package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.internal.Fds;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

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
 *
 * <p>How it waits depends on who else reads the channel. A server's channel is also read by {@code accept}, which
 * leaves the watched connections' events it reads in the channel's queue without making the fd readable again, so
 * that watcher waits in 25 ms slices (one thread per server). A client connection's channel is its own and nobody
 * else reads it once connected ({@link #own}): that watcher sleeps in poll(2) on the channel's fd and an eventfd,
 * with no timeout, and {@link #stopSoon} writes the eventfd. Until 2026-12-08 every client's watcher woke every
 * 25 ms as well: 64 clients made 2,560 wake-ups a second of platform threads, 2.5 s of the JVM's 88.5 s of CPU in
 * a 64-client stress run on rxe in the TCG VM, CPU the carriers were short of (docs/connection-api.md).
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
    /** The eventfd that wakes an {@link #own} watcher, -1 for a sliced one; closed by its thread, or by stop(). */
    private final int wakeFd;
    private boolean wakeClosed; // guarded by this

    CmWatcher(EventChannel channel, String name) {
        this(channel, name, -1);
    }

    private CmWatcher(EventChannel channel, String name, int wakeFd) {
        this.channel = channel;
        this.name = name;
        this.wakeFd = wakeFd;
    }

    /** The watcher of a channel that only it reads (a client connection's): no periodic wake-up. */
    static CmWatcher own(EventChannel channel, String name) {
        return ownWakeUp ? new CmWatcher(channel, name, Fds.eventFd("rdma_cm watcher wake-up"))
                : new CmWatcher(channel, name);
    }

    /** False: client watchers wait in slices too, as before (VirtualThreadStress compares the two). */
    static volatile boolean ownWakeUp = true;

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

    /** Asks the thread to stop; it leaves at its next event or within 25 ms (an own watcher at once). */
    void stopSoon() {
        stopping = true;
        synchronized (this) {
            if (wakeFd >= 0 && !wakeClosed) {
                Fds.signal(wakeFd);
            }
        }
    }

    /** Stops the thread and waits for it (at most 2 s). */
    void stop() {
        stopSoon();
        Thread t;
        synchronized (this) {
            t = thread;
            if (t == null) {
                closeWake(); // never started
            }
        }
        if (t != null && t != Thread.currentThread()) {
            try {
                t.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Closes the eventfd once (under this monitor: stopSoon writes it under the same). */
    private void closeWake() {
        if (wakeFd >= 0 && !wakeClosed) {
            wakeClosed = true;
            Fds.closeFd(wakeFd);
        }
    }

    private void run() {
        if (wakeFd >= 0) {
            try {
                runOwn();
            } finally {
                synchronized (this) {
                    closeWake();
                }
            }
            return;
        }
        while (!stopping) {
            CmEvent e;
            try {
                e = channel.nextEvent(ours, SLICE);
            } catch (IllegalStateException closed) {
                return;
            }
            dispatch(e);
        }
    }

    /** Hands an event (null: none came) to the connection it is for, if that one is still watched. */
    private void dispatch(CmEvent e) {
        if (e != null) {
            Core core = watched.get(e.id());
            if (core != null) {
                core.onCm(e);
            }
        }
    }

    /** An own channel: sleeps until an event or the wake-up; reads what came without waiting. */
    private void runOwn() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment fds = arena.allocate(io.rdmaffm.verbs.raw.Structs.pollfd, 2);
            boolean look = true; // first: events read by connect and left queued on the channel
            while (!stopping) {
                if (!look) {
                    int ready;
                    try {
                        ready = Fds.awaitEither(fds, channel.fd(), wakeFd, -1, "rdma_cm fd");
                    } catch (IllegalStateException closed) {
                        return;
                    }
                    if (stopping || (ready & 1) == 0) {
                        continue;
                    }
                }
                look = false;
                CmEvent e;
                try {
                    e = channel.nextEvent(ours, Duration.ZERO);
                } catch (IllegalStateException closed) {
                    return;
                }
                dispatch(e);
            }
        }
    }
}
