package io.rdmaffm.perftest.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP relay between a perftest client and its server that rewrites the rkey and address in the server's key
 * messages ("llll:oooo:qqqqqq:pppppp:rrrrrrrr:vvvvvvvvvvvvvvvv:..."): the client then targets memory the server
 * never registered for it, as a hostile or broken peer would make it. Everything else passes unchanged. The
 * exchange is lock-step (each side waits for the other's message), so a key message arrives whole in one read;
 * a read that ends inside one is held until the rest comes.
 */
final class KeyRewritingRelay implements AutoCloseable {
    private static final Pattern KEY = Pattern.compile(
            "[0-9a-f]{4}:[0-9a-f]{4}:[0-9a-f]{6}:[0-9a-f]{6}:([0-9a-f]{8}):([0-9a-f]{16}):");
    private static final Pattern KEY_PREFIX = Pattern.compile("[0-9a-f:]{1,50}$");

    private final ServerSocket listener;
    private final AtomicInteger rewritten = new AtomicInteger();

    /** Listens on an ephemeral port of {@code host}, relaying one connection to {@code server}. */
    KeyRewritingRelay(String host, int serverPort, UnaryOperator<long[]> rewrite) throws IOException {
        listener = new ServerSocket(0, 1, InetAddress.getByName(host));
        Thread t = new Thread(() -> {
            try (Socket client = listener.accept();
                 Socket server = new Socket()) {
                server.connect(new InetSocketAddress(host, serverPort), 10_000);
                Thread up = pump(client.getInputStream(), server.getOutputStream(), null);
                pump(server.getInputStream(), client.getOutputStream(), rewrite).join();
                up.join(10_000);
            } catch (IOException | InterruptedException e) {
                // either side closed: the relay ends with the run
            }
        }, "key-relay");
        t.setDaemon(true);
        t.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /** How many key messages were rewritten. */
    int rewritten() {
        return rewritten.get();
    }

    private Thread pump(InputStream in, OutputStream out, UnaryOperator<long[]> rewrite) {
        Thread t = new Thread(() -> {
            byte[] buf = new byte[4096];
            StringBuilder held = new StringBuilder();
            try {
                for (int n; (n = in.read(buf)) > 0; ) {
                    if (rewrite == null) {
                        out.write(buf, 0, n);
                        continue;
                    }
                    // ISO-8859-1: one char per byte, so binary messages pass through unchanged
                    held.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
                    String s = rewriteKeys(held.toString(), rewrite);
                    Matcher tail = KEY_PREFIX.matcher(s);
                    int keep = tail.find() && !s.endsWith("\0") ? s.length() - tail.start() : 0;
                    out.write(s.substring(0, s.length() - keep).getBytes(StandardCharsets.ISO_8859_1));
                    held.setLength(0);
                    held.append(s, s.length() - keep, s.length());
                }
            } catch (IOException e) {
                // closed
            } finally {
                try {
                    out.close();
                } catch (IOException e) {
                    // already closed
                }
            }
        }, "key-relay-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private String rewriteKeys(String s, UnaryOperator<long[]> rewrite) {
        Matcher m = KEY.matcher(s);
        StringBuilder out = new StringBuilder(s.length());
        int last = 0;
        while (m.find()) {
            long[] keyAndAddress = rewrite.apply(new long[] {Long.parseLong(m.group(1), 16),
                    Long.parseUnsignedLong(m.group(2), 16)});
            out.append(s, last, m.start(1))
                    .append(String.format(Locale.ROOT, "%08x", keyAndAddress[0] & 0xffffffffL)).append(':')
                    .append(String.format(Locale.ROOT, "%016x", keyAndAddress[1])).append(':');
            last = m.end();
            rewritten.incrementAndGet();
        }
        return out.append(s, last, s.length()).toString();
    }

    @Override
    public void close() throws IOException {
        listener.close();
    }
}
