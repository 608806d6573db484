package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The pure outlier rules and the node-versus-link roll-up. */
class RulesAndRollupTest {
    private static final OutlierRules CLUSTERKIT = new OutlierRules(0.93, 2.1, Double.NaN, Map.of());

    static Attempt ok(String a, String b, double bw, double lat) {
        return new Attempt(new RailTest(0, a, b, 0, null, null, 18515), 1, null, bw, lat, List.of());
    }

    static Attempt failed(String a, String b, Failure.Kind kind, String host) {
        return new Attempt(new RailTest(0, a, b, 0, null, null, 18515), 1, new Failure(kind, host, "why"),
                Double.NaN, Double.NaN, List.of());
    }

    private static List<OutlierRules.Rule> rules(List<OutlierRules.Flag> flags) {
        return flags.stream().map(OutlierRules.Flag::rule).toList();
    }

    @Test
    void relativeRulesAgainstTheBestPair() {
        List<Attempt> all = List.of(ok("a", "b", 100, 2.0), ok("a", "c", 93.5, 4.1), ok("b", "c", 92.9, 4.3),
                failed("a", "d", Failure.Kind.STALLED, null));
        OutlierRules.Best best = OutlierRules.best(all);
        assertEquals(new OutlierRules.Best(100, 2.0), best);
        assertEquals(List.of(), CLUSTERKIT.flags(all.get(0), best));
        assertEquals(List.of(), CLUSTERKIT.flags(all.get(1), best), "93.5 >= 93, 4.1 <= 4.2");
        List<OutlierRules.Flag> f = CLUSTERKIT.flags(all.get(2), best);
        assertEquals(List.of(OutlierRules.Rule.BW_BELOW_BEST, OutlierRules.Rule.LAT_ABOVE_BEST), rules(f));
        assertEquals("bw 92.90 Gb/s < 93% of best 100.00", f.get(0).message());
        assertEquals("lat 4.30 us > 2.1x best 2.00", f.get(1).message());
        assertEquals(List.of(), CLUSTERKIT.flags(all.get(3), best), "a failure is not an outlier");
        OutlierRules off = new OutlierRules(Double.NaN, 0, Double.NaN, Map.of());
        assertEquals(List.of(), off.flags(all.get(2), best));
    }

    @Test
    void absoluteRuleAgainstTheSlowerEndsLink() {
        OutlierRules r = new OutlierRules(0.93, 2.1, 90, Map.of("a", 100.0, "b/mlx5_0", 200.0, "b", 25.0));
        Attempt ab = new Attempt(new RailTest(0, "a", "b", 0, "mlx5_0", "mlx5_0", 1), 1, null, 89, 2, List.of());
        assertEquals(100.0, r.expectedGbps(ab.test()), "slower end: a at 100, b/mlx5_0 at 200");
        List<OutlierRules.Flag> f = r.flags(ab, new OutlierRules.Best(89, 2));
        assertEquals(List.of(OutlierRules.Rule.BW_BELOW_LINK), rules(f), "one pair: only the absolute rule");
        assertEquals("bw 89.00 Gb/s < 90% of link 100 Gb/s", f.get(0).message());
        Attempt other = new Attempt(new RailTest(0, "a", "b", 1, "mlx5_1", "mlx5_1", 1), 1, null, 89, 2, List.of());
        assertEquals(25.0, r.expectedGbps(other.test()), "b's host-wide rate for its other NIC");
        assertEquals(List.of(), r.flags(other, new OutlierRules.Best(89, 2)));
        Attempt unknown = new Attempt(new RailTest(0, "a", "c", 0, null, null, 1), 1, null, 1, 2, List.of());
        assertTrue(Double.isNaN(r.expectedGbps(unknown.test())));
    }

    /** The production verdict stage, every attempt a first one, no retests. */
    private static HostRollup.Rollup rollup(List<String> hosts, List<Attempt> attempts) {
        return Verdicts.judge(hosts, CLUSTERKIT, attempts, Map.of()).rollup();
    }

    private static HostRollup.Verdict of(HostRollup.Rollup r, String host) {
        return r.ends().stream().filter(e -> e.host().equals(host)).findFirst().orElseThrow().verdict();
    }

    @Test
    void verdictsJudgeTheLastAttemptAgainstTheBestOfTheLastAttempts() {
        Attempt ab = ok("a", "b", 50, 2);
        Attempt ac = failed("a", "c", Failure.Kind.STALLED, "c");
        Attempt bc = ok("b", "c", 98, 2);
        Attempt ad = ok("a", "d", 60, 2);
        Attempt abAgain = new Attempt(ab.test(), 2, null, 97, 2, List.of());
        Attempt acAgain = new Attempt(ac.test(), 2, null, 99, 2, List.of());
        Attempt adAgain = new Attempt(ad.test(), 2, null, 61, 2, List.of());
        Verdicts v = Verdicts.judge(List.of("a", "b", "c", "d"), CLUSTERKIT, List.of(ab, ac, bc, ad),
                Map.of(ab.test(), abAgain, ac.test(), acAgain, ad.test(), adAgain));
        assertEquals(new OutlierRules.Best(99, 2), v.best(), "the best of the last attempts, retests included");
        assertEquals(List.of(PairResult.Status.OK_ON_RETEST, PairResult.Status.OK_ON_RETEST, PairResult.Status.OK,
                PairResult.Status.FLAGGED), v.results().stream().map(PairResult::status).toList());
        assertEquals(ab, v.results().getFirst().first());
        assertEquals(abAgain, v.results().getFirst().last());
        assertEquals(null, v.results().get(2).retest());
        assertEquals(List.of(OutlierRules.Rule.BW_BELOW_BEST), rules(v.results().get(3).flags()));
        Verdicts failedAgain = Verdicts.judge(List.of("a", "c"), CLUSTERKIT, List.of(ac),
                Map.of(ac.test(), new Attempt(ac.test(), 2, new Failure(Failure.Kind.UNREACHABLE, "c", "down"),
                        Double.NaN, Double.NaN, List.of())));
        assertEquals(PairResult.Status.FAILED, failedAgain.results().getFirst().status());
        assertEquals(HostRollup.Verdict.HOST_FAILED, of(failedAgain.rollup(), "c"));
    }

