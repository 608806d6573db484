package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * A protection domain that several {@link Connection}s share, with the regions registered on it once and used by
 * all of them: the server-wide buffer that many clients READ and WRITE, or the send buffers of a client with many
 * connections. Give it to {@link ConnectionOptions#sharedDomain}; every connection made with those options (connected
 * or accepted) creates its queue pair on this domain instead of its own, and accepts this domain's regions as local
 * buffers of {@link Connection#send}, {@link Connection#write} and {@link Connection#read}; a
 * {@link RemoteBuffer#of(MemoryRegion)} of one of them is valid on every connection.
 *
 * <p>Ownership mirrors verbs: the domain outlives the connections that use it. {@link #close()} while connections
 * still use it is refused with IllegalStateException naming how many (close them first, e.g. with
 * {@link RdmaServer#closeWithConnections()}); a connection closing releases its use. A connection made with a domain
 * that is closed is refused with IllegalStateException. Closing the domain closes the regions it made. The domain
 * belongs to one RDMA device, the one of the address it was opened on: a connection whose route goes through another
 * device fails with {@link ConnectionException.Reason#CONNECT_FAILED} naming both.
 *
 * <p>Thread-safe; {@link #close()} is idempotent. Regions made on a connection ({@link Connection#allocateRegion}) of a
 * shared domain still belong to that connection and close with it.
 */
public final class SharedDomain implements AutoCloseable {
    private final ProtectionDomain pd;
    private final String name;
    private final List<MemoryRegion> regions = new ArrayList<>();
    private int users;
    private boolean closed;

    private SharedDomain(ProtectionDomain pd, String name) {
        this.pd = pd;
        this.name = name;
    }

    /**
     * A protection domain on the RDMA device whose network interface has {@code localAddress} (what a server listens
     * on or a client's route leaves by): found by binding an rdma_cm id to it ({@code rdma_bind_addr}).
     * IllegalArgumentException for the wildcard address, which names no device.
     */
    public static SharedDomain open(InetAddress localAddress) {
        if (localAddress == null || localAddress.isAnyLocalAddress()) {
            throw new IllegalArgumentException("a shared domain needs the address of an RDMA device's interface, not "
                    + localAddress);
        }
        EventChannel channel = EventChannel.create();
        try (channel; CmId id = channel.createId(PortSpace.TCP)) {
            id.bindAddress(new InetSocketAddress(localAddress, 0));
            // librdmacm keeps the device's ibv_context open for the life of the process: the PD outlives the id.
            Context device = id.context();
            return new SharedDomain(device.allocateProtectionDomain(),
                    "shared domain on " + device.name() + " (" + localAddress.getHostAddress() + ")");
        }
    }

    /** Allocates and registers {@code bytes} of memory on this domain (see {@link Connection#allocateRegion}). */
    public MemoryRegion allocateRegion(long bytes, int access) {
        synchronized (this) {
            checkOpen();
            MemoryRegion r = pd.allocateRegion(bytes, access);
            regions.add(r);
            return r;
        }
    }

    /** Registers the caller's native memory on this domain; the caller keeps it allocated until the domain closes. */
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        synchronized (this) {
            checkOpen();
            MemoryRegion r = pd.registerMemory(segment, access);
            regions.add(r);
            return r;
        }
    }

    /** The name of the device this domain is on. */
    public String deviceName() {
        return pd.context().name();
    }

    /** Connections (open, or being built) that use this domain now. */
    public synchronized int connections() {
        return users;
    }

    public synchronized boolean isOpen() {
        return !closed;
    }

    /** The protection domain, for a connection being built; counts it as a user until {@link #release()}. */
    synchronized ProtectionDomain acquire() {
        checkOpen();
        users++;
        return pd;
    }

    /** A connection that used this domain is closed (or was never completed). */
    synchronized void release() {
        users--;
    }

    ProtectionDomain pd() {
        return pd;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the " + name + " is closed");
        }
    }

    /**
     * Closes the regions this domain made, then the protection domain. Refused with IllegalStateException while
     * connections use it (nothing is closed then). Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (users > 0) {
            throw new IllegalStateException("the " + name + " is still used by " + users + " connection"
                    + (users == 1 ? "" : "s") + ": close them first (RdmaServer.closeWithConnections closes a "
                    + "server's)");
        }
        closed = true;
        RuntimeException first = null;
        for (MemoryRegion r : regions) {
            try {
                r.close();
            } catch (RuntimeException e) {
                first = Teardown.add(first, e);
            }
        }
        regions.clear();
        try {
            pd.close();
        } catch (RuntimeException e) {
            first = Teardown.add(first, e);
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public synchronized String toString() {
        return "SharedDomain[" + name + ", " + users + " connection" + (users == 1 ? "" : "s")
                + (closed ? ", closed" : "") + "]";
    }
}
