package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;

/**
 * The server's listening socket: like perftest it accepts exactly one client and then stops listening, so one
 * server process serves one test.
 */
public final class ExchangeListener implements ControlListener {
    /** A socket bound before the command line was parsed (see cli.EarlyListen), until the run listens. */
    private static ServerSocket offered;

    private final ServerSocket server;

    private ExchangeListener(ServerSocket server) {
        this.server = server;
    }

    /**
     * Listens on {@code port} (0: any free port). {@code bindHost} null means all addresses: IPv4 only
     * ({@code 0.0.0.0}) like perftest 4.5, or {@code ::} (IPv4 and IPv6 where the OS allows) with
     * {@code ipv6}.
     */
    public static ExchangeListener listen(String bindHost, int port, boolean ipv6) throws ExchangeException {
        if (bindHost == null && !ipv6) {
            ServerSocket early = takeOffered(port);
            if (early != null) {
                return new ExchangeListener(early);
            }
        }
        try {
            InetAddress addr = bindHost != null ? InetAddress.getByName(bindHost)
                    : InetAddress.getByName(ipv6 ? "::" : "0.0.0.0");
            return new ExchangeListener(bindListening(addr, port));
        } catch (IOException e) {
            throw ExchangeException.beforeConnection("cannot listen on port " + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * A socket listening on {@code addr:port} for one client at a time, as perftest listens (backlog 1, address
     * reusable at once after the previous server); closed again if the bind fails.
     */
    public static ServerSocket bindListening(InetAddress addr, int port) throws IOException {
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(addr, port), 1);
            return s;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw e;
        }
    }

    /**
     * Hands over a socket from {@link #bindListening} on every IPv4 address: the next listen on its port takes it
     * instead of binding.
     */
    public static synchronized void offer(ServerSocket listening) {
        offered = listening;
    }

    private static synchronized ServerSocket takeOffered(int port) {
        ServerSocket s = offered;
        if (s == null || s.getLocalPort() != port || s.isClosed()) {
            return null;
        }
        offered = null;
        return s;
    }

    /** The port actually bound (useful after listening on port 0). */
    public int port() {
        return server.getLocalPort();
    }

    /**
     * Waits up to {@code timeout} for one client, then closes the listening socket.
     *
     * @throws ExchangeTimeoutException "no client connected to port P within 60 s"
     */
    public TcpExchangeChannel accept(Duration timeout) throws ExchangeException {
        try {
            server.setSoTimeout((int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis())));
            Socket s = server.accept();
            String peer = TcpExchangeChannel.hostPort(s.getInetAddress().getHostAddress(), s.getPort());
            return new TcpExchangeChannel(s, Role.SERVER, peer);
        } catch (SocketTimeoutException e) {
            throw new ExchangeTimeoutException("no client connected to port " + port() + " within "
                    + ExchangeTimeouts.describe(timeout), e, true);
        } catch (IOException e) {
            throw ExchangeException.beforeConnection("accepting a client on port " + port() + " failed: "
                    + e.getMessage(), e);
        } finally {
            close();
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing a listening socket has no consequence we could act on
        }
    }
}
