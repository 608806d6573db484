package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.fabric.FabricOptions;
import io.rdmaffm.perftest.fabric.FabricPattern;
import io.rdmaffm.perftest.fabric.FabricWorker;
import io.rdmaffm.perftest.fabric.SendRate;
import io.rdmaffm.verbs.Context;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three fabric ranks on the one Soft-RoCE device, coordinated over 127.0.0.1: all-reduce as three
 * {@code fabric-worker} processes (one per rank) with the sums checked and the counters moving; incast and
 * all-to-all with the ranks on threads of the test's JVM (three JVM start-ups per case cost minutes under the
 * VM's emulation); and rank 2, a process, killed with SIGKILL mid-run, after which ranks 0 and 1 end with exit 2
 * within their step timeout, naming rank 2. After each case the device's objects are back where they were.
 */
@Tag("rdma")
class FabricWorkerRdmaTest {
    private static final int RANKS = 3;
    /** The survivors' step timeout after the kill, and the margin the emulated CPU needs on top. */
    private static final int STEP_TIMEOUT_S = 10;
    private static final int MARGIN_S = 30;
    /**
     * The incast's cap: a 4 KiB write per iteration then takes 164 ms, 3 timed iterations 0.5 s. Unpaced, rxe in the
     * TCG VM gave about 1 Mb/s per all-to-all sender (8 December 2026: 0.98, 1.00, 0.98; one iteration's write 1 to
     * 160 ms).
     */
    private static final SendRate CAP = SendRate.parse("200Kb/s");
    private static String baseline;

    @BeforeAll
    static void baseline() throws Exception {
        baseline = RdmaResources.summary(PerftestPeers.device());
    }

    /** One rank's process, its stdout and stderr in files. */
    private record Rank(Process process, Path out, Path err) {
        String stdout() throws Exception {
            return Files.readString(out);
        }

        String all() throws Exception {
            return "stdout:\n" + Files.readString(out) + "stderr:\n" + Files.readString(err);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> result() throws Exception {
            List<String> lines = Files.readAllLines(out);
            assertTrue(!lines.isEmpty(), "no output: " + all());
            String last = lines.getLast();
            assertTrue(last.startsWith("@rdma-fabric result {"), "last line is not the result: " + all());
            return (Map<String, Object>) Json.parse(last.substring("@rdma-fabric result ".length()));
        }
    }

