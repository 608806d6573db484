package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.cm.CmEvent;
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
 * connect request goes to one of them.
 */
public final class RdmaServer implements AutoCloseable {
    private final SharedChannel shared;
    private final CmId listener;
    private final ConnectionOptions options;
    private final InetSocketAddress bound;
    private volatile boolean closed;
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
     * the request was not from a verbs-ffm connection (it is rejected) or accepting it failed.
     */
    public Connection accept(Duration timeout) {
        return OffCarrier.call(() -> acceptHere(timeout));
    }

    private Connection acceptHere(Duration timeout) {
        long deadline = Deadlines.positive(timeout, "accept");
        if (closed) {
            throw new IllegalStateException("the server on " + bound + " is closed");
        }
        CmEvent request;
        try {
            request = listener.awaitConnectRequest(Setup.left(deadline, "accept", timeout, bound));
        } catch (CmException e) {
            throw Setup.failed("accept on", e, bound);
        }
        shared.acquire();
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
    }

    /**
     * Stops listening ({@code rdma_destroy_id} of the listener). Connections already accepted stay open; the event
     * channel they share with the server closes with the last of them. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        listener.close();
        shared.release();
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
