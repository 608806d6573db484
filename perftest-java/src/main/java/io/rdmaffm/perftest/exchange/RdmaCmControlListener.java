package io.rdmaffm.perftest.exchange;

import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * The {@code -R}/{@code -z} server's listening rdma_cm id for the one perftest client; closing it frees the
 * port for the test QPs. A client that connects before {@link #accept} waits in the listen backlog.
 */
public final class RdmaCmControlListener implements ControlListener {
    private final int port;
    private final int retryCount;
    private final EventChannel events;
    private final CmId listenId;
    private boolean handedOver;

    RdmaCmControlListener(String address, int port, int retryCount) throws ExchangeException {
        this.port = port;
        this.retryCount = retryCount;
        this.events = EventChannel.create();
        CmId l = null;
        try {
            l = events.createId(PortSpace.TCP);
            l.bindAddress(new InetSocketAddress(address, port));
            l.listen(1);
        } catch (VerbsException e) {
            RdmaCmControlChannel.closeQuietly(l);
            RdmaCmControlChannel.closeQuietly(events);
            throw ExchangeException.beforeConnection("cannot listen for rdma_cm connections on port " + port + ": "
                    + e.getMessage(), e);
        }
        this.listenId = l;
    }

    /** Waits for the client's connect request and accepts it with a control QP. */
    @Override
    public RdmaCmControlChannel accept(Duration timeout) throws ExchangeException {
        CmEvent request;
        try {
            request = listenId.awaitConnectRequest(timeout);
        } catch (CmException e) {
            if (e.isTimeout()) {
                throw new ExchangeTimeoutException("no client connected (rdma_cm, port " + port + ") within "
                        + ExchangeTimeouts.describe(timeout), e, true);
            }
            throw ExchangeException.beforeConnection("rdma_cm connect request on port " + port + " failed: "
                    + e.getMessage(), e);
        }
        RdmaCmControlChannel ch = RdmaCmControlChannel.accept(request.id(), events, timeout, retryCount);
        handedOver = true;
        return ch;
    }

    /** Destroys the listening id; the event channel stays with the accepted connection, if any. */
    @Override
    public void close() {
        RdmaCmControlChannel.closeQuietly(listenId);
        if (!handedOver) {
            RdmaCmControlChannel.closeQuietly(events);
        }
    }
}
