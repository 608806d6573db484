package io.rdmaffm.perftest.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The rendezvous of a fabric run (docs/fabric-design.md §4), run by rank 0 beside its own worker: every rank (rank
 * 0 too) connects and says HELLO; when all have, everyone gets the rank table; QP records are forwarded to their
 * peer only; barriers are counted and passed; when a rank reports an error or its connection closes before it said
 * BYE, every rank gets ABORT naming it. Every wait has a deadline: the join timeout for the hellos, the step timeout
 * for the last rank of a barrier once the first has arrived.
 *
 * <p>Wire (one line each): rank to coordinator {@code HELLO rank host}, {@code QP to rest...},
 * {@code BARRIER name}, {@code ERROR text}, {@code BYE}; coordinator to rank {@code TABLE n host0 ... hostN-1},
 * {@code QP from rest...}, {@code PASS name}, {@code ABORT text}.
 */
public final class Coordinator {
    private final ServerSocket server;
    private final int ranks;
    private final long joinNanos;
    private final long stepNanos;
    private final PrintStream log;
    private final LinkedBlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Conn[] byRank;
    private final List<Conn> all = new ArrayList<>();

    private record Event(Conn conn, String line) {
    }

    private static final class Conn {
        final Socket socket;
        final OutputStream out;
        int rank = -1;
        String host = "?";
        boolean bye;
        boolean closed;

        Conn(Socket socket) throws IOException {
            this.socket = socket;
            this.out = socket.getOutputStream();
        }

        synchronized void send(String line) {
            try {
                Lines.write(out, line);
            } catch (IOException e) {
                // the rank is gone: its reader reports the close
            }
        }

        String name() {
            return "rank " + rank + " (" + host + ")";
        }
    }

    /**
     * @param server      bound, listening
     * @param ranks       N
     * @param joinSeconds how long all N may take to say HELLO
     * @param stepSeconds how long the last rank of a barrier may lag the first
     * @param log         progress and the abort reason
     */
    public Coordinator(ServerSocket server, int ranks, int joinSeconds, int stepSeconds, PrintStream log) {
        this.server = server;
        this.ranks = ranks;
        this.joinNanos = TimeUnit.SECONDS.toNanos(joinSeconds);
        this.stepNanos = TimeUnit.SECONDS.toNanos(stepSeconds);
        this.log = log;
        this.byRank = new Conn[ranks];
    }

    /**
     * Runs the rendezvous until every rank said BYE, or until an abort has been sent.
     *
     * @return null when all ranks finished, else the abort's text
     */
    public String run() throws InterruptedException {
        Thread acceptor = Thread.ofVirtual().name("fabric-accept").start(this::accept);
        try {
            String abort = join();
            if (abort == null) {
                abort = serve();
            }
            if (abort != null) {
                broadcastAbort(abort);
            }
            return abort;
        } finally {
            try {
                server.close();
            } catch (IOException e) {
                // closing: nothing to do
            }
            acceptor.join(1000);
            synchronized (all) {
                for (Conn c : all) {
                    close(c);
                }
            }
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            Socket s;
            try {
                s = server.accept();
                s.setTcpNoDelay(true);
            } catch (IOException e) {
                return;
            }
            Conn c;
            try {
                c = new Conn(s);
            } catch (IOException e) {
                close(s);
                continue;
            }
            synchronized (all) {
                all.add(c);
            }
            Thread.ofVirtual().name("fabric-coord-read").start(() -> read(c));
        }
    }

    private void read(Conn c) {
        try (InputStream in = c.socket.getInputStream()) {
            for (String l; (l = Lines.read(in)) != null; ) {
                events.add(new Event(c, l));
            }
        } catch (IOException e) {
            // a reset connection ends like a closed one
        }
        events.add(new Event(c, null));
    }

