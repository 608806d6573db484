package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.DeviceAttributes;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmEventType;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Building a connection: the verbs objects on an rdma_cm id, in the order they depend on each other (PD, a use of
 * the device's driver and its shared completion channel, CQ, QP, the credit block and the receive buffers, receives posted), then the rdma_cm exchange of the two
 * {@link Handshake}s; and taking them down in the reverse order when anything fails on the way.
 */
final class Setup {
    private Setup() {
    }

    /** What a connection is made of, owned by it once it exists. */
    record Parts(CmId id, Runnable releaseChannel, ProtectionDomain pd, DeviceDriver device, CompletionQueue cq,
                 QueuePair qp, MemoryRegion control, ReceivePool receives, int depth, ConnectionOptions options,
                 int responderResources, int initiatorDepth) {

        /**
         * Closes everything, children first; a shared protection domain is not closed but released (its owner closes
         * it). The first failure is thrown after all were tried.
         */
        void close() {
            RuntimeException first = null;
            SharedDomain shared = options.sharedDomain;
            // The id destroys its QP first (rdma_destroy_qp, then rdma_destroy_id).
            // The CQ before the device driver's use: its shared completion channel is destroyed with its last CQ.
            AutoCloseable deviceUse = () -> {
                device.detach(cq); // done by a connection's close already; not when a connect failed after its Core
                device.release();
            };
            Object[] order = {id, control, receives == null ? null : receives.region(), receives, cq, deviceUse,
                    shared == null ? pd : null};
            for (Object o : order) {
                try {
                    if (o instanceof AutoCloseable c) {
                        c.close();
                    }
                } catch (Exception e) {
                    RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                    if (first == null) {
                        first = r;
                    } else {
                        first.addSuppressed(r);
                    }
                }
            }
            if (shared != null) {
                shared.release();
            }
            releaseChannel.run();
            if (first != null) {
                throw first;
            }
        }
    }

    /** The verbs objects for {@code id}, receives posted; on failure everything made so far is closed. */
    static Parts build(CmId id, Runnable releaseChannel, ConnectionOptions o) {
        Context ctx = id.context();
        ProtectionDomain pd = null;
        DeviceDriver device = null;
        CompletionQueue cq = null;
        QueuePair qp = null;
        MemoryRegion control = null;
        MemoryRegion buffers = null;
        ReceivePool receives = null;
        SharedDomain shared = o.sharedDomain;
        if (shared != null) {
            checkDevice(ctx, shared, id);
        }
        try {
            DeviceAttributes dev = ctx.queryDevice();
            pd = shared != null ? shared.acquire() : ctx.allocateProtectionDomain();
            device = DeviceDriver.acquire(ctx);
            cq = ctx.createCompletionQueue(o.sendQueueDepth + o.receiveBuffers + 1, device.channel, 0);
            qp = id.createQueuePair(pd, new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(o.sendQueueDepth)
                    .maxRecvWr(o.receiveBuffers).maxInlineData(o.inlineThreshold));
            control = pd.allocateRegion(Credits.blockSize(o.sendQueueDepth), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            buffers = pd.allocateRegion((long) o.receiveBuffers * o.bufferSize, Access.LOCAL_WRITE);
            receives = new ReceivePool(buffers, o.receiveBuffers, o.bufferSize);
            receives.postAll(qp);
            return new Parts(id, releaseChannel, pd, device, cq, qp, control, receives, o.sendQueueDepth, o,
                    Math.min(o.readsInFlight, dev.maxQpRdAtom()), Math.min(o.readsInFlight, dev.maxQpInitRdAtom()));
        } catch (RuntimeException e) {
            AutoCloseable deviceUse = device == null ? null : device::release;
            for (AutoCloseable c : new AutoCloseable[] {qp, control, buffers, receives, cq, deviceUse,
                    shared == null ? pd : null}) {
                closeQuietly(c, e);
            }
            if (shared != null && pd != null) {
                shared.release();
            }
            throw e;
        }
    }

    /** A shared domain serves connections on its own device only: CONNECT_FAILED naming both otherwise. */
    static void checkDevice(Context ctx, SharedDomain shared, CmId id) {
        if (shared.pd().context() != ctx) {
            throw new ConnectionException(ConnectionException.Reason.CONNECT_FAILED, "rdma_create_qp",
                    ConnectionException.EPROTO, "the connection with " + id.peerAddress() + " goes through device "
                    + ctx.name() + ", its shared domain is on " + shared.deviceName(), null, null);
        }
    }

    static void closeQuietly(AutoCloseable c, Throwable into) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            into.addSuppressed(e);
        }
    }

    /** This side's handshake: its receive buffers, its credit word and the caller's private data. */
    static byte[] handshake(Parts p) {
        return new Handshake(p.receives().count, p.receives().size, p.control().address(), p.control().rkey(),
                p.options().privateData).encode();
    }

    /** The active side: resolve, build, rdma_connect with the handshake, read the peer's from ESTABLISHED. */
    static Connection connect(InetSocketAddress peer, ConnectionOptions o, Duration timeout) {
        long deadline = Deadlines.positive(timeout, "connect");
        if (peer == null || peer.isUnresolved()) {
            throw new IllegalArgumentException("connect needs a resolved IP address and port, not " + peer);
        }
        if (o.privateData.length > ConnectionOptions.MAX_CONNECT_PRIVATE_DATA) {
            throw new IllegalArgumentException("a connect request carries at most "
                    + ConnectionOptions.MAX_CONNECT_PRIVATE_DATA + " bytes of private data, not " + o.privateData.length);
        }
        EventChannel channel = EventChannel.create();
        CmId id = null;
        Parts parts = null;
        try {
            id = channel.createId(PortSpace.TCP);
            id.startResolveAddress(null, peer, left(deadline, "connect", timeout, peer));
            expect(id, CmEventType.ADDR_RESOLVED, deadline, timeout, peer);
            id.startResolveRoute(left(deadline, "connect", timeout, peer));
            expect(id, CmEventType.ROUTE_RESOLVED, deadline, timeout, peer);
            parts = build(id, channel::close, o);
            CmEvent established = id.connect(new ConnectionParameters().privateData(handshake(parts))
                    .responderResources(parts.responderResources()).initiatorDepth(parts.initiatorDepth()),
                    left(deadline, "connect", timeout, peer));
            Connection c = new Connection(parts, peerHandshake(established.privateData(), parts, peer), peer);
            c.core().watcher = CmWatcher.own(channel, "client " + peer);
            c.core().ownsWatcher = true;
            c.core().watcher.watch(id, c.core());
            return c;
        } catch (CmException e) {
            throw cleanUp(failed("connect", e, peer), parts, id, channel);
        } catch (RuntimeException e) {
            throw cleanUp(e, parts, id, channel);
        }
    }

    /** The passive side, for a connect request: build, check the peer's handshake, rdma_accept with ours. */
    static Connection accept(CmEvent request, Runnable releaseChannel, CmWatcher watcher, ConnectionOptions o,
                             long deadline, Duration timeout) {
        CmId id = request.id();
        InetSocketAddress peer = id.peerAddress();
        Parts parts = null;
        try {
            Handshake theirs;
            try {
                theirs = Handshake.decode(request.privateData());
            } catch (IllegalArgumentException e) {
                id.reject(null);
                throw new ConnectionException(ConnectionException.Reason.CONNECT_FAILED, "rdma_accept",
                        ConnectionException.EPROTO, "connect request from " + peer + " rejected: " + e.getMessage(),
                        null, e);
            }
            if (o.sharedDomain != null) {
                try {
                    checkDevice(id.context(), o.sharedDomain, id);
                    if (!o.sharedDomain.isOpen()) {
                        throw new IllegalStateException("the server's " + o.sharedDomain + " is closed");
                    }
                } catch (RuntimeException e) {
                    id.reject(null); // the client hears a rejection, not a timeout
                    throw e;
                }
            }
            parts = build(id, releaseChannel, o);
            id.accept(new ConnectionParameters().privateData(handshake(parts))
                    .responderResources(Math.min(parts.responderResources(), request.initiatorDepth()))
                    .initiatorDepth(Math.min(parts.initiatorDepth(), request.responderResources())),
                    left(deadline, "accept", timeout, peer));
            Connection c = new Connection(parts, theirs, peer);
            c.core().watcher = watcher;
            watcher.watch(id, c.core());
            return c;
        } catch (CmException e) {
            throw cleanUp(failed("accept", e, peer), parts, id, null);
        } catch (RuntimeException e) {
            throw cleanUp(e, parts, id, null);
        } finally {
            if (parts == null) {
                releaseChannel.run();
            }
        }
    }

    private static Handshake peerHandshake(byte[] data, Parts parts, InetSocketAddress peer) {
        try {
            return Handshake.decode(data);
        } catch (IllegalArgumentException e) {
            throw new ConnectionException(ConnectionException.Reason.CONNECT_FAILED, "rdma_connect",
                    ConnectionException.EPROTO, "the peer " + peer + " accepted, but " + e.getMessage(), null, e);
        }
    }

    private static void expect(CmId id, CmEventType type, long deadline, Duration timeout, InetSocketAddress peer) {
        id.awaitEvent(type, left(deadline, "connect", timeout, peer));
    }

    /** What is left of the deadline, at least 1 ms (librdmacm's timeouts are milliseconds); timeout when none. */
    static Duration left(long deadline, String what, Duration timeout, InetSocketAddress peer) {
        long nanos = Deadlines.remaining(deadline);
        if (nanos <= 0) {
            throw ConnectionException.timeout(what, timeout, "peer " + peer);
        }
        return Duration.ofNanos(Math.max(nanos, 1_000_000));
    }

    /** An rdma_cm failure as a connection failure (or timeout), naming the peer. */
    static ConnectionException failed(String what, CmException e, InetSocketAddress peer) {
        return new ConnectionException(e.isTimeout() ? ConnectionException.Reason.TIMEOUT
                : ConnectionException.Reason.CONNECT_FAILED, e.verb(), e.errno() != 0 ? e.errno()
                : ConnectionException.ECONNREFUSED, what + " " + peer + ": " + e.context(), null, e);
    }

    private static RuntimeException cleanUp(RuntimeException e, Parts parts, CmId id, EventChannel channel) {
        if (parts != null) {
            try {
                parts.close();
            } catch (RuntimeException c) {
                e.addSuppressed(c);
            }
            return e;
        }
        closeQuietly(id, e);
        closeQuietly(channel, e);
        return e;
    }
}