    /** A rank run on a thread of this JVM (no JVM start-up under emulation), its output in memory. */
    private record InProcess(CompletableFuture<Integer> exit, ByteArrayOutputStream out, ByteArrayOutputStream err) {
        static InProcess start(FabricOptions o) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            PrintStream po = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream pe = new PrintStream(err, true, StandardCharsets.UTF_8);
            CompletableFuture<Integer> f = new CompletableFuture<>();
            Thread.ofPlatform().daemon(true).name("rank-" + o.rank()).start(() -> {
                try {
                    f.complete(new FabricWorker(o, po, pe, () -> false).run());
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
            return new InProcess(f, out, err);
        }

        String all() {
            return "stdout:\n" + out.toString(StandardCharsets.UTF_8) + "stderr:\n" + err.toString(StandardCharsets.UTF_8);
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> result() {
            List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertTrue(!lines.isEmpty(), "no output: " + all());
            String last = lines.getLast();
            assertTrue(last.startsWith("@rdma-fabric result {"), "last line is not the result: " + all());
            return (Map<String, Object>) Json.parse(last.substring("@rdma-fabric result ".length()));
        }
    }

    private static FabricOptions options(String pattern, int rank, int port, long bytes, int iters) {
        return options(pattern, rank, port, bytes, iters, 1);
    }

    private static FabricOptions options(String pattern, int rank, int port, long bytes, int iters, int threads) {
        return options(pattern, rank, port, bytes, iters, threads, null);
    }

    private static FabricOptions options(String pattern, int rank, int port, long bytes, int iters, int threads,
            SendRate rate) {
        return new FabricOptions(FabricPattern.of(pattern), rank, RANKS, "127.0.0.1", port, PerftestPeers.device(), 1,
                Integer.parseInt(PerftestPeers.gidIndex()), bytes, iters, 1, true, 0, 120, STEP_TIMEOUT_S, threads,
                new long[] {bytes}, false, rate).validate();
    }

    /** A sweep ({@code sizes} in turn) and, for incast, {@code rotate}: every rank the target in turn. */
    private static FabricOptions options(String pattern, int rank, int port, long[] sizes, int iters, boolean rotate) {
        return options(pattern, rank, port, sizes, iters, rotate, null);
    }

    /** As above, each sender capped at {@code rate} (null: none). */
    private static FabricOptions options(String pattern, int rank, int port, long[] sizes, int iters, boolean rotate,
            SendRate rate) {
        return new FabricOptions(FabricPattern.of(pattern), rank, RANKS, "127.0.0.1", port, PerftestPeers.device(), 1,
                Integer.parseInt(PerftestPeers.gidIndex()), sizes[sizes.length - 1], iters, 1, true, 0, 120,
                STEP_TIMEOUT_S, 1, sizes, rotate, rate).validate();
    }

    private static List<Rank> start(int port, String... args) throws Exception {
        return start(0, port, args);
    }

    /** Ranks {@code from}..RANKS-1 as processes of their own. */
    private static List<Rank> start(int from, int port, String... args) throws Exception {
        List<Rank> ranks = new ArrayList<>();
        for (int r = from; r < RANKS; r++) {
            List<String> cmd = new ArrayList<>(javaLauncher());
            cmd.addAll(List.of("fabric-worker", "--rank", String.valueOf(r), "--ranks", String.valueOf(RANKS),
                    "--coordinator", "127.0.0.1:" + port, "-d", PerftestPeers.device(), "-x", PerftestPeers.gidIndex(),
                    "--join-timeout", "120", "--step-timeout", String.valueOf(STEP_TIMEOUT_S)));
            cmd.addAll(List.of(args));
            // Under target/, so a run in the VM leaves the ranks' output readable on the host.
            Path dir = Files.createDirectories(Path.of("target", "fabric-worker-rdma"));
            Path out = Files.createTempFile(dir, "rank" + r + "-", ".out");
            Path err = Files.createTempFile(dir, "rank" + r + "-", ".err");
            Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            ranks.add(new Rank(p, out, err));
        }
        return ranks;
    }

    private static void awaitAll(List<Rank> ranks, long seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (Rank r : ranks) {
            if (!r.process().waitFor(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                for (Rank k : ranks) {
                    k.process().destroyForcibly();
                }
                fail("a rank did not end within " + seconds + " s:\n" + r.all());
            }
        }
    }

    /** The result's link_send: one entry per peer written to, in order, each with its writes and a time. */
    private static void linkSends(Map<String, Object> res, List<Integer> peers, long writes, String all) {
        List<?> sends = (List<?>) res.get("link_send");
        assertNotNull(sends, all);
        assertEquals(peers.size(), sends.size(), "link_send " + sends);
        for (int i = 0; i < peers.size(); i++) {
            Map<?, ?> l = (Map<?, ?>) sends.get(i);
            assertEquals(peers.get(i).longValue(), ((Number) l.get("peer")).longValue(), "link_send " + sends);
            assertEquals(writes, ((Number) l.get("writes")).longValue(), "link_send " + sends);
            assertTrue(((Number) l.get("mean_us")).doubleValue() > 0, "link_send " + sends);
        }
    }

    private static long num(Map<String, Object> result, String key) {
        Object v = result.get(key);
        assertNotNull(v, key + " is null");
        return ((Number) v).longValue();
    }

    @SuppressWarnings("unchecked")
    private static long delta(Map<String, Object> result, String key) {
        Map<String, Object> counters = (Map<String, Object>) result.get("counters");
        assertNotNull(counters, "counters");
        Object v = ((Map<String, Object>) counters.get("delta")).get(key);
        assertNotNull(v, key + " absent: " + counters.get("absent"));
        return ((Number) v).longValue();
    }

    /**
     * The all-reduce on three ranks. CI's short form runs them on threads of this JVM (three JVM starts cost about
     * two minutes of the emulated CPU; CrossHostFabricRdmaTest runs the ranks as processes on three VMs); the full
     * form ({@code -Dfabric.full=true}, scripts/fabric-vms.sh) as three processes here.
     */
    @Test
    void allreduceOnThreeRanks() throws Exception {
        boolean processes = Boolean.getBoolean("fabric.full");
        int port = PerftestPeers.freshPort();
        // A sweep as fabric -b 2K -e 8K -f 2 runs it on 3 hosts (each size rounded down to a multiple of 4 x 3): one
        // set of QPs, a case per size, about the bytes the one 12 KiB size of before moved.
        long[] sizes = {2040, 4092, 8184};
        List<Rank> procs = processes ? start(port, "--pattern", "allreduce", "--sizes", "2040,4092,8184", "--iters",
                "2", "--warmup", "1") : List.of();
        List<InProcess> threads = new ArrayList<>();
        if (processes) {
            awaitAll(procs, 240);
        } else {
            for (int r = 0; r < RANKS; r++) {
                threads.add(InProcess.start(options("allreduce", r, port, sizes, 2, false)));
            }
        }
        for (int r = 0; r < RANKS; r++) {
            Map<String, Object> res;
            String all;
            if (processes) {
                Rank rank = procs.get(r);
                all = rank.all();
                assertEquals(0, rank.process().exitValue(), all);
                res = rank.result();
            } else {
                InProcess rank = threads.get(r);
                assertEquals(0, rank.exit().get(120, TimeUnit.SECONDS), rank.all());
                all = rank.all();
                res = rank.result();
            }
            assertEquals(r, num(res, "rank"));
            assertNull(res.get("error"), all);
            assertEquals(0, num(res, "wrong"), all);
            assertEquals(4, num(res, "steps"));
            List<?> cases = (List<?>) res.get("cases");
            assertEquals(sizes.length, cases.size(), all);
            long sent = 0;
            for (int i = 0; i < sizes.length; i++) {
                @SuppressWarnings("unchecked")
                Map<String, Object> c = (Map<String, Object>) cases.get(i);
                assertEquals(sizes[i], num(c, "bytes"));
                assertEquals(0, num(c, "wrong"), "size " + sizes[i] + ": " + all);
                assertEquals(2L * 4 * sizes[i] / 3, num(c, "bytes_sent"), "2 iterations x 4 steps x one chunk");
                assertTrue(((Number) ((Map<?, ?>) c.get("time_us")).get("mean")).doubleValue() > 0, all);
                sent += num(c, "bytes_sent");
            }
            assertEquals(sent, num(res, "bytes_sent"), "the run's: every size's");
            assertTrue(delta(res, "hw_counters/rcvd_pkts") > 0, all);
            assertTrue(delta(res, "hw_counters/sent_pkts") > 0, all);
            // Per step waits and the one data link's write times (docs/fabric.md, "A slow link"): the last size's.
            assertEquals(4, ((List<?>) res.get("step_wait_us")).size(), all);
            assertEquals(4, ((List<?>) res.get("step_send_us")).size(), all);
            linkSends(res, List.of((r + 1) % RANKS), 2 * 4, all);
            System.out.println("rank " + r + " cases " + res.get("cases"));
        }
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    /**
     * Incast with every rank the target in turn (a link to every other rank, built once; 2 iterations per target) and
     * all-to-all, the three ranks on threads of this JVM (the process path: the all-reduce's full form). The
     * all-to-all runs at full rate; the incast with {@code --rate} {@link #CAP} per sender, well below what Soft-RoCE
     * carries here (the all-to-all's unpaced senders show it), so that each sender's send_rate_Gbps is the pacer's
     * doing: at most the cap, and not far below it.
     */
    @Test
    void incastAndAlltoall() throws Exception {
        double fullRate = Double.NaN;
        for (String pattern : List.of("alltoall", "incast")) {
            int port = PerftestPeers.freshPort();
            SendRate cap = pattern.equals("incast") ? CAP : null;
            List<InProcess> ranks = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                ranks.add(pattern.equals("incast") ? InProcess.start(options(pattern, r, port, new long[] {4096}, 2,
                        true, cap)) : InProcess.start(options(pattern, r, port, 4096, 3)));
            }
            for (int r = 0; r < RANKS; r++) {
                InProcess rank = ranks.get(r);
                assertEquals(0, rank.exit().get(120, TimeUnit.SECONDS), pattern + ": " + rank.all());
                Map<String, Object> res = rank.result();
                long received = num(res, "bytes_received");
                long sent = num(res, "bytes_sent");
                if (pattern.equals("incast")) {
                    // Target once (2 senders x 2 iterations in), a sender the other two times (2 iterations out each).
                    assertEquals("member", res.get("role"));
                    assertEquals(2L * 2 * 4096, received, pattern + " rank " + r);
                    assertEquals(2L * 2 * 4096, sent, pattern + " rank " + r);
                    List<?> cases = (List<?>) res.get("cases");
                    assertEquals(RANKS, cases.size(), rank.all());
                    for (int t = 0; t < RANKS; t++) {
                        Map<?, ?> c = (Map<?, ?>) cases.get(t);
                        assertEquals(t, ((Number) c.get("target")).intValue());
                        assertEquals(t == r ? "receiver" : "sender", c.get("role"));
                        assertEquals(t == r ? 2L * 2 * 4096 : 0L, ((Number) c.get("bytes_received")).longValue());
                        assertEquals(t == r ? 0L : 2L * 4096, ((Number) c.get("bytes_sent")).longValue());
                        Object caseRate = c.get("send_rate_Gbps");
                        assertTrue(t == r ? caseRate == null : ((Number) caseRate).doubleValue() <= CAP.gbps() * 1.01,
                                "case " + t + " of rank " + r + ": send_rate_Gbps " + caseRate + " (cap " + CAP.gbps()
                                        + ")");
                    }
                } else {
                    assertEquals(2L * 3 * 4096, received, pattern + " rank " + r);
                    assertEquals(2L * 3 * 4096, sent, pattern + " rank " + r);
                }
                assertNull(res.get("wrong"), "no check for " + pattern);
                assertNull(res.get("step_wait_us"), "no ring steps in " + pattern);
                int me = r;
                // incast: the last target's case (rank 2), written to by the others
                List<Integer> peers = pattern.equals("incast") ? (r == RANKS - 1 ? List.of() : List.of(RANKS - 1))
                        : java.util.stream.IntStream.range(0, RANKS).filter(q -> q != me).boxed().toList();
                linkSends(res, peers, pattern.equals("incast") ? 2 : 3, rank.all());
                assertTrue(delta(res, "hw_counters/rcvd_pkts") > 0, rank.all());
                Object rate = res.get("send_rate_Gbps");
                System.out.println(pattern + " rank " + r + " send_rate_Gbps " + rate + " rate_cap_Gbps "
                        + res.get("rate_cap_Gbps") + " time_us " + res.get("time_us"));
                if (pattern.equals("alltoall")) {
                    assertNull(res.get("rate_cap_Gbps"), "no --rate");
                    double g = ((Number) rate).doubleValue();
                    fullRate = Double.isNaN(fullRate) ? g : Math.min(fullRate, g);
                } else if (r == RANKS - 1) {
                    assertNull(rate, "the last case's target sends nothing");
                } else {
                    assertEquals(CAP.gbps(), ((Number) res.get("rate_cap_Gbps")).doubleValue(), 1e-12);
                    double g = ((Number) rate).doubleValue();
                    // Every timed iteration lasts at least the gap: at most the cap (the figure is rounded to 1 kb/s).
                    assertTrue(g <= CAP.gbps() * 1.01, "sender " + r + " sent at " + g + " Gb/s, above the cap");
                    assertTrue(g >= CAP.gbps() * 0.2, "sender " + r + " sent at " + g + " Gb/s, far below the cap");
                    assertTrue(fullRate > 2 * CAP.gbps(), "Soft-RoCE carried only " + fullRate + " Gb/s per sender"
                            + " here: the cap would not be what held the rate");
                }
            }
        }
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    /**
     * {@code --rate} above the port's rate (twice what the device reports): every rank ends with exit 2, the senders
     * with one line naming the host, device, port rate and the rate, before any QP exists (the device's objects never moved), and
     * within seconds.
     */
    @Test
    void aRateAboveThePortRateEndsEveryRankBeforeAnyQp() throws Exception {
        double portGbps;
        try (Context ctx = Context.open(PerftestPeers.device())) {
            portGbps = ctx.queryPort(1).rateGbps();
        }
        assertTrue(portGbps > 0, "the device reports no port rate known here: the check cannot run");
        SendRate above = new SendRate(Math.round(portGbps * 2e9));
        int port = PerftestPeers.freshPort();
        long t0 = System.nanoTime();
        List<InProcess> ranks = new ArrayList<>();
        for (int r = 0; r < RANKS; r++) {
            ranks.add(InProcess.start(options("incast", r, port, 4096, 3, 1, above)));
        }
        for (int r = 0; r < RANKS; r++) {
            InProcess rank = ranks.get(r);
            assertEquals(2, rank.exit().get(STEP_TIMEOUT_S + MARGIN_S, TimeUnit.SECONDS), rank.all());
            String error = (String) rank.result().get("error");
            assertNotNull(error, rank.all());
            assertTrue(error.contains("above the port rate of") || error.contains("rank "), error);
            assertNull(rank.result().get("time_us"), "no iteration ran: " + rank.all());
            assertTrue(!rank.all().contains("\tat "), "no stack trace: " + rank.all());
        }
        // The line itself, as a sender that found it wrote it (every rank here shares the one device; the receiver,
        // which sends nothing, is aborted naming a sender).
        String own = (String) ranks.get(1).result().get("error");
        String host = (String) ranks.get(1).result().get("host");
        assertEquals("--rate " + above.text() + " is above the port rate of " + host + " " + PerftestPeers.device()
                + " port 1 (" + new SendRate(Math.round(portGbps * 1e9)).text() + ")", own);
        double seconds = (System.nanoTime() - t0) / 1e9;
        System.out.println("rate above port: every rank ended after " + String.format("%.1f", seconds) + " s: "
                + own);
        assertTrue(seconds < STEP_TIMEOUT_S, "ended within a step timeout, not by one");
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    /** The two halves of the ring and bisection (rank 2 idle: N = 3 is odd), ranks on threads of this JVM. */
    @Test
    void allgatherReducescatterAndBisection() throws Exception {
        for (String pattern : List.of("allgather", "reducescatter", "bisection")) {
            int port = PerftestPeers.freshPort();
            List<InProcess> ranks = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                ranks.add(InProcess.start(options(pattern, r, port, 12288, 3)));
            }
            for (int r = 0; r < RANKS; r++) {
                InProcess rank = ranks.get(r);
                assertEquals(0, rank.exit().get(120, TimeUnit.SECONDS), pattern + ": " + rank.all());
                Map<String, Object> res = rank.result();
                if (pattern.equals("bisection")) {
                    assertEquals(r == 2 ? "idle" : "member", res.get("role"));
                    assertEquals(r == 2 ? 0L : 3L * 12288, num(res, "bytes_received"), pattern + " rank " + r);
                    assertNull(res.get("wrong"));
                } else {
                    assertEquals(0, num(res, "wrong"), pattern + " rank " + r + ": " + rank.all());
                    assertEquals(2, num(res, "steps"));
                    assertEquals(3L * 2 * 12288 / 3, num(res, "bytes_sent"), pattern + " rank " + r);
                }
            }
        }
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    /**
     * {@code --threads 2} (docs/fabric-design.md §11): the all-reduce and all-to-all with two lanes per link, ranks on
     * threads of this JVM. The sums and byte counts are those of one thread; every link carried twice the writes
     * (each lane wrote its share of every transfer), so the second lane's thread ran; and the device's objects (two
     * QPs per link, two CQs per rank) are all released.
     */
    @Test
    void twoThreadsGiveTheSameSumsAndBytes() throws Exception {
        for (String pattern : List.of("allreduce", "alltoall")) {
            int port = PerftestPeers.freshPort();
            List<InProcess> ranks = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                ranks.add(InProcess.start(options(pattern, r, port, 12288, 3, 2)));
            }
            for (int r = 0; r < RANKS; r++) {
                InProcess rank = ranks.get(r);
                assertEquals(0, rank.exit().get(120, TimeUnit.SECONDS), pattern + ": " + rank.all());
                Map<String, Object> res = rank.result();
                String all = rank.all();
                assertEquals(2, num(res, "threads"), all);
                assertNull(res.get("error"), all);
                if (pattern.equals("allreduce")) {
                    assertEquals(0, num(res, "wrong"), all);
                    assertEquals(3L * 4 * 12288 / 3, num(res, "bytes_sent"), "3 iterations x 4 steps x one chunk");
                    assertEquals(4, ((List<?>) res.get("step_wait_us")).size(), all);
                    linkSends(res, List.of((r + 1) % RANKS), 2 * 3 * 4, all);
                } else {
                    assertEquals(2L * 3 * 12288, num(res, "bytes_sent"), all);
                    assertEquals(2L * 3 * 12288, num(res, "bytes_received"), all);
                    int me = r;
                    linkSends(res, java.util.stream.IntStream.range(0, RANKS).filter(q -> q != me).boxed().toList(),
                            2 * 3, all);
                }
                assertTrue(delta(res, "hw_counters/rcvd_pkts") > 0, all);
            }
        }
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    @Test
    void aRankKilledMidRunEndsTheOthersNamingIt() throws Exception {
        // Ranks 0 and 1 on threads here, rank 2 a process of its own: the one that is SIGKILLed.
        int port = PerftestPeers.freshPort();
        List<InProcess> survivors = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            survivors.add(InProcess.start(options("allreduce", r, port, 12288, 1_000_000)));
        }
        Rank victim = start(2, port, "--pattern", "allreduce", "-s", "12288", "--iters", "1000000", "--warmup", "0")
                .getFirst();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (!Files.readString(victim.err()).contains(": go")) {
            if (System.nanoTime() > deadline || !victim.process().isAlive()) {
                victim.process().destroyForcibly();
                fail("rank 2 never started its iterations:\n" + victim.all() + survivors.get(0).all());
            }
            Thread.sleep(200);
        }
        Thread.sleep(1000);
        victim.process().destroyForcibly(); // SIGKILL
        long t0 = System.nanoTime();
        for (int r = 0; r < 2; r++) {
            InProcess rank = survivors.get(r);
            assertEquals(2, rank.exit().get(STEP_TIMEOUT_S + MARGIN_S, TimeUnit.SECONDS), rank.all());
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        for (int r = 0; r < 2; r++) {
            InProcess rank = survivors.get(r);
            String error = (String) rank.result().get("error");
            assertNotNull(error, rank.all());
            assertTrue(error.contains("rank 2"), "names rank 2: " + error);
            assertTrue(!rank.all().contains("\tat "), "no stack trace: " + rank.all());
            System.out.println("rank " + r + " after " + String.format("%.1f", seconds) + " s: " + error);
        }
        assertEquals(baseline, RdmaResources.awaitSummary(PerftestPeers.device(), baseline, 10), "rdma resources");
    }

    /** perftest-java in a JVM of its own, as a user starts it (modules on the class path, C1 only). */
    private static List<String> javaLauncher() {
        String classPath = String.join(File.pathSeparator, Stream.of(System.getProperty("jdk.module.path"),
                System.getProperty("java.class.path")).filter(s -> s != null && !s.isBlank()).toList());
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", classPath,
                "io.rdmaffm.perftest.cli.Main");
    }
}
