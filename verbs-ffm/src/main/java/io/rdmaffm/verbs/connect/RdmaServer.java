package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmEventType;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Listens for {@link Connection}s on an IP address and port ({@code rdma_bind_addr}, {@code rdma_listen}) and accepts
 * them one by one with a deadline. Each accepted connection is independent: it stays open when {@link #close()}
 * stops the server; {@link #closeWithConnections()} closes the server and every connection it accepted that is still
 * open. {@link #accept} may be called from several threads (virtual ones park, see {@link Connection}); each
 * connect request goes to one of them. {@link #close()} may be called while threads wait in {@code accept}: they
 * end with {@link ConnectionException.Reason#CLOSED}.
 */
public final class RdmaServer implements AutoCloseable {
    /**
     * How long an accept waits on the event channel at a time before it looks whether the server was closed: a
     * wait in poll(2) cannot be cut short from another thread, and the channel (its fd, its poll buffer) may not be
     * closed under it. The waits run on platform threads (see {@link OffCarrier}), so a slice costs no carrier.
     */
    private static final Duration SLICE = Duration.ofMillis(50);
    private final SharedChannel shared;
    private final CmId listener;
    private final ConnectionOptions options;
    private final InetSocketAddress bound;
    private volatile boolean closed;
    /** Accept calls between their check of {@link #closed} and their end; close() waits for none to be left. */
    private int accepting; // guarded by this
    /** Accepted connections not yet closed; each leaves the set when it closes. */
    private final Set<Connection> open = ConcurrentHashMap.newKeySet();

    private RdmaServer(SharedChannel shared, CmId listener, ConnectionOptions options) {
        this.shared = shared;
        this.listener = listener;
        this.options = options;
        this.bound = listener.localAddress();
    }

    /** {@link #listen(InetSocketAddress, ConnectionOptions)} with default options. */
    public static RdmaServer listen(InetSocketAddress address) {
        return listen(address, new ConnectionOptions());
    }

    /**
     * Listens on {@code address}: an IPv4 or IPv6 address of an RDMA device's network interface (or the wildcard),
     * port 0 for a free one ({@link #localAddress()} tells which). {@code options} apply to every accepted connection;
     * their private data goes to each client.
     */
    public static RdmaServer listen(InetSocketAddress address, ConnectionOptions options) {
        if (address == null || address.isUnresolved()) {
            throw new IllegalArgumentException("listen needs a resolved IP address and port, not " + address);
        }
        ConnectionOptions o = new ConnectionOptions(options);
        EventChannel channel = EventChannel.create();
        CmId id = null;
        try {
            id = channel.createId(PortSpace.TCP);
            id.bindAddress(address);
            id.listen(16);
            return new RdmaServer(new SharedChannel(channel, "server " + id.localAddress()), id, o);
        } catch (RuntimeException e) {
            Setup.closeQuietly(id, e);
            Setup.closeQuietly(channel, e);
            throw e;
        }
    }

    /** The bound address, with the port chosen when 0 was asked for. */
    public InetSocketAddress localAddress() {
        return bound;
    }

    /**
     * Waits at most {@code timeout} for a client's connect request and accepts it: creates the queue pair and
     * buffers and answers with the handshake ({@code rdma_accept}). Throws a {@link ConnectionException}: a timeout
     * when no client came in time (the server stays usable), {@link ConnectionException.Reason#CONNECT_FAILED} when
     * the request was not from a verbs-ffm connection (it is rejected) or accepting it failed,
     * {@link ConnectionException.Reason#CLOSED} when {@link #close()} was called while it waited. After close it throws
     * IllegalStateException.
     */
    public Connection accept(Duration timeout) {
        return OffCarrier.call(() -> acceptHere(timeout));
    }

    private Connection acceptHere(Duration timeout) {
        long deadline = Deadlines.positive(timeout, "accept");
        synchronized (this) {
            if (closed) {
                throw new IllegalStateException("the server on " + bound + " is closed");
            }
            accepting++;
        }
        try {
            CmEvent request = awaitRequest(deadline, timeout);
            shared.acquire(); // before close() may go on: the new id lives on the channel
            Connection[] made = new Connection[1];
            Runnable release = new Runnable() {
                private boolean done;

                @Override
                public synchronized void run() {
                    if (!done) {
                        done = true;
                        if (made[0] != null) {
                            open.remove(made[0]);
                        }
                        shared.release();
                    }
                }
            };
            Connection c = Setup.accept(request, release, shared.watcher, options, deadline, timeout);
            made[0] = c;
            open.add(c);
            return c;
        } finally {
            synchronized (this) {
                if (--accepting == 0) {
                    notifyAll();
                }
            }
        }
    }

    /**
     * The next connect request, waited for in slices so that a {@link #close()} meanwhile ends the wait with
     * CLOSED; the last slice goes through awaitConnectRequest, whose timeout and errors are accept's.
     */
    private CmEvent awaitRequest(long deadline, Duration timeout) {
        while (true) {
            if (closed) {
                throw closedWhileWaiting();
            }
            if (Deadlines.remaining(deadline) > SLICE.toNanos()) {
                CmEvent e = listener.nextEvent(SLICE);
                if (e == null) {
                    continue;
                }
                if (e.type() == CmEventType.CONNECT_REQUEST) {
                    return e;
                }
                throw new ConnectionException(ConnectionException.Reason.CONNECT_FAILED, "rdma_listen",
                        ConnectionException.ECONNABORTED, "accept on " + bound + ": " + e.type()
                        + " instead of a connect request (status " + e.status() + ")", null, null);
            }
            try {
                return listener.awaitConnectRequest(Setup.left(deadline, "accept", timeout, bound));
            } catch (CmException e) {
                if (closed) {
                    throw closedWhileWaiting();
                }
                throw Setup.failed("accept on", e, bound);
            }
        }
    }

    private ConnectionException closedWhileWaiting() {
        return new ConnectionException(ConnectionException.Reason.CLOSED, "accept", ConnectionException.ECONNABORTED,
                "the server on " + bound + " was closed while accept waited", null, null);
    }

    /**
     * Stops listening ({@code rdma_destroy_id} of the listener). Connections already accepted stay open; the event
     * channel they share with the server closes with the last of them. Threads waiting in {@link #accept} end with
     * {@link ConnectionException.Reason#CLOSED} (within about 50 ms); close returns once they have left, and an
     * accept that had already taken a connect request first finishes it (its connection is open, and listed by
     * {@link #openConnections()}), bounded by that accept's deadline. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        boolean interrupted = false;
        while (accepting > 0) {
            try {
                wait(); // monitor released: the acceptors decrement under it
            } catch (InterruptedException e) {
                interrupted = true; // the listener may not go while they read its channel
            }
        }
        try {
            listener.close();
            shared.release();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Stops listening, then closes every connection this server accepted that is still open (each as
     * {@link Connection#close()}: waiting threads wake with {@link ConnectionException.Reason#CLOSED}). Idempotent;
     * the first exception of a close is thrown after all were tried.
     */
    public void closeWithConnections() {
        close();
        RuntimeException first = null;
        for (Connection c : new ArrayList<>(open)) {
            try {
                c.close();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    /** Accepted connections that are still open (a snapshot). */
    public List<Connection> openConnections() {
        return List.copyOf(open);
    }

    @Override
    public String toString() {
        return "RdmaServer[" + bound + (closed ? ", closed" : "") + "]";
    }
}
