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
        return listen(rdmaCm, null, port, retryCount);
    }

    /** As above, listening on {@code sourceIp} only ({@code --source_ip}; null: every address). */
    static ControlListener listen(boolean rdmaCm, String sourceIp, int port, int retryCount) throws ExchangeException {
        return rdmaCm ? RdmaCmControlChannel.listen(sourceIp, port, retryCount)
                : ExchangeListener.listen(sourceIp, port, false);
    }

    /**
     * Client: connects to the server at {@code host:port} within {@code connect}; a server that listens but has
     * not accepted yet (still in its warm-up) may take {@code warmupAllowance} longer over rdma_cm (over TCP the
     * connection completes in its backlog).
     */
    static ExchangeChannel connect(boolean rdmaCm, String host, int port, Duration connect, Duration warmupAllowance,
            int retryCount) throws ExchangeException {
        return connect(rdmaCm, null, host, port, connect, warmupAllowance, retryCount);
    }

    /** As above, from {@code sourceIp} ({@code --source_ip}; null: the routing table's choice). */
    static ExchangeChannel connect(boolean rdmaCm, String sourceIp, String host, int port, Duration connect,
            Duration warmupAllowance, int retryCount) throws ExchangeException {
        return rdmaCm ? RdmaCmControlChannel.connect(sourceIp, host, port, connect, warmupAllowance, retryCount)
                : TcpExchangeChannel.connect(sourceIp, host, port, connect, false);
    }
}
