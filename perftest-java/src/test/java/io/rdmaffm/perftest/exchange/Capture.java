package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A captured C perftest run from src/test/resources/captures: the exchange transcript of each side and what
 * each side printed.
 */
public final class Capture {
    /** One read or write on the exchange socket. */
    public record Io(boolean send, byte[] bytes) {
    }

    private static final Pattern LINE = Pattern.compile("^(SEND|RECV) \\(asked (\\d+), got (\\d+)\\)\\s+(\\d+) B\\s+hex ([0-9a-f]*)$");

    public final String name;
    public final List<Io> client = new ArrayList<>();
    public final List<Io> server = new ArrayList<>();

    private Capture(String name) {
        this.name = name;
    }

    /** Loads NAME.exchange.txt. */
    public static Capture load(String name) {
        Capture c = new Capture(name);
        List<Io> current = null;
        for (String line : resource(name + ".exchange.txt").split("\n")) {
            if (line.startsWith("#")) {
                current = line.contains("CLIENT") ? c.client : c.server;
                continue;
            }
            Matcher m = LINE.matcher(line.strip());
            if (m.matches()) {
                byte[] b = HexFormat.of().parseHex(m.group(5));
                if (b.length != Integer.parseInt(m.group(4))) {
                    throw new IllegalStateException("bad capture line: " + line);
                }
                current.add(new Io(m.group(1).equals("SEND"), b));
            }
        }
        return c;
    }

    /** The transcript of one side. */
    public List<Io> view(Role role) {
        return role == Role.CLIENT ? client : server;
    }

    /** Text of a capture resource (e.g. "write_bw.client.out"). */
    public static String resource(String file) {
        try (InputStream in = Capture.class.getResourceAsStream("/captures/" + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no capture " + file);
            }
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first {@code n} key messages this side sent: its destinations, QP order. */
    public static PingPongDest[] sentKeys(List<Io> view, int n) throws ExchangeException {
        List<PingPongDest> out = new ArrayList<>();
        for (Io io : view) {
            if (io.send() && io.bytes().length == KeyMessage.SIZE_GID && out.size() < n) {
                out.add(KeyMessage.decode(io.bytes(), true));
            }
        }
        return out.toArray(new PingPongDest[0]);
    }

    /** The first {@code n} key messages this side received. */
    public static PingPongDest[] receivedKeys(List<Io> view, int n) throws ExchangeException {
        List<PingPongDest> out = new ArrayList<>();
        for (Io io : view) {
            if (!io.send() && io.bytes().length == KeyMessage.SIZE_GID && out.size() < n) {
                out.add(KeyMessage.decode(io.bytes(), true));
            }
        }
        return out.toArray(new PingPongDest[0]);
    }

    /** The 8-byte messages this side sent, in order (the BW report fields). */
    public static byte[][] sentReportFields(List<Io> view) {
        return view.stream().filter(io -> io.send() && io.bytes().length == 8).map(Io::bytes).toArray(byte[][]::new);
    }
}
