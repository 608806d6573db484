package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.exchange.ExchangeException;
import io.rdmaffm.perftest.exchange.RdmaCmControlChannel;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code -R}: the test QPs connected through rdma_cm, as perftest's {@code create_rdma_cm_connection} does. The
 * server listens before the barrier, so the client's connect requests find it whenever they come; the client
 * resolves and connects one id per QP (retrying every 100 ms while the server is not listening yet, as
 * perftest does); the server accepts as many connect requests. The ids and QPs go into the run's
 * {@link Resources}.
 */
final class RdmaCmConnector {
    /** Creates the QP of a resolved or requested id (and, for the first id, the resources on its context). */
    interface QueuePairFactory {
        QueuePair create(int index, CmId id);
    }

    private static final long RETRY_PAUSE_NANOS = 100_000_000L;
    private static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(2);

    private final RunParameters p;
    private final Resources res;
    private EventChannel events;
    private CmId listener;

    RdmaCmConnector(RunParameters p, Resources res) {
        this.p = p;
        this.res = res;
    }

    /** The event channel, and on the server the listening id on the perftest port. */
    void listen() {
        events = res.add(EventChannel.create());
        if (p.isClient()) {
            return;
        }
        listener = res.add(events.createId(PortSpace.TCP));
        try {
            // --source_ip: listen on that address only, as perftest's rdma_cm server does.
            listener.bindAddress(new InetSocketAddress(p.value(Flag.SOURCE_IP) instanceof String src ? src : "0.0.0.0",
                    p.endpoint().tcpPort()));
            // -T: connections accepted on this id take its type of service.
            setTypeOfService(listener);
            listener.listen(p.workload().numQps());
        } catch (VerbsException e) {
            throw new RunFailure("cannot listen for the test QPs' rdma_cm connections on port "
                    + p.endpoint().tcpPort() + ": " + e.getMessage());
        }
    }

    /**
     * What each test QP's connect or accept carries: {@code --retry_count} (default 7) as both its retry count and its
     * RNR retry count, as perftest's test-QP connections set both from it.
     */
    static ConnectionParameters parameters(RunParameters p, int readDepth) {
        int retries = (Integer) p.value(Flag.RETRY_COUNT);
        return new ConnectionParameters().retryCount(retries).rnrRetryCount(retries)
                .responderResources(readDepth).initiatorDepth(readDepth);
    }

    /**
     * Connects (client) or accepts (server) every QP; returns them in QP order. {@code readDepth} is the
     * responder resources and initiator depth: the outstanding reads for read and atomic, else 0.
     */
    QueuePair[] connect(int readDepth, QueuePairFactory factory) {
        int n = p.workload().numQps();
        QueuePair[] qps = new QueuePair[n];
        Duration limit = Duration.ofSeconds(Math.max(10, p.limits().timeoutSeconds()));
        ConnectionParameters params = parameters(p, readDepth);
        if (p.isClient()) {
            InetSocketAddress target = new InetSocketAddress(ipv4(p.endpoint().server()), p.endpoint().tcpPort());
            for (int i = 0; i < n; i++) {
                qps[i] = connectOne(i, target, params, System.nanoTime() + limit.toNanos(), limit, factory);
            }
            return qps;
        }
        for (int i = 0; i < n; i++) {
            CmEvent request;
            try {
                request = listener.awaitConnectRequest(limit);
            } catch (CmException e) {
                throw new RunFailure(e.isTimeout() ? "the client's rdma_cm connection for QP " + i
                        + " did not arrive within " + limit.toSeconds() + " s" : "rdma_cm: " + e.getMessage());
            }
            CmId id = res.add(request.id());
            qps[i] = res.add(factory.create(i, id));
            id.accept(params, limit);
            if (p.endpoint().connection() == Connection.RC) {
                // perftest's server sets MIN_RNR_TIMER after the accept (rdma_cm_connection_request_handler).
                qps[i].modify(new QueuePairAttributes().minRnrTimer(12));
            }
        }
        // The port is free again for a later server.
        listener.close();
        return qps;
    }

    private QueuePair connectOne(int i, InetSocketAddress target, ConnectionParameters params, long deadline,
            Duration limit, QueuePairFactory factory) {
        while (true) {
            CmId id = events.createId(PortSpace.TCP);
            try {
                id.resolveAddress(p.value(Flag.SOURCE_IP) instanceof String src ? new InetSocketAddress(ipv4(src), 0)
                        : null, target, RESOLVE_TIMEOUT);
                // -T between the two resolutions, as perftest does: the route then carries the class.
                setTypeOfService(id);
                id.resolveRoute(RESOLVE_TIMEOUT);
                QueuePair qp = factory.create(i, id);
                id.connect(params, Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime())));
                res.add(id);
                return res.add(qp);
            } catch (CmException e) {
                RdmaCmControlChannel.closeQuietly(id);
                if (!RdmaCmControlChannel.retryable(e) || System.nanoTime() + RETRY_PAUSE_NANOS - deadline >= 0) {
                    throw new RunFailure("rdma_cm connection of QP " + i + " to " + target.getAddress().getHostAddress()
                            + ":" + target.getPort() + " failed" + (e.isTimeout() ? " within " + limit.toSeconds() + " s"
                            : ": " + e.getMessage()));
                }
                LockSupport.parkNanos(RETRY_PAUSE_NANOS);
            } catch (RuntimeException e) {
                RdmaCmControlChannel.closeQuietly(id);
                throw e;
            }
        }
    }

    /** {@code -T}: the type of service of {@code id}, when given. */
    private void setTypeOfService(CmId id) {
        int tos = (Integer) p.value(Flag.TOS);
        if (tos >= 0) {
            id.setTypeOfService(tos);
        }
    }

    private static InetAddress ipv4(String host) {
        try {
            return RdmaCmControlChannel.ipv4(host);
        } catch (ExchangeException e) {
            throw new RunFailure(e.getMessage());
        }
    }
}
