package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.faults.FaultRecords;
import io.rdmaffm.perftest.vocab.Role;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The {@code -R} control channel of a Java server against the seeded fuzzer of {@link ExchangeFuzzTest}, in
 * its binary-key form (perftest's pingpong_dest structs as rdma_cm SENDs): every session is a real rdma_cm
 * connection on the device to the server side perftest-java runs ({@link RdmaCmControlListener},
 * {@link PerftestExchange}, {@link ScriptRunner}, a participant that validates, prints and reports as the tools
 * do), and must end within its limits as a completed run or one printable line, never a hang, an unexpected
 * exception, or an allocation sized by the peer. The hostile client sends each message as one SEND and waits
 * briefly for the answer; a mutation that made a message longer than perftest's 56-byte receive is cut to 56
 * (the control channel refuses longer ones on the sending side). Per push 60 sessions (~0.6 s each in CI's emulated VM); 1,000 with
 * {@code -Dfaults.full=true}; {@code -Dfuzz.cm.sessions}, {@code -Dfuzz.seed}.
 */
@Tag("rdma")
class CmExchangeFuzzRdmaTest {
    private static final ExchangeTimeouts LIMITS = new ExchangeTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(5),
            Duration.ofSeconds(1), Duration.ofSeconds(1));
    private static final Duration CLIENT_WAIT = Duration.ofMillis(500);

    private final ExecutorService pool = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "fuzzed-cm-server");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    @Test
    void hostileRdmaCmSessionsEachEndCleanly() throws Exception {
        String ip = System.getenv("RDMA_IP");
        Assumptions.assumeTrue(System.getenv("RDMA_DEVICE") != null && ip != null,
                "no RDMA device (RDMA_DEVICE/RDMA_IP unset): run the rdma tests with scripts/test.sh");
        long seed = Long.getLong("fuzz.seed", 14);
        int sessions = FaultRecords.count("fuzz.cm.sessions", 60, 1000);
        FaultRecords records = FaultRecords.open("cm-exchange-fuzz");
        ExchangeFuzzTest.Tally tally = new ExchangeFuzzTest.Tally();
        int port = 20000 + (int) (ProcessHandle.current().pid() % 1000);
        int cut = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < sessions; i++) {
            HostileClient.Session s = HostileClient.session(seed, i, true);
            RdmaCmControlListener listener = RdmaCmControlChannel.listen(port);
            Future<ExchangeFuzzTest.ServerEnd> server = pool.submit(() -> serve(listener, s.setup()));
            cut += client(ip, port, s);
            ExchangeFuzzTest.ServerEnd end;
            try {
                end = server.get(20, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                server.cancel(true);
                end = new ExchangeFuzzTest.ServerEnd(null, 20, 0, "", true);
            }
            tally.add(i, s, end);
            if (end.hung()) {
                break; // the stuck server holds the port and the only worker
            }
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.println(tally.summary(seed, seconds).replace("exchange fuzz", "rdma_cm exchange fuzz")
                + "\nmessages cut to 56 bytes: " + cut);
        records.add("hostile rdma_cm (-R) exchange (fuzzer)", tally.total + " sessions, seed " + seed,
                tally.failures.isEmpty() ? "each ended: " + tally.rejected + " rejected with one line, "
                        + tally.completed + " harmless" : tally.failures.size() + " FAILED",
                tally.maxSeconds, -1, "", String.format(Locale.ROOT, "%.0f s for all", seconds));
        if (!tally.failures.isEmpty()) {
            fail(tally.failures.size() + " sessions ended badly; the first ones:\n"
                    + String.join("\n", tally.failures.subList(0, Math.min(10, tally.failures.size()))));
        }
        assertTrue(tally.total == sessions, "sessions: " + tally.total);
        assertTrue(tally.unchanged > 0 && tally.rejected > 0, tally.summary(seed, seconds));
    }

    private static ExchangeFuzzTest.ServerEnd serve(RdmaCmControlListener listener, HostileClient.Setup setup) {
        long allocated0 = ExchangeFuzzTest.Allocation.current();
        long t0 = System.nanoTime();
        FuzzedServer participant = new FuzzedServer(setup);
        Throwable failure = null;
        try (listener) {
            ExchangeChannel ch = listener.accept(Duration.ofSeconds(10));
            try (PerftestExchange ex = new PerftestExchange(ch, LIMITS, setup.withGid())) {
                ScriptRunner.run(setup.script(Role.SERVER), ex, setup.sizes(), participant);
                participant.finish();
            }
        } catch (Throwable t) {
            failure = t;
        }
        return new ExchangeFuzzTest.ServerEnd(failure, (System.nanoTime() - t0) / 1e9,
                ExchangeFuzzTest.Allocation.current() - allocated0, participant.printed(), false);
    }

    /** Plays the session's messages; returns how many had to be cut to 56 bytes. */
    private static int client(String ip, int port, HostileClient.Session s) throws Exception {
        int cut = 0;
        RdmaCmControlChannel ch = RdmaCmControlChannel.connect(ip, port, Duration.ofSeconds(10));
        try {
            for (byte[] m : s.messages()) {
                byte[] sent = m;
                if (m.length > RdmaCmControlChannel.MAX_MESSAGE) {
                    sent = Arrays.copyOf(m, RdmaCmControlChannel.MAX_MESSAGE);
                    cut++;
                } else if (m.length == 0) {
                    continue; // a SEND of nothing is no message on this channel
                }
                try {
                    ch.exchange(sent, 1, "fuzz", CLIENT_WAIT);
                } catch (ExchangeException e) {
                    break; // the server gave up on us: the session is over
                }
            }
            if (s.stall()) {
                Thread.sleep(LIMITS.io().toMillis() + 500);
            }
        } finally {
            ch.close();
        }
        return cut;
    }
}
