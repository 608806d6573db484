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
        ServerSocket s = null;
        try {
            InetAddress addr = bindHost != null ? InetAddress.getByName(bindHost)
                    : InetAddress.getByName(ipv6 ? "::" : "0.0.0.0");
            s = new ServerSocket();
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(addr, port), 1);
            return new ExchangeListener(s);
        } catch (IOException e) {
            if (s != null) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // already failing
                }
            }
            throw ExchangeException.beforeConnection("cannot listen on port " + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Hands over a socket already listening on every IPv4 address, bound with a backlog of one as
     * {@link #listen} binds: the next listen on its port takes it instead of binding.
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
