package io.rdmaffm.perftest.fabric.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.Failure;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * busbw as nccl-tests defines it, checked against hand-computed cases, and the counter rules of
 * docs/fabric-design.md §7 from recorded rank results (rxe's counters, mlx5's).
 */
class FabricVerdictsTest {

    private static List<RankResult> ranks(FabricPlan p, double... meanUs) {
        List<RankResult> out = new ArrayList<>();
        for (int i = 0; i < meanUs.length; i++) {
            out.add(FabricFixtures.rxeRank(p, i, meanUs[i]));
        }
        return out;
    }

    private static RailFigures figures(Pattern pattern, String hosts, long bytes, double... meanUs) {
        FabricPlan p = FabricFixtures.plan(hosts, b -> {
            b.pattern = pattern;
            b.bytes = bytes;
        }, Map.of());
        return FabricVerdicts.judge(p, ranks(p, meanUs)).figures().getFirst();
    }

    @Test
    void allreduceBusbwIsAlgbwTimesTwoNMinusOneOverN() {
        // S = 12288 B, t = max(900, 1000, 950) = 1000 us: algbw = 12288 / 1e-3 s = 12.288 MB/s = 0.012288 GB/s;
        // busbw = 0.012288 x 2 x 2 / 3 = 0.016384 GB/s.
        RailFigures f = figures(Pattern.ALLREDUCE, "a,b,c", 12288, 900, 1000, 950);
        assertEquals(1000.0, f.timeUs());
        assertEquals("b/rxe0", f.slowest());
        assertEquals(0.012288, f.algbwGBps(), 1e-12);
        assertEquals(0.016384, f.busbwGBps(), 1e-12);
        assertEquals(0L, f.wrong());
    }

    @Test
    void allgatherAndReducescatterUseNMinusOneOverN() {
        // S = 4096 B over 4 ranks, t = 1 us: algbw = 4.096 GB/s, busbw = 4.096 x 3/4 = 3.072 GB/s.
        RailFigures f = figures(Pattern.ALLGATHER, "a,b,c,d", 4096, 1, 1, 0.5, 1);
        assertEquals(4.096, f.algbwGBps(), 1e-12);
        assertEquals(3.072, f.busbwGBps(), 1e-12);
        RailFigures r = figures(Pattern.REDUCESCATTER, "a,b,c,d", 4096, 1, 1, 0.5, 1);
        assertEquals(3.072, r.busbwGBps(), 1e-12);
    }

    @Test
    void alltoallCountsNTimesMAndBusbwIsNMinusOneTimesMOverT() {
        // m = 1000 B, n = 4, t = 100 us: S = 4000 B, algbw = 0.04 GB/s, busbw = 0.04 x 3/4 = 0.03 = 3 x 1000 B / 100 us.
        RailFigures f = figures(Pattern.ALLTOALL, "a,b,c,d", 1000, 100, 50, 80, 99);
        assertEquals(4000.0, f.algBytes());
        assertEquals(0.04, f.algbwGBps(), 1e-12);
        assertEquals(0.03, f.busbwGBps(), 1e-12);
        assertNull(f.wrong(), "alltoall has no #wrong check: n/a, never 0");
    }

    @Test
    void incastIsFanInTimesMOverTAndBisectionIsMOverT() {
        // incast: f = 2 senders of m = 1e6 B, t = 1000 us: S = 2e6 B, algbw = busbw = 2 GB/s.
        RailFigures in = figures(Pattern.INCAST, "a,b,c", 1_000_000, 1000, 600, 700);
        assertEquals(2.0, in.algbwGBps(), 1e-12);
        assertEquals(2.0, in.busbwGBps(), 1e-12);
        // bisection: m = 1e6 B, t = 500 us: 2 GB/s, factor 1.
        RailFigures bi = figures(Pattern.BISECTION, "a,b,c,d", 1_000_000, 500, 400, 450, 300);
        assertEquals(2.0, bi.busbwGBps(), 1e-12);
    }

