package io.rdmaffm.perftest.exchange;

import java.time.Duration;

/**
 * A server's listening end of the control connection: TCP ({@link ExchangeListener}) or rdma_cm
 * ({@link RdmaCmControlListener}). A server listens first of all, so a client that connects while the server
 * still prepares waits in the backlog; {@link #accept} takes it later.
 */
public interface ControlListener extends AutoCloseable {
    /** Waits up to {@code timeout} for the one client and returns its channel. */
    ExchangeChannel accept(Duration timeout) throws ExchangeException;

    /** Stops listening; never fails, may be called again. */
    @Override
    void close();

    /**
     * Listens on {@code port} on every IPv4 address, over rdma_cm ({@code -R}, {@code -z}; its QP with
     * {@code retryCount}) or TCP.
     */
    static ControlListener listen(boolean rdmaCm, int port, int retryCount) throws ExchangeException {
        return rdmaCm ? RdmaCmControlChannel.listen(port, retryCount) : ExchangeListener.listen(null, port, false);
    }

    /**
     * Client: connects to the server at {@code host:port} within {@code connect}; a server that listens but has
     * not accepted yet (still in its warm-up) may take {@code warmupAllowance} longer over rdma_cm (over TCP the
     * connection completes in its backlog).
     */
    static ExchangeChannel connect(boolean rdmaCm, String host, int port, Duration connect, Duration warmupAllowance,
            int retryCount) throws ExchangeException {
        return rdmaCm ? RdmaCmControlChannel.connect(host, port, connect, warmupAllowance, retryCount)
                : TcpExchangeChannel.connect(host, port, connect, false);
    }
}
