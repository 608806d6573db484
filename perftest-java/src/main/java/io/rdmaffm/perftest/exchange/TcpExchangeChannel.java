package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * perftest's out-of-band TCP connection, with a time limit on every blocking step. Each message goes out with a
 * single write (C peers read each message with one {@code read()} and fail on a short one); incoming messages
 * are read fully, however the bytes are split.
 */
public final class TcpExchangeChannel implements ExchangeChannel {
    private final Socket socket;
    private final Role role;
    private final String peer;
    private final InputStream in;
    private final OutputStream out;
    /** {@link #watchPeerEnd}: set by the watching thread once the peer's side ends. */
    private volatile boolean peerEnded;

    TcpExchangeChannel(Socket socket, Role role, String peer) throws IOException {
        this.socket = socket;
        this.role = role;
        this.peer = peer;
        this.in = socket.getInputStream();
        this.out = socket.getOutputStream();
    }

    /**
     * Client: connects to {@code host:port}. IPv4 addresses are tried first, as C perftest 4.5 only speaks IPv4;
     * with {@code preferIpv6} IPv6 addresses go first. All attempts together stay within {@code timeout}.
     *
     * @throws ExchangeException "connection refused by host:port", "unknown host: …",
     *                           "could not connect to host:port within 10 s", …
     */
    public static TcpExchangeChannel connect(String host, int port, Duration timeout, boolean preferIpv6)
            throws ExchangeException {
        return connect(null, host, port, timeout, preferIpv6);
    }