    @Test
    void aHostSlowWithEveryPeerIsANodeProblem() {
        List<Attempt> all = List.of(ok("a", "b", 98, 2), ok("a", "c", 97, 2), ok("b", "c", 98, 2),
                ok("a", "d", 60, 2), ok("b", "d", 61, 2), ok("c", "d", 59, 2));
        HostRollup.Rollup r = rollup(List.of("a", "b", "c", "d"), all);
        assertEquals(HostRollup.Verdict.NODE, of(r, "d"));
        assertEquals(HostRollup.Verdict.SOME_PAIRS, of(r, "a"));
        assertEquals("bad with 3 of 3 peers: node problem (NIC, PCIe, cable or switch port)",
                r.ends().get(3).reason());
        assertEquals("node d", r.causes().get(all.get(3).test()));
        assertEquals(3, r.causes().size());
    }

    @Test
    void aSinglePairSlowIsALinkProblem() {
        List<Attempt> all = List.of(ok("a", "b", 98, 2), ok("a", "c", 97, 2), ok("b", "c", 98, 2),
                ok("a", "d", 98, 2), ok("b", "d", 50, 2), ok("c", "d", 97, 2));
        HostRollup.Rollup r = rollup(List.of("a", "b", "c", "d"), all);
        assertEquals(HostRollup.Verdict.SOME_PAIRS, of(r, "b"));
        assertEquals(HostRollup.Verdict.SOME_PAIRS, of(r, "d"));
        assertEquals(HostRollup.Verdict.OK, of(r, "a"));
        assertEquals("link or route between b and d", r.causes().get(all.get(4).test()));
    }

    @Test
    void twoSlowNodesDoNotMakeTheGoodOnesNodes() {
        // a and b good; c and d slow: a is bad with 2 of its 3 peers (67%), below the 75% of a node problem.
        List<Attempt> all = List.of(ok("a", "b", 98, 2), ok("a", "c", 60, 2), ok("a", "d", 60, 2),
                ok("b", "c", 60, 2), ok("b", "d", 60, 2), ok("c", "d", 55, 2));
        HostRollup.Rollup r = rollup(List.of("a", "b", "c", "d"), all);
        assertEquals(List.of(HostRollup.Verdict.SOME_PAIRS, HostRollup.Verdict.SOME_PAIRS, HostRollup.Verdict.NODE,
                HostRollup.Verdict.NODE), r.ends().stream().map(HostRollup.EndVerdict::verdict).toList());
        assertEquals("nodes c and d", r.causes().get(all.get(5).test()));
    }

    @Test
    void hostFailuresAreBlamedAndDoNotCountAgainstThePeers() {
        List<Attempt> all = List.of(ok("a", "b", 98, 2), failed("a", "c", Failure.Kind.UNREACHABLE, "c"),
                failed("b", "c", Failure.Kind.UNREACHABLE, "c"), ok("a", "d", 98, 2),
                failed("b", "d", Failure.Kind.RUN_FAILED, null), failed("c", "d", Failure.Kind.UNREACHABLE, "c"));
        HostRollup.Rollup r = rollup(List.of("a", "b", "c", "d"), all);
        assertEquals(HostRollup.Verdict.HOST_FAILED, of(r, "c"));
        assertEquals("unreachable: why", r.ends().get(2).reason());
        assertEquals(HostRollup.Verdict.OK, of(r, "a"), "c's failures say nothing about a");
        assertEquals(HostRollup.Verdict.SOME_PAIRS, of(r, "b"));
        assertEquals("host c (unreachable)", r.causes().get(all.get(1).test()));
        assertEquals("link or route between b and d", r.causes().get(all.get(4).test()));
    }

    @Test
    void withOnlyOnePeerNodeAndLinkCannotBeToldApart() {
        List<Attempt> all = List.of(ok("a", "b", 98, 2), ok("c", "d", 50, 2));
        HostRollup.Rollup r = rollup(List.of("a", "b", "c", "d"), all);
        assertEquals(HostRollup.Verdict.SUSPECT, of(r, "c"));
        assertEquals("node or link (each end has only this peer)", r.causes().get(all.get(1).test()));
    }

    /** An emulated or broken link gives figures below 1 Gb/s: they keep three significant digits, not "0.0". */
    @Test
    void figuresBelowOneKeepThreeSignificantDigits() {
        assertEquals("0.0239", MatrixReport.fmt(0.02391, 1));
        assertEquals("0.00528", MatrixReport.fmt(0.00528482304, 2));
        assertEquals("0.500", MatrixReport.fmt(0.5, 1));
        assertEquals("50.0", MatrixReport.fmt(50.04, 1));
        assertEquals("0.0", MatrixReport.fmt(0.0, 1));
        assertEquals("", MatrixReport.fmt(Double.NaN, 2));
        List<OutlierRules.Flag> flags = CLUSTERKIT.flags(ok("a", "b", 0.00528, Double.NaN),
                new OutlierRules.Best(0.0275, Double.NaN));
        assertEquals("bw 0.00528 Gb/s < 93% of best 0.0275", flags.getFirst().message());
    }
}