    @Test
    void aRankWithoutATimeLeavesTheFiguresEmptyNotWrong() {
        FabricPlan p = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.ALLREDUCE;
            b.bytes = 12288;
        }, Map.of());
        List<RankResult> r = ranks(p, 900, 1000);
        r.add(new RankResult(p.rail(0).get(2), 255, null, new Failure(Failure.Kind.UNREACHABLE, "c",
                "ssh to c failed (exit 255)"), ""));
        FabricOutcome o = FabricVerdicts.judge(p, r);
        assertNull(o.figures().getFirst().busbwGBps());
        assertEquals(2, o.exitCode());
        assertTrue(o.verdicts().stream().anyMatch(v -> v.level() == Verdict.Level.FAILED && "c".equals(v.host())
                && v.message().contains("unreachable")), o.verdicts().toString());
        assertEquals("rdma-perftest matrix --hosts a,b,c --device rxe0 --tools ib_write_bw", o.localize());
    }

    @Test
    void lossOnOneHostIsFlaggedNamingItWithoutLosslessAndFailsWithIt() {
        for (Expect e : List.of(Expect.NONE, Expect.PFC)) {
            FabricPlan p = FabricFixtures.plan("h1,h2,h3,h4,h5", b -> {
                b.pattern = Pattern.ALLREDUCE;
                b.bytes = 4 * 5 * 100;
                b.expect = e;
            }, Map.of());
            List<RankResult> r = ranks(p, 10, 10, 10, 10, 10);
            FabricFixtures.delta(r.get(2).result(), "hw_counters/rcvd_seq_err", 7.0);
            FabricOutcome o = FabricVerdicts.judge(p, r);
            Verdict loss = o.verdicts().stream().filter(v -> v.rule().equals("loss") && v.level() != Verdict.Level.NOT_JUDGED)
                    .findFirst().orElseThrow();
            assertEquals("h3", loss.host());
            assertTrue(loss.message().startsWith("h3/rxe0: hw_counters/rcvd_seq_err +7"), loss.message());
            assertEquals(e == Expect.NONE ? Verdict.Level.FLAGGED : Verdict.Level.FAILED, loss.level());
            assertEquals(e == Expect.NONE ? 1 : 2, o.exitCode());
            // The matrix run that localizes it: h3 and its ring neighbours.
            assertEquals("rdma-perftest matrix --hosts h2,h3,h4 --device rxe0 --tools ib_write_bw", o.localize());
        }
    }

    @Test
    void noLossOnRxeIsOkAndItsMissingCongestionCountersAreNotJudgedNeverPassed() {
        FabricPlan p = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.ALLREDUCE;
            b.bytes = 12288;
            b.expect = Expect.PFC;
            b.priority = 3;
        }, Map.of());
        FabricOutcome o = FabricVerdicts.judge(p, ranks(p, 1, 2, 3));
        assertEquals(0, o.exitCode(), o.verdicts().toString());
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.OK, "loss", null,
                "no sequence error, retransmission or discard on 3 ranks")), o.verdicts().toString());
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.NOT_JUDGED, "congestion", "b",
                "not judged: b/rxe0 has no np_ecn_marked_roce_packets (rxe0 has no"
                        + " hw_counters/np_ecn_marked_roce_packets)")), o.verdicts().toString());
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.NOT_JUDGED, "pause", "c",
                "not judged: c/rxe0 has no rx_prio3_pause (eth0 (virtio_net) has no rx_prio3_pause)")),
                o.verdicts().toString());
        assertTrue(o.verdicts().stream().noneMatch(v -> v.level() == Verdict.Level.OK
                && (v.rule().equals("pause") || v.rule().equals("congestion"))));
    }

    @Test
    void aHostWithNoLossCounterAtAllIsNotJudgedNamingIt() {
        FabricPlan p = FabricFixtures.plan("a,b", b -> b.pattern = Pattern.BISECTION, Map.of());
        List<RankResult> r = ranks(p, 1, 1);
        for (String k : FabricVerdicts.LOSS) {
            FabricFixtures.delta(r.get(1).result(), "hw_counters/" + k, null);
        }
        FabricOutcome o = FabricVerdicts.judge(p, r);
        Verdict v = o.verdicts().stream().filter(x -> x.rule().equals("loss") && "b".equals(x.host())).findFirst()
                .orElseThrow();
        assertEquals(Verdict.Level.NOT_JUDGED, v.level());
        assertTrue(v.message().startsWith("not judged: b/rxe0 has no loss counter"), v.message());
    }

    @Test
    void wrongElementsFailNamingTheRank() {
        FabricPlan p = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.ALLREDUCE;
            b.bytes = 12288;
        }, Map.of());
        List<RankResult> r = ranks(p, 1, 1, 1);
        r.get(1).result().put("wrong", 12.0);
        FabricOutcome o = FabricVerdicts.judge(p, r);
        assertEquals(12L, o.figures().getFirst().wrong());
        assertEquals(2, o.exitCode());
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.FAILED, "#wrong", "b",
                "b/rxe0: 12 elements wrong (wrong data)")));
    }

    @Test
    void dcqcnIncastMarksWithoutHandledCnpsIsFlagged() {
        FabricPlan p = FabricFixtures.plan("gpu01,gpu02,gpu03", b -> {
            b.pattern = Pattern.INCAST;
            b.expect = Expect.DCQCN;
            b.priority = 3;
        }, Map.of());
        Map<String, Object> rcv = FabricFixtures.recorded("mlx5-incast-receiver.json");
        List<RankResult> r = new ArrayList<>();
        r.add(new RankResult(p.rail(0).get(0), 0, rcv, null, ""));
        for (int i = 1; i < 3; i++) {
            Map<String, Object> s = FabricFixtures.recorded("mlx5-incast-receiver.json");
            s.put("role", "sender");
            r.add(new RankResult(p.rail(0).get(i), 0, s, null, ""));
        }
        FabricOutcome o = FabricVerdicts.judge(p, r);
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.FLAGGED, "dcqcn", null,
                "1100 CNPs sent by gpu01/rxe0 but none handled by the senders")), o.verdicts().toString());
        assertEquals(1, o.exitCode());
        // Handled: ok.
        for (int i = 1; i < 3; i++) {
            FabricFixtures.delta(r.get(i).result(), "hw_counters/rp_cnp_handled", 500.0);
        }
        FabricOutcome ok = FabricVerdicts.judge(p, r);
        assertTrue(ok.verdicts().contains(new Verdict(Verdict.Level.OK, "dcqcn", null,
                "1200 marks, 1100 CNPs sent, 1000 handled by the senders")), ok.verdicts().toString());
        assertEquals(0, ok.exitCode());
    }

    @Test
    void busbwBelowMinPercentIsFlaggedAgainstTheSlowestNicAndUnknownRatesAreNotJudged() {
        // 100 Gb/s NICs, one at 25: expected 25/8 = 3.125 GB/s. bisection m = 1e6 B, t = 1000 us: 1 GB/s = 32%.
        FabricPlan p = FabricFixtures.plan("a,b", b -> {
            b.pattern = Pattern.BISECTION;
            b.bytes = 1_000_000;
            b.minPercent = 50;
        }, Map.of("a/rxe0", 100.0, "b/rxe0", 25.0));
        FabricOutcome o = FabricVerdicts.judge(p, ranks(p, 1000, 800));
        assertEquals(3.125, o.figures().getFirst().expectedGBps(), 1e-12);
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.FLAGGED, "busbw", "a", "rail 0: busbw 1.000 GB/s"
                + " is 32.0% of the expected 3.125 GB/s (--min-percent 50); slowest rank a/rxe0")), o.verdicts().toString());
        assertEquals(1, o.exitCode());
        FabricPlan unknown = FabricFixtures.plan("a,b", b -> {
            b.pattern = Pattern.BISECTION;
            b.bytes = 1_000_000;
            b.minPercent = 50;
        }, Map.of("a/rxe0", 100.0));
        FabricOutcome u = FabricVerdicts.judge(unknown, ranks(unknown, 1000, 800));
        Verdict v = u.verdicts().stream().filter(x -> x.rule().equals("busbw")).findFirst().orElseThrow();
        assertEquals(Verdict.Level.NOT_JUDGED, v.level());
        assertTrue(v.message().contains("no expected rate for b/rxe0"), v.message());
        assertNotNull(u.figures().getFirst().busbwGBps());
    }
    /**
     * With {@code --rate} the busbw is judged against what the capped senders offered when that is below the NICs:
     * incast f x rate, all-to-all and bisection the rate (docs/fabric-design.md §12).
     */
    @Test
    void withARateTheExpectedBusbwIsTheCappedOffer() {
        // incast, 2 senders at 4 Gb/s into 100 Gb/s NICs: expected 2 x 4 / 8 = 1 GB/s; m = 1e6 B, t = 4000 us: S =
        // 2e6 B, busbw 0.5 GB/s = 50%, below 60.
        FabricPlan p = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.INCAST;
            b.receiver = "a";
            b.bytes = 1_000_000;
            b.minPercent = 60;
            b.rate = io.rdmaffm.perftest.fabric.SendRate.parse("4G");
        }, Map.of("a/rxe0", 100.0, "b/rxe0", 100.0, "c/rxe0", 100.0));
        FabricOutcome o = FabricVerdicts.judge(p, ranks(p, 4000, 3900, 3900));
        RailFigures f = o.figures().getFirst();
        assertEquals(1.0, f.expectedGBps(), 1e-12);
        assertEquals("--rate 4 Gb/s x 2 senders / 8, below the slowest NIC's expected rate", f.expectedFrom());
        assertTrue(o.verdicts().contains(new Verdict(Verdict.Level.FLAGGED, "busbw", "a", "rail 0, target a: busbw 0.500 GB/s"
                + " is 50.0% of the expected 1.000 GB/s (--min-percent 60); slowest rank a/rxe0")), o.verdicts().toString());
        // all-to-all at 40 Gb/s per sender: expected 5 GB/s (not 12.5); a cap above a NIC leaves the NIC's figure.
        FabricPlan a = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.ALLTOALL;
            b.bytes = 1_000_000;
            b.rate = io.rdmaffm.perftest.fabric.SendRate.parse("40G");
        }, Map.of("a/rxe0", 100.0, "b/rxe0", 100.0, "c/rxe0", 100.0));
        assertEquals(5.0, FabricVerdicts.judge(a, ranks(a, 400, 400, 400)).figures().getFirst().expectedGBps(),
                1e-12);
        FabricPlan high = FabricFixtures.plan("a,b", b -> {
            b.pattern = Pattern.BISECTION;
            b.bytes = 1_000_000;
            b.rate = io.rdmaffm.perftest.fabric.SendRate.parse("100G");
        }, Map.of("a/rxe0", 25.0, "b/rxe0", 100.0));
        RailFigures h = FabricVerdicts.judge(high, ranks(high, 400, 400)).figures().getFirst();
        assertEquals(3.125, h.expectedGBps(), 1e-12);
        assertTrue(h.expectedFrom().startsWith("slowest NIC's"), h.expectedFrom());
    }
}
