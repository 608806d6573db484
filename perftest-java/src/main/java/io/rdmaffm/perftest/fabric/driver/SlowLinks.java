package io.rdmaffm.perftest.fabric.driver;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Ties a slow rank to its link (docs/fabric.md, "A slow link"), from the ranks' {@code link_send} and
 * {@code step_wait_us} alone (pure).
 *
 * <p>The judged figure is a link's own time: the writer's mean from posting a write to its completion, which
 * comes with the peer's ACK, so it holds the link's wire, switch and the peer's NIC, and nothing upstream. A step's
 * wait for the previous rank's data is shown too but not judged: a ring step sends what the step before received,
 * so a link's delay travels on to every rank downstream (in a 4-rank ring with one 40 ms link, the ranks after it
 * all waited ~40 ms per crossing and the slow link's own writer least: RingRankTest).
 *
 * <p>Rule, per rail: with at least {@value #MIN_LINKS} links measured, every rank's {@code link_send} present and
 * at least {@value #MIN_WRITES} timed writes on each link, a link is flagged when its mean exceeds {@code factor}
 * times the median of the other links' means and that median by {@value #MIN_EXCESS_US} µs or more (a ring of
 * near-zero times is not flagged for noise); when the link's writer retransmitted, the same finding is the loss
 * rule's, tied to the link. Otherwise "not judged", never passed.
 */
public final class SlowLinks {
    /** Below three links there are no "others" to compare one with. */
    static final int MIN_LINKS = 3;
    /** Timed writes per link below which a mean says too little. */
    static final int MIN_WRITES = 4;
    /** A link must exceed the others' median by this much too (µs). */
    static final double MIN_EXCESS_US = 1.0;

    private SlowLinks() {
    }

    /** One rail's links, writer by writer; null entries stand for a rank that gave no {@code link_send}. */
    static List<LinkFigure> figures(FabricPlan plan, List<RankResult> rail) {
        List<LinkFigure> out = new ArrayList<>();
        boolean ring = plan.request().pattern().ring();
        for (RankResult r : rail) {
            if (r.result() == null || !(r.result().get("link_send") instanceof List<?> sends)) {
                continue;
            }
            for (Object o : sends) {
                Map<String, Object> m = Fields.map(o);
                Double peer = Fields.number(m.get("peer"));
                Double writes = Fields.number(m.get("writes"));
                Double mean = Fields.number(m.get("mean_us"));
                if (peer == null || peer < 0 || peer >= rail.size() || writes == null) {
                    continue;
                }
                RankResult to = rail.get(peer.intValue());
                out.add(new LinkFigure(r.rank().rail(), r.rank().rank(), to.rank().rank(), r.rank().where(),
                        to.rank().where(), mean, writes.longValue(), ring ? meanWait(to) : null));
            }
        }
        return out;
    }

    /** A rank's mean step wait (µs), or null when it gave none. */
    private static Double meanWait(RankResult r) {
        if (!(r.result().get("step_wait_us") instanceof List<?> l) || l.isEmpty()) {
            return null;
        }
        double sum = 0;
        for (Object o : l) {
            Double d = Fields.number(o);
            if (d == null) {
                return null;
            }
            sum += d;
        }
        return sum / l.size();
    }

    /** The rule's verdicts for one rail's links. */
    static void judge(FabricPlan plan, int rail, List<RankResult> ranks, List<LinkFigure> links, List<Verdict> v) {
        double factor = plan.request().slowLinkFactor();
        String f = FabricVerdicts.trim(factor);
        List<String> silent = ranks.stream().filter(r -> r.result() != null && !"idle".equals(r.role())
                && !"receiver".equals(r.role()) && !(r.result().get("link_send") instanceof List<?>))
                .map(r -> r.rank().where()).toList();
        if (!silent.isEmpty() || ranks.stream().anyMatch(r -> !r.ok())) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, "slow-link", null, "not judged: rail " + rail + ": "
                    + (silent.isEmpty() ? "a rank failed" : "no link times from " + String.join(", ", silent))));
            return;
        }
        if (links.size() < MIN_LINKS) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, "slow-link", null, "not judged: rail " + rail + ": "
                    + links.size() + " links, too few to compare one with the others (needs " + MIN_LINKS + ")"));
            return;
        }
        long fewest = links.stream().mapToLong(LinkFigure::writes).min().orElse(0);
        if (fewest < MIN_WRITES || links.stream().anyMatch(x -> x.sendUs() == null)) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, "slow-link", null, "not judged: rail " + rail + ": "
                    + fewest + " timed writes on a link, too few (needs " + MIN_WRITES + "; raise --iters)"));
            return;
        }
        Map<Integer, RankResult> byRank = new java.util.HashMap<>();
        ranks.forEach(r -> byRank.put(r.rank().rank(), r));
        boolean flagged = false;
        double worst = 0;
        LinkFigure worstLink = null;
        for (LinkFigure x : links) {
            double m = medianOfOthers(links, x);
            double ratio = m > 0 ? x.sendUs() / m : x.sendUs() > 0 ? Double.POSITIVE_INFINITY : 1;
            if (x.sendUs() > factor * m && x.sendUs() - m >= MIN_EXCESS_US) {
                flagged = true;
                // A writer that retransmitted waited for its timer: the link is slow because it loses packets, which
                // is the loss rule's finding, here tied to its link.
                RankResult writer = byRank.get(x.from());
                Map<String, Long> lost = writer == null ? Map.of() : FabricVerdicts.counters(writer, FabricVerdicts.LOSS);
                List<String> rose = lost.entrySet().stream().filter(e -> e.getValue() > 0)
                        .map(e -> e.getKey() + " +" + e.getValue()).toList();
                v.add(new Verdict(Verdict.Level.FLAGGED, rose.isEmpty() ? "slow-link" : "loss", host(x.fromWhere()),
                        String.format(Locale.ROOT, "rail %d: link %s (rank %d -> %d): a write took %.3f us to"
                        + " complete, %s the other links' median %.3f us (--slow-link-factor %s)%s", rail, x.name(),
                        x.from(), x.to(), x.sendUs(), m > 0 ? String.format(Locale.ROOT, "%.1fx", ratio) : "above",
                        m, f, rose.isEmpty() ? "" : "; its writer retransmitted (" + String.join(", ", rose)
                        + "): a lossy link")));
            } else if (worstLink == null || ratio > worst) {
                worst = ratio;
                worstLink = x;
            }
        }
        if (!flagged && worstLink != null) {
            v.add(new Verdict(Verdict.Level.OK, "slow-link", null, String.format(Locale.ROOT, "rail %d: %d links, no"
                    + " write time above %sx the others' median (highest %.2fx, %s)", rail, links.size(), f, worst,
                    worstLink.name())));
        }
    }

    private static double medianOfOthers(List<LinkFigure> links, LinkFigure self) {
        double[] o = links.stream().filter(x -> x != self).mapToDouble(LinkFigure::sendUs).sorted().toArray();
        int k = o.length / 2;
        return o.length % 2 == 1 ? o[k] : (o[k - 1] + o[k]) / 2;
    }

    private static String host(String where) {
        int slash = where.indexOf('/');
        return slash < 0 ? where : where.substring(0, slash);
    }
}
