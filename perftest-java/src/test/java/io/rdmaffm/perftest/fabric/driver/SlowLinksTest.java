package io.rdmaffm.perftest.fabric.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.MatrixInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * "A slow rank in the ring is tied to its link" (docs/fabric.md): fake ranks' {@code link_send} (post-to-completion
 * time per link) and step waits through the driver's rule.
 */
class SlowLinksTest {

    private static FabricPlan plan(Pattern p, String hosts, int iters, Consumer<FabricRequest.Builder> more) {
        return FabricFixtures.plan(hosts, b -> {
            b.pattern = p;
            b.bytes = 4L * 4 * 3 * 5;
            b.iters = iters;
            more.accept(b);
        }, Map.of());
    }

    /** Ring ranks: rank i writes to i + 1 taking {@code linkUs[i]} per write; every step waits {@code waitUs[i]}. */
    private static List<RankResult> ring(FabricPlan plan, double[] linkUs, double[] waitUs) {
        int n = plan.n();
        List<RankResult> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RankResult r = FabricFixtures.rxeRank(plan, i, 1000);
            List<Object> wait = new ArrayList<>();
            for (int k = 0; k < plan.steps(); k++) {
                wait.add(waitUs[i]);
            }
            r.result().put("steps", (double) plan.steps());
            r.result().put("step_wait_us", wait);
            r.result().put("link_send", List.of(send((i + 1) % n, plan.request().iters() * plan.steps(), linkUs[i])));
            out.add(r);
        }
        return out;
    }

    private static Map<String, Object> send(int peer, long writes, double meanUs) {
        return Map.of("peer", (double) peer, "writes", (double) writes, "mean_us", meanUs);
    }

    private static List<Verdict> slow(FabricOutcome o) {
        return o.verdicts().stream().filter(v -> v.rule().equals("slow-link")).toList();
    }

    @Test
    void oneSlowLinkIsNamedWithBothEnds() {
        FabricPlan p = plan(Pattern.ALLREDUCE, "h1,h2,h3,h4", 3, b -> { });
        // As measured in a ring with one slow link: every rank downstream waits, the slow link's writer least.
        FabricOutcome o = FabricVerdicts.judge(p, ring(p, new double[] {100, 110, 400, 95},
                new double[] {380, 390, 120, 400}));
        List<Verdict> v = slow(o);
        assertEquals(1, v.size(), v.toString());
        Verdict x = v.getFirst();
        assertEquals(Verdict.Level.FLAGGED, x.level());
        assertEquals("h3", x.host());
        assertTrue(x.message().contains("link h3/rxe0 -> h4/rxe0 (rank 2 -> 3): a write took 400.000 us to complete,"
                + " 4.0x the other links' median 100.000 us (--slow-link-factor 3)"), x.message());
        assertEquals(1, o.exitCode());
        assertTrue(o.localize().contains("h3") && o.localize().contains("h4"), o.localize());
        LinkFigure l = o.links().get(2);
        assertEquals(400, l.sendUs(), 1e-9);
        assertEquals(3 * 6, l.writes());
        assertEquals(400, l.waitUs(), 1e-9, "the receiver's (h4's) mean step wait");
        String text = FabricReport.text(o);
        assertTrue(text.contains("  rail 0: h3/rxe0 -> h4/rxe0 (rank 2 -> 3): write 400.000 us x 18, wait 400.000 us\n"),
                text);
        String json = FabricJson.write(o);
        assertTrue(json.contains("\"from\": \"h3/rxe0\"") && json.contains("\"send_us\": 400"), json);
        assertTrue(json.contains("\"slow_link_factor\": 3"), json);
    }

    @Test
    void allToAllNamesItsSlowPairAmongTwelveLinks() {
        FabricPlan p = plan(Pattern.ALLTOALL, "h1,h2,h3,h4", 5, b -> b.bytes = 4096);
        List<RankResult> ranks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RankResult r = FabricFixtures.rxeRank(p, i, 1000);
            List<Object> sends = new ArrayList<>();
            for (int q = 0; q < 4; q++) {
                if (q != i) {
                    sends.add(send(q, 5, i == 1 && q == 3 ? 900 : 200 + 10 * q));
                }
            }
            r.result().put("link_send", sends);
            ranks.add(r);
        }
        FabricOutcome o = FabricVerdicts.judge(p, ranks);
        assertEquals(12, o.links().size());
        List<Verdict> v = slow(o);
        assertEquals(1, v.size(), v.toString());
        assertTrue(v.getFirst().message().contains("link h2/rxe0 -> h4/rxe0 (rank 1 -> 3)"), v.toString());
        assertEquals(null, o.links().getFirst().waitUs(), "no ring steps in all-to-all");
    }

    @Test
    void aUniformRingIsNotFlagged() {
        FabricPlan p = plan(Pattern.ALLREDUCE, "h1,h2,h3,h4,h5", 3, b -> { });
        FabricOutcome o = FabricVerdicts.judge(p, ring(p, new double[] {100, 120, 90, 130, 110},
                new double[] {100, 100, 100, 100, 100}));
        List<Verdict> v = slow(o);
        assertEquals(1, v.size(), v.toString());
        assertEquals(Verdict.Level.OK, v.getFirst().level(), v.toString());
        assertTrue(v.getFirst().message().contains("5 links, no write time above 3x"), v.toString());
        assertEquals(0, o.exitCode(), FabricReport.text(o));
    }

    @Test
    void theFactorIsTheThreshold() {
        double[] links = {100, 100, 250, 100};
        double[] waits = {100, 100, 100, 100};
        FabricPlan two = plan(Pattern.ALLGATHER, "h1,h2,h3,h4", 3, b -> b.slowLinkFactor = 2);
        assertEquals(Verdict.Level.FLAGGED, slow(FabricVerdicts.judge(two, ring(two, links, waits))).getFirst().level());
        FabricPlan three = plan(Pattern.ALLGATHER, "h1,h2,h3,h4", 3, b -> b.slowLinkFactor = 3);
        assertEquals(Verdict.Level.OK, slow(FabricVerdicts.judge(three, ring(three, links, waits))).getFirst().level());
    }

    @Test
    void tooFewStepsIsNotJudged() {
        // reducescatter over 3, one timed iteration: 2 writes per link, fewer than 4.
        FabricPlan p = plan(Pattern.REDUCESCATTER, "h1,h2,h3", 1, b -> { });
        List<Verdict> v = slow(FabricVerdicts.judge(p, ring(p, new double[] {100, 900, 100}, new double[3])));
        assertEquals(1, v.size(), v.toString());
        assertEquals(Verdict.Level.NOT_JUDGED, v.getFirst().level());
        assertTrue(v.getFirst().message().contains("2 timed writes on a link, too few"), v.toString());
        // Two hosts: two links, no others to compare one with.
        FabricPlan two = plan(Pattern.ALLREDUCE, "h1,h2", 10, b -> { });
        List<Verdict> w = slow(FabricVerdicts.judge(two, ring(two, new double[] {100, 900}, new double[2])));
        assertEquals(Verdict.Level.NOT_JUDGED, w.getFirst().level(), w.toString());
        assertTrue(w.getFirst().message().contains("2 links, too few"), w.toString());
    }

    @Test
    void aRankWithoutLinkTimesLeavesItNotJudged() {
        FabricPlan p = plan(Pattern.ALLREDUCE, "h1,h2,h3,h4", 3, b -> { });
        List<RankResult> r = ring(p, new double[] {100, 100, 900, 100}, new double[4]);
        r.get(1).result().remove("link_send"); // a worker from before the field
        List<Verdict> v = slow(FabricVerdicts.judge(p, r));
        assertEquals(1, v.size(), v.toString());
        assertEquals(Verdict.Level.NOT_JUDGED, v.getFirst().level(), v.toString());
        assertTrue(v.getFirst().message().contains("no link times from h2/rxe0"), v.toString());
    }

    @Test
    void aSlowLinkWhoseWriterRetransmittedIsLossOnThatLink() {
        FabricPlan p = plan(Pattern.ALLREDUCE, "h1,h2,h3,h4", 3, b -> { });
        List<RankResult> r = ring(p, new double[] {100, 110, 400, 95}, new double[4]);
        FabricFixtures.delta(r.get(2).result(), "hw_counters/completer_retry_err", 5.0);
        FabricOutcome o = FabricVerdicts.judge(p, r);
        List<Verdict> onLink = o.verdicts().stream().filter(v -> v.message().contains("link h3/rxe0 -> h4/rxe0"))
                .toList();
        assertEquals(1, onLink.size(), o.verdicts().toString());
        assertEquals("loss", onLink.getFirst().rule());
        assertEquals(Verdict.Level.FLAGGED, onLink.getFirst().level());
        assertTrue(onLink.getFirst().message().endsWith("its writer retransmitted (hw_counters/completer_retry_err +5):"
                + " a lossy link"), onLink.getFirst().message());
        assertTrue(slow(o).isEmpty(), "not also a slow-link verdict: " + slow(o));
    }

    @Test
    void aFactorOfOneOrLessIsRefused() {
        assertThrows(MatrixInputException.class, () -> plan(Pattern.ALLREDUCE, "h1,h2,h3", 3, b -> b.slowLinkFactor = 1));
    }
}