    /**
     * As above, the socket bound to {@code sourceIp} first ({@code --source_ip}, as perftest binds it; null: the
     * routing table's choice).
     *
     * @throws ExchangeException also "cannot bind to --source_ip …" when the address is not this host's
     */
    public static TcpExchangeChannel connect(String sourceIp, String host, int port, Duration timeout,
            boolean preferIpv6) throws ExchangeException {
        String target = hostPort(host, port);
        InetAddress[] all;
        try {
            all = InetAddress.getAllByName(host);
        } catch (UnknownHostException e) {
            throw ExchangeException.beforeConnection("unknown host: " + host, e);
        }
        List<InetAddress> ordered = new ArrayList<>();
        for (InetAddress a : all) {
            if (preferIpv6 == (a instanceof Inet6Address)) {
                ordered.add(a);
            }
        }
        for (InetAddress a : all) {
            if (!ordered.contains(a)) {
                ordered.add(a);
            }
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        IOException last = null;
        for (InetAddress a : ordered) {
            long leftMs = (deadline - System.nanoTime()) / 1_000_000;
            if (leftMs <= 0) {
                break;
            }
            Socket s = new Socket();
            try {
                if (sourceIp != null) {
                    bind(s, sourceIp);
                }
                s.connect(new InetSocketAddress(a, port), (int) Math.min(Integer.MAX_VALUE, leftMs));
                return new TcpExchangeChannel(s, Role.CLIENT, target);
            } catch (IOException e) {
                closeQuietly(s);
                last = e;
            }
        }
        if (last instanceof SocketTimeoutException || last == null) {
            throw new ExchangeTimeoutException("could not connect to " + target + " within "
                    + ExchangeTimeouts.describe(timeout), last, true);
        }
        if (last instanceof ConnectException && String.valueOf(last.getMessage()).contains("refused")) {
            throw ExchangeException.beforeConnection("connection refused by " + target, last);
        }
        if (last instanceof NoRouteToHostException) {
            throw ExchangeException.beforeConnection("no route to " + target, last);
        }
        throw ExchangeException.beforeConnection("could not connect to " + target + ": " + last.getMessage(), last);
    }

    @Override
    public Role role() {
        return role;
    }

    /** "host:port" of the peer, for messages. */
    public String peer() {
        return peer;
    }

    @Override
    public byte[] exchange(byte[] mine, int peerLength, String phase, Duration timeout) throws ExchangeException {
        if (role == Role.CLIENT) {
            send(mine, phase);
            return receive(peerLength, phase, timeout);
        }
        byte[] theirs = receive(peerLength, phase, timeout);
        send(mine, phase);
        return theirs;
    }

    @Override
    public void sendAndForget(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException ignored) {
            // The peer may have closed already (perftest removed this write in 23.10 for that reason).
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    /**
     * A virtual thread parks in one read with no time limit: it returns when the peer closes (or sends); a dead
     * host that never closes is caught by the loop's own stall limit, and closing this channel ends the read.
     */
    @Override
    public void watchPeerEnd() {
        Thread.ofVirtual().name("exchange-end-watch").start(() -> {
            try {
                socket.setSoTimeout(0);
                in.read();
            } catch (IOException e) {
                // reset by the peer, or closed here: either way the peer's side is over
            }
            peerEnded = true;
        });
    }

    @Override
    public boolean peerEnded() {
        return peerEnded;
    }

    @Override
    public void endOurSide() {
        try {
            socket.shutdownOutput();
        } catch (IOException e) {
            // the connection is gone already: the peer sees the end all the same
        }
    }

    private void send(byte[] bytes, String phase) throws ExchangeException {
        try {
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            throw new ExchangeException("connection to " + peer + " lost during the " + phase + ": "
                    + e.getMessage(), e);
        }
    }

    private byte[] receive(int length, String phase, Duration timeout) throws ExchangeException {
        byte[] buf = new byte[length];
        long deadline = System.nanoTime() + timeout.toNanos();
        int got = 0;
        while (got < length) {
            long leftMs = Math.max(1, (deadline - System.nanoTime() + 999_999) / 1_000_000);
            if (System.nanoTime() - deadline >= 0) {
                throw timeout(phase, timeout, got, length, null);
            }
            int n;
            try {
                socket.setSoTimeout((int) Math.min(Integer.MAX_VALUE, leftMs));
                n = in.read(buf, got, length - got);
            } catch (SocketTimeoutException e) {
                throw timeout(phase, timeout, got, length, e);
            } catch (IOException e) {
                throw new ExchangeException("connection to " + peer + " lost during the " + phase + ": "
                        + e.getMessage(), e);
            }
            if (n < 0) {
                throw new ExchangeException("peer closed the connection during the " + phase
                        + (got > 0 ? " (after " + got + " of " + length + " bytes)" : ""));
            }
            got += n;
        }
        return buf;
    }

    private static ExchangeTimeoutException timeout(String phase, Duration limit, int got, int length,
            Throwable cause) {
        return new ExchangeTimeoutException("peer did not answer the " + phase + " within "
                + ExchangeTimeouts.describe(limit) + (got > 0 ? " (got " + got + " of " + length + " bytes)" : ""),
                cause);
    }

    /**
     * Runs {@code messages} exchanges of {@code size} bytes over a loopback connection with itself, through this
     * class's own send and receive: the JDK's socket path (its temporary direct buffers, the timeout setting)
     * then compiles in the warm-up, not on the barrier's handshake just before a measured loop, where a method
     * pushed past its threshold compiled while the loop ran (seen: {@code Buffer.rewind}, {@code Util.*}).
     *
     * @return the exchanges the answering side completed
     */
    public static int exerciseLoopback(int messages, int size) throws IOException, InterruptedException {
        if (messages < 0 || size <= 0) {
            throw new IllegalArgumentException("messages " + messages + ", size " + size);
        }
        Duration limit = Duration.ofSeconds(30);
        int[] answered = new int[1];
        try (ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             Socket c = new Socket()) {
            c.connect(listener.getLocalSocketAddress(), (int) limit.toMillis());
            try (Socket s = listener.accept()) {
                TcpExchangeChannel client = new TcpExchangeChannel(c, Role.CLIENT, "loopback");
                TcpExchangeChannel server = new TcpExchangeChannel(s, Role.SERVER, "loopback");
                byte[] message = new byte[size];
                Thread answering = Thread.ofPlatform().name("exchange warm-up").start(() -> {
                    try {
                        for (int i = 0; i < messages; i++) {
                            server.exchange(message, size, "warm-up", limit);
                            answered[0]++;
                        }
                    } catch (ExchangeException e) {
                        // the client side's own exchange then fails and says why
                    }
                });
                try {
                    for (int i = 0; i < messages; i++) {
                        client.exchange(message, size, "warm-up", limit);
                    }
                } catch (ExchangeException e) {
                    throw new IOException(e.getMessage(), e);
                } finally {
                    s.close(); // a client side that failed leaves the answering side no read to wait out
                    answering.join();
                }
                return answered[0];
            }
        }
    }

    static String hostPort(String host, int port) {
        return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    private static void bind(Socket s, String sourceIp) throws ExchangeException {
        try {
            s.bind(new InetSocketAddress(InetAddress.getByName(sourceIp), 0));
        } catch (IOException e) {
            closeQuietly(s);
            // perftest: "Failed to bind socket"
            throw ExchangeException.beforeConnection("Failed to bind socket to --source_ip " + sourceIp + ": "
                    + e.getMessage(), e);
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing useful to do at close
        }
    }
}
