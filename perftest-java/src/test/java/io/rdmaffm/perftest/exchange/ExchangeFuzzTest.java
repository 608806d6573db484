package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.engine.RunFailure;
import io.rdmaffm.perftest.faults.FaultRecords;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The TCP exchange of a Java server against a seeded fuzzer ({@link HostileClient}): at least 10,000 hostile
 * sessions (every tool and flag combination's message sequence, every message type, version strings around
 * 5.70), each on a real loopback connection to the server side that perftest-java runs: {@link ScriptRunner}
 * over {@link PerftestExchange} over {@link TcpExchangeChannel}, with a participant that validates, prints
 * and writes JSON as the tools do (no device: the data path is not what is fuzzed here; DeadPeerRdmaTest and
 * HostileServerRdmaTest run the real tools). Every session must end, within its limits, either as a run that
 * completed (the mutation was harmless) or with an {@link ExchangeException} or {@link RunFailure} whose
 * message is one printable line; nothing else (no other exception, no hang, no allocation sized by the peer,
 * no file descriptor left open), and every unmutated session must complete.
 *
 * <p>{@code -Dfuzz.seed=N} and {@code -Dfuzz.cases=N} change the seed (default 14) and the count (default
 * 10,000); {@code -Dfuzz.case=I} runs only session I (to replay a failure).
 */
class ExchangeFuzzTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final ExchangeTimeouts PATIENT = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
            Duration.ofSeconds(3), Duration.ofSeconds(3));
    /** For sessions whose client goes silent: each costs this time-out. */
    private static final ExchangeTimeouts QUICK = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
            Duration.ofMillis(60), Duration.ofMillis(60));
    /** Every 50th session goes through ExchangeListener's own listen and accept. */
    private static final int OWN_LISTENER_EVERY = 50;
    private static final long ALLOCATION_LIMIT = 16L << 20;

    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzzed-server");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void tenThousandHostileSessionsEachEndCleanly() throws Exception {
        long seed = Long.getLong("fuzz.seed", 14);
        int cases = Integer.getInteger("fuzz.cases", 10_000);
        Integer only = Integer.getInteger("fuzz.case");
        FaultRecords records = FaultRecords.open("exchange-fuzz");
        long fds = openFds();
        Tally tally = new Tally();
        long t0 = System.nanoTime();
        try (ServerSocket shared = new ServerSocket(0, 50, LOOPBACK)) {
            shared.setSoTimeout(10_000);
            for (int i = only == null ? 0 : only; i < (only == null ? cases : only + 1); i++) {
                HostileClient.Session s = HostileClient.session(seed, i, false);
                ServerEnd end = runSession(shared, s, i % OWN_LISTENER_EVERY == 0);
                tally.add(i, s, end);
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        long fdsAfter = openFds();
        System.out.println(tally.summary(seed, seconds));
        records.add("hostile TCP exchange (fuzzer)", tally.total + " sessions, seed " + seed,
                tally.failures.isEmpty() ? "each ended: " + tally.rejected + " rejected with one line, " + tally.completed
                        + " harmless" : tally.failures.size() + " FAILED",
                tally.maxSeconds, -1, fdsAfter > fds + 5 ? (fdsAfter - fds) + " fds" : "",
                String.format(java.util.Locale.ROOT, "%.0f s for all; at most %d KiB allocated by a session",
                        seconds, tally.maxAllocated >> 10));
        if (!tally.failures.isEmpty()) {
            fail(tally.failures.size() + " sessions ended badly; the first ones:\n"
                    + String.join("\n", tally.failures.subList(0, Math.min(10, tally.failures.size()))));
        }
        assertTrue(fdsAfter <= fds + 5, "file descriptors left open: " + fds + " before, " + fdsAfter + " after");
        if (only == null) {
            assertTrue(tally.total >= 10_000 || cases < 10_000, "sessions: " + tally.total);
            for (Tool t : Tool.values()) {
                assertTrue(tally.byTool.getOrDefault(t, 0) > 0, "no session of " + t);
            }
            for (Step st : Step.values()) {
                // The client's messages are what is mutated; its script has no *_AFTER_PEER_RUN steps.
                if (st.wire() && st != Step.CM_BARRIER && !st.name().endsWith("_AFTER_PEER_RUN")) {
                    assertTrue(tally.rejectedAt.getOrDefault(st, 0) > 0, "no session rejected at " + st
                            + ": " + tally.rejectedAt);
                }
            }
            assertTrue(tally.unchanged > 0, "no unmutated session ran");
        }
    }

    /** How the server side of one session ended. */
    record ServerEnd(Throwable failure, double seconds, long allocated, String printed, boolean hung) {
    }

    private ServerEnd runSession(ServerSocket shared, HostileClient.Session s, boolean ownListener)
            throws Exception {
        ExchangeTimeouts limits = s.stall() ? QUICK : PATIENT;
        ExchangeListener own = ownListener ? ExchangeListener.listen(LOOPBACK.getHostAddress(), 0, false) : null;
        int port = own != null ? own.port() : shared.getLocalPort();
        Future<ServerEnd> server = pool.submit(() -> serve(own, shared, s.setup(), limits));
        try (Socket c = new Socket(LOOPBACK, port)) {
            c.setSoTimeout(10_000);
            OutputStream out = c.getOutputStream();
            try {
                out.write(s.stream());
                out.flush();
                if (!s.stall()) {
                    c.shutdownOutput();
                }
            } catch (java.io.IOException e) {
                // The server refused and reset the connection while we were still writing.
            }
            drain(c.getInputStream());
        }
        try {
            return server.get(15, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            server.cancel(true);
            return new ServerEnd(null, 15, 0, "", true);
        }
    }

    private static ServerEnd serve(ExchangeListener own, ServerSocket shared, HostileClient.Setup setup,
            ExchangeTimeouts limits) throws Exception {
        long allocated0 = Allocation.current();
        long t0 = System.nanoTime();
        ExchangeChannel ch;
        if (own != null) {
            ch = own.accept(Duration.ofSeconds(10));
        } else {
            Socket s = shared.accept();
            s.setSoLinger(true, 0);
            ch = new TcpExchangeChannel(s, Role.SERVER, "127.0.0.1:fuzzer");
        }
        FuzzedServer participant = new FuzzedServer(setup);
        Throwable failure = null;
        try (PerftestExchange ex = new PerftestExchange(ch, limits, setup.withGid())) {
            ScriptRunner.run(setup.script(Role.SERVER), ex, setup.sizes(), participant);
            participant.finish();
        } catch (Throwable t) {
            failure = t;
        }
        return new ServerEnd(failure, (System.nanoTime() - t0) / 1e9, Allocation.current() - allocated0,
                participant.printed(), false);
    }

    private static void drain(InputStream in) {
        byte[] buf = new byte[4096];
        try {
            while (in.read(buf) >= 0) {
                // what the server answered does not matter here
            }
        } catch (java.io.IOException e) {
            // reset by the server: the session is over
        }
    }

    private static long openFds() throws Exception {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        }
    }

    /** Counts and failures over all sessions. */
    static final class Tally {
        int total;
        int completed;
        int rejected;
        int unchanged;
        double maxSeconds;
        long maxAllocated;
        final Map<Tool, Integer> byTool = new EnumMap<>(Tool.class);
        final Map<Step, Integer> rejectedAt = new EnumMap<>(Step.class);
        final Map<String, Integer> firstWords = new TreeMap<>();
        final List<String> failures = new ArrayList<>();

        void add(int index, HostileClient.Session s, ServerEnd end) {
            total++;
            byTool.merge(s.setup().tool(), 1, Integer::sum);
            maxSeconds = Math.max(maxSeconds, end.seconds());
            maxAllocated = Math.max(maxAllocated, end.allocated());
            String id = "session " + index + " [" + s + "]: ";
            if (end.hung()) {
                failures.add(id + "the server did not end within 15 s");
                return;
            }
            if (end.allocated() > ALLOCATION_LIMIT) {
                failures.add(id + "the server allocated " + end.allocated() + " bytes");
            }
            String bad = unprintable(end.printed());
            if (bad != null) {
                failures.add(id + "the server printed " + bad);
            }
            Throwable f = end.failure();
            if (f == null) {
                completed++;
                if (s.harmless()) {
                    unchanged++;
                }
                return;
            }
            if (s.harmless()) {
                failures.add(id + "an unmutated session failed: " + f);
                return;
            }
            if (!(f instanceof ExchangeException || f instanceof RunFailure)) {
                failures.add(id + "unexpected " + f + stackTop(f));
                return;
            }
            String m = f.getMessage();
            if (m == null || m.isBlank() || unprintable(m) != null || m.contains("\n") || m.length() > Untrusted.MAX_LINE) {
                failures.add(id + "message not one printable line: " + Untrusted.line(String.valueOf(m)));
                return;
            }
            if (f instanceof ExchangeException e && e.beforeConnection()) {
                failures.add(id + "classified as a set-up failure (exit 2): " + m);
                return;
            }
            rejected++;
            if (s.targetStep() != null) {
                rejectedAt.merge(s.targetStep(), 1, Integer::sum);
            }
            String[] words = m.split(" ");
            firstWords.merge(words[0] + " " + (words.length > 1 ? words[1] : ""), 1, Integer::sum);
        }

        String summary(long seed, double seconds) {
            return String.format(java.util.Locale.ROOT,
                    "exchange fuzz, seed %d: %d sessions in %.1f s: %d completed (%d unmutated), %d rejected with "
                            + "one line, %d failures; slowest %.2f s, most allocated %d KiB%nby tool: %s%nrejected "
                            + "at: %s%nmessages: %s", seed, total, seconds, completed, unchanged, rejected,
                    failures.size(), maxSeconds, maxAllocated >> 10, byTool, rejectedAt, firstWords);
        }

        private static String stackTop(Throwable t) {
            StackTraceElement[] st = t.getStackTrace();
            return st.length == 0 ? "" : " at " + st[0];
        }
    }

    /** The first character a terminal should not get (anything but printable ASCII, tab and newline), or null. */
    static String unprintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f) {
                return "char " + (int) c + " at " + i + " in '" + Untrusted.line(s.substring(Math.max(0, i - 20),
                        Math.min(s.length(), i + 20))) + "'";
            }
        }
        return null;
    }

    /** Bytes allocated by the current thread (HotSpot's per-thread counter, through com.sun.management). */
    static final class Allocation {
        private static final java.lang.reflect.Method METHOD;

        static {
            try {
                METHOD = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        static long current() {
            try {
                return (long) METHOD.invoke(java.lang.management.ManagementFactory.getThreadMXBean());
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    @Test
    void theGeneratorIsReproducible() {
        for (int i = 0; i < 50; i++) {
            HostileClient.Session a = HostileClient.session(7, i, false);
            HostileClient.Session b = HostileClient.session(7, i, false);
            assertEquals(a.toString(), b.toString());
            assertTrue(java.util.Arrays.equals(a.stream(), b.stream()), "session " + i);
        }
    }
}