    private String join() throws InterruptedException {
        long deadline = System.nanoTime() + joinNanos;
        int joined = 0;
        while (joined < ranks) {
            Event e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                List<Integer> missing = new ArrayList<>();
                for (int r = 0; r < ranks; r++) {
                    if (byRank[r] == null) {
                        missing.add(r);
                    }
                }
                return "rank" + (missing.size() == 1 ? " " : "s ") + join(missing) + " never joined within "
                        + TimeUnit.NANOSECONDS.toSeconds(joinNanos) + " s";
            }
            Conn c = e.conn();
            if (c.rank < 0) {
                if (e.line() == null) {
                    c.closed = true;
                    continue; // a connection that said nothing: not a rank
                }
                String[] f = e.line().split(" ", 3);
                int r;
                try {
                    r = f[0].equals("HELLO") && f.length == 3 ? Integer.parseInt(f[1]) : -1;
                } catch (NumberFormatException x) {
                    r = -1;
                }
                if (r < 0 || r >= ranks) {
                    c.send("ABORT not a hello for ranks 0.." + (ranks - 1) + ": " + e.line());
                    close(c);
                    continue;
                }
                if (byRank[r] != null) {
                    return "rank " + r + " joined twice (from " + byRank[r].host + " and " + Lines.token(f[2]) + ")";
                }
                c.rank = r;
                c.host = Lines.token(f[2]);
                byRank[r] = c;
                joined++;
                continue;
            }
            String bad = runEvent(c, e.line(), null);
            if (bad != null) {
                return bad;
            }
        }
        StringBuilder table = new StringBuilder("TABLE ").append(ranks);
        for (Conn c : byRank) {
            table.append(' ').append(c.host);
        }
        for (Conn c : byRank) {
            c.send(table.toString());
        }
        log.println("fabric coordinator: all " + ranks + " ranks joined");
        return null;
    }

    private String serve() throws InterruptedException {
        Map<String, TreeSet<Integer>> barriers = new HashMap<>();
        Map<String, Long> firstArrival = new HashMap<>();
        int byes = 0;
        while (byes < ranks) {
            long wait = TimeUnit.SECONDS.toNanos(1);
            for (Map.Entry<String, Long> b : firstArrival.entrySet()) {
                long left = b.getValue() + stepNanos - System.nanoTime();
                if (left <= 0) {
                    List<Integer> missing = new ArrayList<>();
                    for (int r = 0; r < ranks; r++) {
                        if (!barriers.get(b.getKey()).contains(r)) {
                            missing.add(r);
                        }
                    }
                    return "rank" + (missing.size() == 1 ? " " : "s ") + join(missing) + " ("
                            + hosts(missing) + ") did not reach " + b.getKey() + " within "
                            + TimeUnit.NANOSECONDS.toSeconds(stepNanos) + " s of the first rank";
                }
                wait = Math.min(wait, left);
            }
            Event e = events.poll(wait, TimeUnit.NANOSECONDS);
            if (e == null) {
                continue;
            }
            Conn c = e.conn();
            if (c.rank < 0) {
                close(c); // late or stray connection: the table is out already
                continue;
            }
            if ("BYE".equals(e.line())) {
                if (!c.bye) {
                    c.bye = true;
                    byes++;
                }
                continue;
            }
            String bad = runEvent(c, e.line(), barriers);
            if (bad != null) {
                return bad;
            }
            if (e.line() != null && e.line().startsWith("BARRIER ")) { // null: a rank that said BYE has closed
                String name = e.line().substring(8);
                firstArrival.putIfAbsent(name, System.nanoTime());
                if (barriers.get(name).size() == ranks) {
                    for (Conn r : byRank) {
                        r.send("PASS " + name);
                    }
                    barriers.remove(name);
                    firstArrival.remove(name);
                }
            }
        }
        log.println("fabric coordinator: all " + ranks + " ranks done");
        return null;
    }

    /** A message from a joined rank; the abort's text when it calls for one. */
    private String runEvent(Conn c, String line, Map<String, TreeSet<Integer>> barriers) {
        if (line == null) {
            c.closed = true;
            return c.bye ? null : c.name() + " closed its connection to the coordinator (process ended?)";
        }
        if (line.startsWith("ERROR ")) {
            return c.name() + ": " + line.substring(6);
        }
        if (line.startsWith("QP ")) {
            String[] f = line.split(" ", 3);
            int to;
            try {
                to = f.length == 3 ? Integer.parseInt(f[1]) : -1;
            } catch (NumberFormatException x) {
                to = -1;
            }
            if (to < 0 || to >= ranks || byRank[to] == null) {
                return c.name() + " sent a QP record for no joined rank: " + line;
            }
            byRank[to].send("QP " + c.rank + " " + f[2]);
            return null;
        }
        if (line.startsWith("BARRIER ") && barriers != null) {
            barriers.computeIfAbsent(line.substring(8), k -> new TreeSet<>()).add(c.rank);
            return null;
        }
        return c.name() + " sent what the coordinator does not know: " + line;
    }

    private void broadcastAbort(String text) throws InterruptedException {
        log.println("fabric coordinator: abort: " + text);
        List<Conn> open;
        synchronized (all) {
            open = new ArrayList<>(all);
        }
        for (Conn c : open) {
            if (c.rank >= 0 && !c.closed) {
                c.send("ABORT " + text);
                try {
                    c.socket.shutdownOutput();
                } catch (IOException e) {
                    // gone already
                }
            }
        }
        // Let the ranks read the line before the sockets close (a close with unread input would reset them).
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (open.stream().anyMatch(c -> c.rank >= 0 && !c.closed)) {
            Event e = events.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (e == null) {
                break;
            }
            if (e.line() == null) {
                e.conn().closed = true;
            }
        }
    }

    private String hosts(List<Integer> rs) {
        List<String> h = new ArrayList<>();
        for (int r : rs) {
            h.add(byRank[r] == null ? "?" : byRank[r].host);
        }
        return String.join(", ", h);
    }

    private static String join(List<Integer> rs) {
        return String.join(", ", rs.stream().map(String::valueOf).toList());
    }

    private static void close(Conn c) {
        close(c.socket);
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            // closing
        }
    }
}
