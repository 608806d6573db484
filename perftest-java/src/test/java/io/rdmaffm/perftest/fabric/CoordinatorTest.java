package io.rdmaffm.perftest.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The rendezvous with fake ranks over real sockets: joins, forwarding, barriers, and every way of aborting. */
class CoordinatorTest {

    /** A fake rank: a socket speaking the coordinator's lines. */
    private static final class FakeRank implements AutoCloseable {
        final Socket s;
        final InputStream in;

        FakeRank(int port, int rank, String host) throws IOException {
            s = new Socket();
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5000);
            s.setSoTimeout(10_000); // a test that waits longer has failed
            in = s.getInputStream();
            say("HELLO " + rank + " " + host);
        }

        void say(String line) throws IOException {
            Lines.write(s.getOutputStream(), line);
        }

        String hear() throws IOException {
            return Lines.read(in);
        }

        @Override
        public void close() throws IOException {
            s.close();
        }
    }

    private record Running(CompletableFuture<String> outcome, int port) {
    }

    private static Running start(int ranks, int join, int step) throws IOException {
        ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Coordinator c = new Coordinator(server, ranks, join, step, new PrintStream(new ByteArrayOutputStream()));
        CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> {
            try {
                return c.run();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        return new Running(f, server.getLocalPort());
    }

    private static List<FakeRank> join(Running run, int ranks) throws IOException {
        List<FakeRank> all = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            all.add(new FakeRank(run.port(), r, "host" + r));
        }
        for (FakeRank f : all) {
            assertEquals("TABLE " + ranks + " host0 host1 host2".substring(0, 6 * ranks), f.hear());
        }
        return all;
    }

    @Test
    void recordsGoToTheirPeerOnlyAndBarriersPass() throws Exception {
        Running run = start(3, 10, 10);
        List<FakeRank> r = join(run, 3);
        r.get(0).say("QP 1 ring-0 a b c - 5 1000 77");
        r.get(2).say("QP 0 ring-2 d e f - 5 2000 88");
        assertEquals("QP 0 ring-0 a b c - 5 1000 77", r.get(1).hear());
        assertEquals("QP 2 ring-2 d e f - 5 2000 88", r.get(0).hear());
        for (FakeRank f : r) {
            f.say("BARRIER READY");
        }
        for (FakeRank f : r) {
            assertEquals("PASS READY", f.hear(), "rank 2 heard no record, only the pass");
        }
        r.get(1).say("BYE");
        r.get(1).close(); // a rank that said BYE may leave before the others have said it
        r.get(2).say("BYE");
        r.get(2).close();
        assertTrue(!run.outcome().isDone(), "rank 0 has not said BYE yet");
        r.get(0).say("BYE");
        assertNull(run.outcome().get(10, TimeUnit.SECONDS));
        for (FakeRank f : r) {
            f.close();
        }
    }

    @Test
    void aRankThatNeverJoinsAbortsTheOthersAtTheJoinTimeout() throws Exception {
        Running run = start(3, 1, 10);
        FakeRank a = new FakeRank(run.port(), 0, "host0");
        FakeRank b = new FakeRank(run.port(), 1, "host1");
        long t0 = System.nanoTime();
        String outcome = run.outcome().get(10, TimeUnit.SECONDS);
        assertEquals("rank 2 never joined within 1 s", outcome);
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(5));
        assertEquals("ABORT rank 2 never joined within 1 s", a.hear());
        assertEquals("ABORT rank 2 never joined within 1 s", b.hear());
        a.close();
        b.close();
    }

    @Test
    void aRankThatClosesMidPatternIsNamedToTheOthers() throws Exception {
        Running run = start(3, 10, 10);
        List<FakeRank> r = join(run, 3);
        r.get(0).say("BARRIER READY");
        r.get(2).close();
        String want = "ABORT rank 2 (host2) closed its connection to the coordinator (process ended?)";
        assertEquals(want, r.get(0).hear());
        assertEquals(want, r.get(1).hear());
        assertNull(r.get(0).hear(), "then the connection ends");
        assertTrue(run.outcome().get(10, TimeUnit.SECONDS).startsWith("rank 2 (host2)"));
    }

    @Test
    void aLateRankAtABarrierIsNamedAfterTheStepTimeout() throws Exception {
        Running run = start(3, 10, 1);
        List<FakeRank> r = join(run, 3);
        r.get(0).say("BARRIER DONE");
        r.get(1).say("BARRIER DONE");
        String line = r.get(0).hear();
        assertEquals("ABORT rank 2 (host2) did not reach DONE within 1 s of the first rank", line);
        assertEquals(line, r.get(2).hear(), "the late rank hears it too");
        run.outcome().get(10, TimeUnit.SECONDS);
    }

    @Test
    void anErrorFromARankIsBroadcastNamingIt() throws Exception {
        Running run = start(3, 10, 10);
        List<FakeRank> r = join(run, 3);
        r.get(1).say("ERROR write on the link to rank 2 (host2) failed: RETRY_EXC_ERR");
        String want = "ABORT rank 1 (host1): write on the link to rank 2 (host2) failed: RETRY_EXC_ERR";
        assertEquals(want, r.get(0).hear());
        assertEquals(want, r.get(2).hear());
        assertEquals(want.substring(6), run.outcome().get(10, TimeUnit.SECONDS));
    }

    @Test
    void aRecordForNoRankAndADuplicateRankAbort() throws Exception {
        Running run = start(2, 10, 10);
        FakeRank a = new FakeRank(run.port(), 0, "host0");
        FakeRank b = new FakeRank(run.port(), 0, "other");
        assertEquals("ABORT rank 0 joined twice (from host0 and other)", a.hear());
        run.outcome().get(10, TimeUnit.SECONDS);
        a.close();
        b.close();

        Running run2 = start(2, 10, 10);
        List<FakeRank> r = join(run2, 2);
        r.get(0).say("QP 5 x");
        assertTrue(r.get(1).hear().startsWith("ABORT rank 0 (host0) sent a QP record for no joined rank"));
        run2.outcome().get(10, TimeUnit.SECONDS);
    }

    @Test
    void theClientSeesTheAbortAndTheTable() throws Exception {
        Running run = start(2, 10, 10);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try (CoordinatorClient c0 = CoordinatorClient.connect("127.0.0.1", run.port(), 0, "h0", deadline, () -> false);
             CoordinatorClient c1 = CoordinatorClient.connect("127.0.0.1", run.port(), 1, "h1", deadline, () -> false)) {
            assertEquals(List.of("h0", "h1"), c0.table(2, deadline));
            assertEquals(List.of("h0", "h1"), c1.table(2, deadline));
            c1.sendError("device gone");
            FabricFailure f = org.junit.jupiter.api.Assertions.assertThrows(FabricFailure.class,
                    () -> c0.barrier("READY", System.nanoTime() + TimeUnit.SECONDS.toNanos(10)));
            assertEquals("aborted: rank 1 (h1): device gone", f.getMessage());
        }
        run.outcome().get(10, TimeUnit.SECONDS);
    }
}
