package io.rdmaffm.perftest.fabric.driver;

import java.util.List;

/**
 * A fabric run's end: every rank's result, the figures per rail, the verdicts, and when something is wrong the
 * {@code matrix} command that would localize it.
 *
 * @param plan     what ran
 * @param ranks    each rank's end, in plan order
 * @param figures  per rail
 * @param links    the ring links' figures, every rail's (empty for patterns without a ring)
 * @param verdicts every rule, judged or not
 * @param localize the matrix command line to run next, or null when nothing is wrong
 */
public record FabricOutcome(FabricPlan plan, List<RankResult> ranks, List<RailFigures> figures,
        List<LinkFigure> links, List<Verdict> verdicts, String localize) {

    /** Copies the lists. */
    public FabricOutcome {
        ranks = List.copyOf(ranks);
        figures = List.copyOf(figures);
        links = List.copyOf(links);
        verdicts = List.copyOf(verdicts);
    }

    /** As the matrix's: 0 all good, 1 something flagged, 2 something failed. */
    public int exitCode() {
        Verdict.Level worst = worst();
        return worst == Verdict.Level.FAILED ? 2 : worst == Verdict.Level.FLAGGED ? 1 : 0;
    }

    /** The worst level among the verdicts. */
    public Verdict.Level worst() {
        Verdict.Level w = Verdict.Level.OK;
        for (Verdict v : verdicts) {
            if (v.level() == Verdict.Level.FAILED || (v.level() == Verdict.Level.FLAGGED && w != Verdict.Level.FAILED)) {
                w = v.level();
            }
        }
        return w;
    }

    /** How many verdicts have {@code level}. */
    public long count(Verdict.Level level) {
        return verdicts.stream().filter(v -> v.level() == level).count();
    }
}
