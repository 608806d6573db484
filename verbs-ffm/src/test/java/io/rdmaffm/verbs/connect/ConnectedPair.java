package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.RdmaTestDevice;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Test support: a server on the test device's IPv4 address (port 0) and a client connected to it in the same
 * process, the accept running on another thread.
 */
final class ConnectedPair implements AutoCloseable {
    static final Duration T = Duration.ofSeconds(20);

    final RdmaServer server;
    final Connection client;
    final Connection served;

    ConnectedPair(ConnectionOptions serverOptions, ConnectionOptions clientOptions) throws Exception {
        this(ipv4(), serverOptions, clientOptions);
    }

    ConnectedPair(InetAddress ip, ConnectionOptions serverOptions, ConnectionOptions clientOptions) throws Exception {
        server = RdmaServer.listen(new InetSocketAddress(ip, 0), serverOptions);
        try {
            CompletableFuture<Connection> accepted = CompletableFuture.supplyAsync(() -> server.accept(T));
            client = Connection.connect(server.localAddress(), clientOptions, T);
            served = accepted.get(T.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception | Error e) {
            server.close();
            throw e;
        }
    }

    /** The IPv4 address of the test device: RDMA_IP, else the address in its IPv4-mapped GID. */
    static InetAddress ipv4() throws Exception {
        return RdmaTestDevice.ipv4Address();
    }

    @Override
    public void close() {
        try {
            client.close();
        } finally {
            try {
                served.close();
            } finally {
                server.close();
            }
        }
    }
}
