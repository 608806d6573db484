package io.rdmaffm.perftest.cluster;

import io.rdmaffm.perftest.json.JsonReader;
import io.rdmaffm.perftest.json.JsonWriter;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The line protocol between the matrix driver and a {@code rdma-perftest matrix-worker} on a host, over the
 * launcher's session (ssh's or srun's stdin and stdout). docs/matrix.md ("One JVM per host") describes it for
 * people; this class is its one definition.
 *
 * <p>Orders, driver to worker, one ASCII line each:
 * <pre>
 * run ID json|plain ARG...    run the tool ARG... (ARG 0 is the tool, e.g. ib_write_bw); json: a client whose
 *                             --out_json document comes back with the result
 * quit                        no more orders: end once the running order (if any) is done
 * </pre>
 * Each ARG is percent-encoded: every UTF-8 byte outside {@code [A-Za-z0-9._,:/=+@-]} as {@code %XX}, so an
 * argument holds no space or line break; arguments are separated by exactly one space (an empty argument is an
 * empty field). The end of the worker's input means what {@code quit} means, except that a running order is
 * abandoned: the driver is gone.
 *
 * <p>Events, worker to driver, one JSON object per line (strings escaped by {@link JsonWriter}: whatever bytes a
 * tool prints arrive as one printable line):
 * <pre>
 * {"event":"ready","pid":N}                       the worker is up (pid: for the launcher's kill command)
 * {"event":"line","id":ID,"text":"..."}           one line the running tool printed (stdout and stderr)
 * {"event":"done","id":ID,"rc":N,"json":"..."}    the tool ended with status N; json only for a json order
 *                                                 whose document was written
 * </pre>
 * Any other line on the worker's stdout (a JVM warning) is ignored by the driver.
 */
public final class WorkerProtocol {
    /** The hidden subcommand that serves orders. */
    public static final String COMMAND = "matrix-worker";

    private WorkerProtocol() {
    }

    /** A parsed order. */
    public record Order(long id, boolean json, List<String> argv) {
    }

    /** A parsed event; fields unused by its kind are -1 or null. */
    public record Event(String kind, long id, long pid, int rc, String text, String json) {
    }

    /** The {@code run} order. */
    public static String run(long id, boolean json, List<String> argv) {
        StringBuilder b = new StringBuilder("run ").append(id).append(json ? " json" : " plain");
        for (String a : argv) {
            b.append(' ').append(encode(a));
        }
        return b.toString();
    }

    /** The {@code quit} order. */
    public static String quit() {
        return "quit";
    }

    /**
     * Parses an order line.
     *
     * @return the order, or null for {@code quit}
     * @throws IllegalArgumentException for anything else
     */
    public static Order order(String line) {
        if (line.equals("quit")) {
            return null;
        }
        String[] f = line.split(" ", -1);
        if (f.length < 4 || !f[0].equals("run") || !(f[2].equals("json") || f[2].equals("plain"))
                || !f[1].matches("[0-9]{1,18}")) {
            throw new IllegalArgumentException("not an order: " + Names.printable(line, 80));
        }
        List<String> argv = new ArrayList<>();
        for (int i = 3; i < f.length; i++) {
            argv.add(decode(f[i]));
        }
        return new Order(Long.parseLong(f[1]), f[2].equals("json"), List.copyOf(argv));
    }

    /** The {@code ready} event. */
    public static String ready(long pid) {
        return JsonWriter.compact().beginObject().name("event").value("ready").name("pid").value(pid).endObject()
                .toString();
    }

    /** A {@code line} event. */
    public static String line(long id, String text) {
        return JsonWriter.compact().beginObject().name("event").value("line").name("id").value(id).name("text")
                .value(text).endObject().toString();
    }

    /** The {@code done} event; {@code json} null when there is no document. */
    public static String done(long id, int rc, String json) {
        JsonWriter w = JsonWriter.compact().beginObject().name("event").value("done").name("id").value(id)
                .name("rc").value(rc);
        if (json != null) {
            w.name("json").value(json);
        }
        return w.endObject().toString();
    }

    /** Parses an event line, or returns null when the line is not one (noise on the worker's stdout). */
    public static Event event(String line) {
        if (!line.startsWith("{\"event\":")) {
            return null;
        }
        Object o;
        try {
            o = JsonReader.parse(line);
        } catch (IllegalArgumentException e) {
            return null;
        }
        if (!(o instanceof Map<?, ?> m) || !(m.get("event") instanceof String kind)) {
            return null;
        }
        return new Event(kind, number(m.get("id")), number(m.get("pid")), (int) number(m.get("rc")),
                m.get("text") instanceof String t ? t : null, m.get("json") instanceof String j ? j : null);
    }

    private static long number(Object o) {
        return o instanceof Number n ? n.longValue() : -1;
    }

    private static boolean plain(int b) {
        return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || ".-_,:/=+@".indexOf(b) >= 0;
    }

    static String encode(String s) {
        StringBuilder b = new StringBuilder();
        for (byte x : s.getBytes(StandardCharsets.UTF_8)) {
            int c = x & 0xff;
            if (plain(c)) {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return b.toString();
    }

    static String decode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%') {
                int hi = i + 2 < s.length() ? Character.digit(s.charAt(i + 1), 16) : -1;
                int lo = i + 2 < s.length() ? Character.digit(s.charAt(i + 2), 16) : -1;
                if (hi < 0 || lo < 0) {
                    throw new IllegalArgumentException("bad escape in argument: " + Names.printable(s, 80));
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else if (c < 0x80 && plain(c)) {
                out.write(c);
            } else {
                throw new IllegalArgumentException("unescaped character in argument: " + Names.printable(s, 80));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
