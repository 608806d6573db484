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
 * with the connection's lock released ({@link Core#unlock}). No wake-up depends on anything but the events
 * ({@link Driver#arm} polls the CQ empty after every arming); a backstop sweep every {@link #SWEEP_NANOS} re-polls
 * each connection with a waiter or a pending future ({@link Driver#interested}). Connections whose operations wait
 * for credits (RDMA WRITEs, which raise no event) or whose lock was busy are looked at again within about a
 * millisecond.
 *
 * <p>A connection's lock is only ever tried ({@code tryLock}) here, never waited for, so one connection busy in a
 * long call, failing or closing holds up no other; a failure thrown while driving one connection fails that one.
 * Made with the device's first connection ({@link #acquire}), its thread started at the first wait or future
 * ({@link #start}); the thread ends and its channel is destroyed (by that
 * thread, explicitly: nothing is left to the garbage collector) when the last connection's parts are closed
 * ({@link #release}, which waits for that, at most about one slice, unless called on the driver itself).
 */
final class DeviceDriver {
    /** Longest sleep on the channel: how soon the thread sees {@link #release} stop it. */
    static final long SLICE_NANOS = 50_000_000L;
    /**
     * How often the backstop sweep re-polls every connection with a waiter or a pending future. No wake-up depends on
     * it ({@link Driver#arm} leaves no completion behind an arming; DeviceDriverRdmaTest runs with it off): it only
     * bounds the cost of an event lost in a way not known here. It was every 50 ms; measured under the 64-client
     * stress on rxe (2 carriers, TCG VM), the driver then made 62,572 serves for 1,703 events, each sweep trying every
     * one of the 128 connections' locks (13,058 were busy, contending with the virtual threads) and the longest sweep
     * took 627 ms, during which no event was read.
     */
    static final long SWEEP_NANOS = 1_000_000_000L;
    /** {@link #SWEEP_NANOS}, or Long.MAX_VALUE in a test that proves no wake-up depends on the sweep. */
    static volatile long sweepNanos = SWEEP_NANOS;
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
    /*
     * What the drivers of the process did, for VirtualThreadStress's traces of a late call (did the driver read the
     * connection's event, serve it, find its lock busy, or was the driver itself late?). Written by driver threads
     * only (with several devices the counts may miss an increment: they are diagnostics), no allocation.
     */
    static volatile long diagTurnAt, diagMaxTurn, diagMaxLate, diagEvents, diagServes, diagBusy, diagSweepFinds,
            diagEventFinds, diagEventEmpty, diagSlowTurns;

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
        long lastSweep = System.nanoTime();
        try {
            while (!stopping) {
                long now = System.nanoTime();
                long every = sweepNanos;
                long toSweep = every == Long.MAX_VALUE ? SLICE_NANOS : lastSweep + every - now;
                long sleep = soon.isEmpty() ? Math.max(SOON_NANOS, Math.min(SLICE_NANOS, toSweep)) : SOON_NANOS;
                CompletionQueue fired = null;
                long w0 = System.nanoTime();
                try {
                    fired = channel.awaitEvent(Duration.ofNanos(sleep));
                } catch (RuntimeException broken) {
                    // the channel failed: the backstop sweeps below still serve every connection, once a sweep interval
                    sleepQuietly();
                }
                long t0 = System.nanoTime();
                diagTurnAt = t0;
                if (fired == null && t0 - w0 - sleep > diagMaxLate) {
                    diagMaxLate = t0 - w0 - sleep;
                }
                if (fired != null) {
                    Core c = routes.get(fired);
                    diagEvents++;
                    if (c != null) {
                        c.driver.armed = false; // that event was the arming's one; a poll follows (now or soon)
                        c.driver.diagEventAt = t0;
                        c.driver.diagFound = false;
                        serve(c);
                        if (c.driver.diagFound) {
                            diagEventFinds++;
                        } else {
                            diagEventEmpty++;
                        }
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
                if (every != Long.MAX_VALUE && System.nanoTime() - lastSweep >= every) {
                    for (Core c : routes.values()) {
                        if (c.driver.interested) {
                            c.driver.diagFound = false;
                            serve(c);
                            if (c.driver.diagFound) {
                                diagSweepFinds++;
                                c.driver.diagSweepFoundAt = System.nanoTime();
                            }
                        }
                    }
                    lastSweep = System.nanoTime();
                }
                long turn = System.nanoTime() - t0;
                if (turn > 100_000_000L) {
                    diagSlowTurns++;
                }
                if (turn > diagMaxTurn) {
                    diagMaxTurn = turn;
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
        diagServes++;
        if (!c.lock.tryLock()) {
            diagBusy++;
            c.driver.diagBusyAt = System.nanoTime();
            soon.add(c);
            return;
        }
        c.driver.diagServedAt = System.nanoTime();
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

    /** For a trace: the state of c's waits and what the driver did, times in ms relative to {@code since}. */
    static String diag(Core c, long since) {
        Driver d = c.driver;
        return "armed=" + d.armed + " interested=" + d.interested + " waiters=" + d.waiters + " pending="
                + c.async.pending() + " lastEvent=" + rel(d.diagEventAt, since) + " lastServed=" + rel(d.diagServedAt, since)
                + " lastBusy=" + rel(d.diagBusyAt, since) + " lastSweepFind=" + rel(d.diagSweepFoundAt, since)
                + " driverTurn=" + rel(diagTurnAt, since) + " " + stats();
    }

    /** For a trace: the drivers' counts since the process began. */
    static String stats() {
        return "driver: events " + diagEvents + " (found " + diagEventFinds + ", empty " + diagEventEmpty + "), serves "
                + diagServes + ", busy " + diagBusy + ", sweep finds " + diagSweepFinds + ", turns>100ms " + diagSlowTurns
                + ", longest turn " + diagMaxTurn / 1_000_000 + " ms, latest wake-up "
                + diagMaxLate / 1_000_000 + " ms";
    }

    private static String rel(long at, long since) {
        return at == 0 ? "never" : "+" + (at - since) / 1_000_000 + "ms";
    }

    @Override
    public String toString() {
        return "device driver of " + context.name() + " (" + routes.size() + " connections)";
    }
}
