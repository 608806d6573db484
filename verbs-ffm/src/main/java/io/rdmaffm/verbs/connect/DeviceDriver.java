package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.CompletionChannel;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Context;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;

/**
 * The driver of one RDMA device context (rdma_cm hands every connection on a device the same {@code ibv_context}):
 * one completion channel shared by the CQs of all the device's connections, and one platform daemon thread
 * ("rdma-device <name>"), the only thread of the connection API that sleeps in native code on a completion
 * channel. It reads an event, routes it by its CQ to the connection, and there polls the CQ, re-arms it while
 * anybody waits in the connection or a future is pending, and signals the parked waiters; futures complete on it,
 * with the connection's lock released ({@link Core#unlock}). Every {@link #SLICE_NANOS} it re-polls each connection
 * with a waiter or a pending future ({@link Driver#interested}), against a lost CQ event; connections whose operations wait for credits
 * (RDMA WRITEs, which raise no event) or whose lock was busy are looked at again within about a millisecond.
 *
 * <p>A connection's lock is only ever tried ({@code tryLock}) here, never waited for, so one connection busy in a
 * long call, failing or closing holds up no other; a failure thrown while driving one connection fails that one.
 * Made with the device's first connection ({@link #acquire}), its thread started at the first wait or future
 * ({@link #start}); the thread ends and its channel is destroyed (by that
 * thread, explicitly: nothing is left to the garbage collector) when the last connection's parts are closed
 * ({@link #release}, which waits for that, at most about one slice, unless called on the driver itself).
 */
final class DeviceDriver {
    /** Longest sleep on the channel between two re-polls of the connections that are waited on. */
    static final long SLICE_NANOS = 50_000_000L;
    /** Sleep while a connection must be looked at again soon (poll(2) counts in milliseconds). */
    static final long SOON_NANOS = 1_000_000L;
    /** The thread-name prefix, one thread per device context. */
    static final String THREAD_PREFIX = "rdma-device ";

    private static final Map<Context, DeviceDriver> DEVICES = new HashMap<>(); // guarded by itself

    final Context context;
    final CompletionChannel channel;
    private final Thread thread;
    /** The connections of the device, by CQ (identity: a CQ is one Java object per native CQ). */
    private final Map<CompletionQueue, Core> routes = new ConcurrentHashMap<>();
    /** Connections to look at again soon: their lock was busy, or operations of theirs wait for credits. */
    private final Set<Core> soon = ConcurrentHashMap.newKeySet();
    private final ArrayList<Core> again = new ArrayList<>(); // the driver thread's own
    private int users; // guarded by DEVICES: connections being built or open on this device
    private volatile boolean stopping;
    /** The thread was started: at the first wait or future on the device, not for a connect that fails. */
    private volatile boolean started;

    private DeviceDriver(Context context) {
        this.context = context;
        this.channel = context.createCompletionChannel();
        this.thread = Thread.ofPlatform().daemon().name(THREAD_PREFIX + context.name()).unstarted(this::run);
    }

    /** The driver of {@code context}, made and started by its first user; each call is one use, see {@link #release}. */
    static DeviceDriver acquire(Context context) {
        synchronized (DEVICES) {
            DeviceDriver d = DEVICES.get(context);
            if (d == null) {
                d = new DeviceDriver(context);
                DEVICES.put(context, d);
            }
            d.users++;
            return d;
        }
    }

    /**
     * One use ends (after its CQ was destroyed). The last one stops the thread, which destroys the channel, and
     * waits for that (a slice at most), so the device's resources are back when a connection's close returns.
     */
    void release() {
        synchronized (DEVICES) {
            if (--users > 0) {
                return;
            }
            DEVICES.remove(context);
            stopping = true;
        }
        synchronized (this) {
            if (!started) { // never needed (e.g. a refused connect): no thread, the channel closes here
                channel.close();
                return;
            }
        }
        if (Thread.currentThread() != thread) {
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Starts the thread, once, at the first wait or future of a connection on the device (a thread costs a per-thread
     * native errno buffer, so a connect that fails before any wait starts none, as the per-connection driver did).
     */
    void start() {
        if (started) {
            return;
        }
        synchronized (this) {
            if (!started && !stopping) {
                thread.start();
                started = true;
            }
        }
    }

    /** Routes the events of {@code cq} to {@code core} from now on. */
    void attach(CompletionQueue cq, Core core) {
        routes.put(cq, core);
    }

    /** No more events to {@code core} (it is closed: a turn of the driver that already had it finds it so). */
    void detach(CompletionQueue cq) {
        routes.remove(cq);
    }

    /** Whether the calling thread is this driver (a future's callback on it must not park waiting for it). */
    boolean isDriverThread() {
        return Thread.currentThread() == thread;
    }

    private void run() {
        long nextSweep = System.nanoTime() + SLICE_NANOS;
        try {
            while (!stopping) {
                long now = System.nanoTime();
                long sleep = soon.isEmpty() ? Math.max(SOON_NANOS, nextSweep - now) : SOON_NANOS;
                CompletionQueue fired = null;
                try {
                    fired = channel.awaitEvent(Duration.ofNanos(sleep));
                } catch (RuntimeException broken) {
                    // the channel failed: the sweeps below still serve every connection, one slice at a time
                    sleepQuietly();
                }
                if (fired != null) {
                    Core c = routes.get(fired);
                    if (c != null) {
                        c.driver.armed = false; // that event was the arming's one; a poll follows (now or soon)
                        serve(c);
                    }
                }
                for (Core c : soon) {
                    soon.remove(c);
                    again.add(c);
                }
                for (int i = 0; i < again.size(); i++) {
                    serve(again.get(i));
                }
                again.clear();
                if (System.nanoTime() - nextSweep >= 0) {
                    for (Core c : routes.values()) {
                        if (c.driver.interested) {
                            serve(c);
                        }
                    }
                    nextSweep = System.nanoTime() + SLICE_NANOS;
                }
            }
        } finally {
            try {
                channel.close();
            } catch (RuntimeException stillUsed) {
                // a CQ of a connection still being built: not possible once the last use was released
            }
        }
    }

    /**
     * One turn for one connection, if its lock is free: poll, wake its waiters, re-arm while wanted; completes the
     * futures that became ready after releasing the lock. A busy lock or a credit backlog puts it on {@link #soon}.
     */
    private void serve(Core c) {
        if (!c.lock.tryLock()) {
            soon.add(c);
            return;
        }
        boolean later = false;
        try {
            later = c.driver.drive();
        } catch (RuntimeException e) {
            if (c.failure == null && !c.closed) {
                c.fail(new ConnectionException(ConnectionException.Reason.FAILED_COMPLETION, "connection", 0,
                        "the device driver failed on the connection to " + c.peer + ": " + e, null, null));
            }
        } finally {
            c.unlock();
        }
        if (later) {
            soon.add(c);
        }
    }

    /** Asks for a look at {@code c} within about a millisecond (operations of it wait for credits). */
    void soon(Core c) {
        soon.add(c);
    }

    private static void sleepQuietly() {
        try {
            Thread.sleep(SLICE_NANOS / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "device driver of " + context.name() + " (" + routes.size() + " connections)";
    }
}
