package io.rdmaffm.perftest.fabric.driver;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code loss-outlier} rule (docs/fabric.md, "Which host's link loses packets"): the host whose link loses
 * packets is the one whose retransmissions stand out from the other ranks', not merely one whose retransmissions
 * rose. A fabric that is not lossless (or an emulated segment) makes every host retransmit a little; the
 * {@code loss} rule flags all of them, this one names the host that is worse than its peers.
 *
 * <p>Per rail, each rank that sent data gets a rate: its requester-side retransmission counters' deltas
 * ({@link #RETRANSMIT}: a packet it sent was lost, on the way out or as the peer's ACK) per MiB it sent
 * ({@code bytes_sent}), so that ranks sending unequal amounts (incast's senders and receiver) compare fairly. A
 * rank is named when its rate is at least {@link Rule#factor} times the median rate of the rail's other ranks
 * that sent data and it retransmitted at least {@link Rule#min} times (so that three retransmissions against one
 * are no outlier). Responder-side counters (out_of_sequence, duplicate_request) are left out on purpose: a loss
 * on X's way out shows as out-of-sequence at X's receiver, which would name the wrong end. Loss on a host's way in
 * therefore shows as retransmissions of the hosts sending to it, which the rule names instead: the matrix run the
 * report suggests (the named host and its ring neighbours) tells the two apart. Pure: no clock, no I/O.
 */
public final class LossOutliers {
    /** Requester-side retransmission: mlx5's names, then rxe's. */
    static final List<String> RETRANSMIT = List.of("packet_seq_err", "implied_nak_seq_err", "local_ack_timeout_err",
            "rcvd_seq_err", "completer_retry_err", "retry_exceeded_err");
    static final String RULE = "loss-outlier";
    private static final double MIB = 1 << 20;

    /**
     * The rule's two parameters ({@code --loss-outlier FACTOR,MIN}).
     *
     * @param factor a rank's retransmissions per MiB sent must be at least this many times the median of the
     *               other ranks'
     * @param min    and at least this many retransmissions in all
     */
    public record Rule(double factor, long min) {
        /** The default: 4 times the others' median and at least 20 retransmissions. */
        public static final Rule DEFAULT = new Rule(4, 20);

        /** Checks the values. */
        public Rule {
            if (!(factor > 1) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException("the factor must be a number above 1, got " + factor);
            }
            if (min < 1) {
                throw new IllegalArgumentException("the minimum count must be at least 1, got " + min);
            }
        }

        /**
         * Parses {@code FACTOR,MIN} (e.g. "4,20") or {@code FACTOR} alone (the default minimum).
         *
         * @throws IllegalArgumentException with one line saying what is wrong
         */
        public static Rule parse(String s) {
            String[] p = s.split(",", -1);
            if (p.length > 2) {
                throw new IllegalArgumentException("expected FACTOR or FACTOR,MIN (e.g. 4,20), got '" + s + "'");
            }
            try {
                return new Rule(Double.parseDouble(p[0].strip()), p.length == 2 ? Long.parseLong(p[1].strip())
                        : DEFAULT.min);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected FACTOR or FACTOR,MIN (e.g. 4,20), got '" + s + "'");
            }
        }

        /** As the command line takes it. */
        public String cli() {
            return FabricVerdicts.trim(factor) + "," + min;
        }
    }

    private LossOutliers() {
    }

    /** One rank's retransmissions and what it sent. */
    private record Score(RankResult rank, long retransmitted, double rate) {
    }

    /** Adds the rule's verdicts for {@code ranks} (every rail) to {@code v}. */
    static void judge(FabricPlan plan, List<RankResult> ranks, List<Verdict> v) {
        Rule rule = plan.request().lossOutliers();
        for (int rail = 0; rail < plan.rails(); rail++) {
            int r = rail;
            judgeRail(rule, ranks.stream().filter(x -> x.rank().rail() == r).toList(), plan.rails() > 1, v);
        }
    }

    private static void judgeRail(Rule rule, List<RankResult> rail, boolean sayRail, List<Verdict> v) {
        List<Score> scores = new ArrayList<>();
        for (RankResult r : rail) {
            Double sent = r.number("bytes_sent");
            Map<String, Long> c = FabricVerdicts.counters(r, RETRANSMIT);
            if (r.result() == null || c.isEmpty() || sent == null || !(sent > 0)) {
                continue;
            }
            long n = c.values().stream().mapToLong(Long::longValue).sum();
            scores.add(new Score(r, n, n / (sent / MIB)));
        }
        String where = sayRail && !rail.isEmpty() ? "rail " + rail.getFirst().rank().rail() + ": " : "";
        if (scores.size() < 2) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, RULE, null, "not judged: " + where + scores.size()
                    + " rank" + (scores.size() == 1 ? "" : "s") + " sent data with a retransmission counter; the"
                    + " rule compares a rank with the others"));
            return;
        }
        int named = 0;
        for (Score s : scores) {
            double[] others = scores.stream().filter(o -> o != s).mapToDouble(Score::rate).toArray();
            double median = median(others);
            if (s.retransmitted >= rule.min() && s.rate >= rule.factor() * median) {
                named++;
                v.add(new Verdict(Verdict.Level.FLAGGED, RULE, s.rank.rank().host(), String.format(Locale.ROOT,
                        "%s: %d retransmissions (%s), %.1f per MiB sent: %s the other ranks' median %.1f"
                        + " (rule: at least %s times it and %d in all; --loss-outlier %s): the loss is on this host's"
                        + " link", s.rank.rank().where(), s.retransmitted, rose(s.rank), s.rate,
                        median > 0 ? String.format(Locale.ROOT, "%.1f times", s.rate / median) : "above",
                        median, FabricVerdicts.trim(rule.factor()), rule.min(), rule.cli())));
            }
        }
        if (named == 0) {
            Score top = scores.stream().max((a, b) -> Double.compare(a.rate, b.rate)).orElseThrow();
            v.add(new Verdict(Verdict.Level.OK, RULE, null, String.format(Locale.ROOT, "%sno rank's retransmissions"
                    + " stand out of %d (most: %s, %d, %.1f per MiB sent; rule: at least %s times the others' median"
                    + " and %d in all)", where, scores.size(), top.rank.rank().where(), top.retransmitted, top.rate,
                    FabricVerdicts.trim(rule.factor()), rule.min())));
        }
    }

    /** The retransmission counters that rose, "name +d". */
    private static String rose(RankResult r) {
        List<String> out = new ArrayList<>();
        FabricVerdicts.counters(r, RETRANSMIT).forEach((k, d) -> {
            if (d > 0) {
                out.add(k.substring(k.lastIndexOf('/') + 1) + " +" + d);
            }
        });
        return String.join(", ", out);
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
