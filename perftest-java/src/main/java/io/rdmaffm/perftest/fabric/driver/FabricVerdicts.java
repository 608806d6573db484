package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Failure;
import io.rdmaffm.perftest.cluster.Names;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The figures and rules of docs/fabric-design.md §5 and §7, from the ranks' results alone (pure: no clock, no
 * I/O). A rule that needs a counter a host lacks is "not judged" naming the host and the counter, never passed.
 */
public final class FabricVerdicts {
    /** Sequence errors and retransmission: mlx5's names, then rxe's. */
    static final List<String> LOSS = List.of("out_of_sequence", "packet_seq_err", "implied_nak_seq_err",
            "local_ack_timeout_err", "rcvd_seq_err", "completer_retry_err", "retry_exceeded_err");
    static final String MARKS = "np_ecn_marked_roce_packets";
    static final String CNP_SENT = "np_cnp_sent";
    static final String CNP_HANDLED = "rp_cnp_handled";

    private FabricVerdicts() {
    }

    /** The outcome of a run from its ranks' ends. */
    public static FabricOutcome judge(FabricPlan plan, List<RankResult> ranks) {
        List<RailFigures> figures = new ArrayList<>();
        List<List<LinkFigure>> links = new ArrayList<>();
        for (int rail = 0; rail < plan.rails(); rail++) {
            int r = rail;
            List<RankResult> of = ranks.stream().filter(x -> x.rank().rail() == r)
                    .sorted(java.util.Comparator.comparingInt(x -> x.rank().rank())).toList();
            for (FabricPlan.Case c : plan.cases()) {
                figures.add(figures(plan, of, c));
            }
            links.add(SlowLinks.figures(plan, of));
        }
        List<Verdict> v = new ArrayList<>();
        failures(ranks, v);
        wrong(plan, ranks, v);
        loss(plan, ranks, v);
        LossOutliers.judge(plan, ranks, v);
        congestion(plan, ranks, v);
        busbw(plan, figures, v);
        for (int rail = 0; rail < plan.rails(); rail++) {
            int r = rail;
            SlowLinks.judge(plan, rail, ranks.stream().filter(x -> x.rank().rail() == r).toList(), links.get(rail), v);
        }
        String localize = localize(plan, v);
        return new FabricOutcome(plan, ranks, figures, links.stream().flatMap(List::stream).toList(), v, localize);
    }

    /** One rail's figures (§5) for the run's one case (a single size, one target). */
    static RailFigures figures(FabricPlan plan, List<RankResult> rail) {
        return figures(plan, rail, plan.cases().getFirst());
    }

    /** One rail's figures (§5) for one case: every rank's entry for that size and target. */
    static RailFigures figures(FabricPlan plan, List<RankResult> rail, FabricPlan.Case c) {
        FabricRequest o = plan.request();
        int n = plan.n();
        double s = o.pattern().algBytes(c.bytes(), n, plan.senders());
        double factor = o.pattern().busFactor(n);
        Double t = null;
        String slowest = null;
        boolean complete = true;
        long wrong = 0;
        boolean wrongKnown = o.pattern().ring();
        for (RankResult r : rail) {
            Map<String, Object> k = r.caseResult(c.bytes(), c.target());
            Double mean = k == null ? null : Fields.number(Fields.path(k, "time_us", "mean"));
            boolean idle = "idle".equals(r.role());
            if (!r.ok() || (mean == null && !idle)) {
                complete = false;
            } else if (mean != null && !idle && (t == null || mean > t)) {
                t = mean;
                slowest = r.rank().where();
            }
            Double w = k == null ? null : Fields.number(k.get("wrong"));
            if (w == null) {
                wrongKnown = false;
            } else {
                wrong += w.longValue();
            }
        }
        if (!complete || t == null || !(t > 0)) {
            t = null;
            slowest = null;
        }
        Double alg = t == null ? null : s / (t * 1e3);
        Double bus = alg == null ? null : alg * factor;
        Double expected = null;
        String from;
        List<String> unknown = new ArrayList<>();
        for (RankResult r : rail) {
            Double gbps = plan.discovered().linkGbps().get(r.rank().host() + "/" + r.rank().device());
            if (gbps == null) {
                unknown.add(r.rank().where());
            } else {
                expected = expected == null ? gbps / 8 : Math.min(expected, gbps / 8);
            }
        }
        if (unknown.isEmpty() && expected != null) {
            from = "slowest NIC's expected rate / 8 (port rate capped by PCIe, each host's doctor)";
            if (o.rate() != null) {
                // With --rate the senders offer at most the cap: busbw is judged against what they offered.
                double capped = o.pattern().cappedBusGbps(o.rate().gbps(), plan.senders()) / 8;
                if (capped < expected) {
                    expected = capped;
                    from = "--rate " + o.rate().text() + (o.pattern() == Pattern.INCAST ? " x " + plan.senders()
                            + " senders" : " per sender") + " / 8, below the slowest NIC's expected rate";
                }
            }
        } else {
            expected = null;
            from = "unknown: no expected rate for " + String.join(", ", unknown)
                    + (plan.discovered().answers().isEmpty() ? " (hosts not asked: --device given)" : "");
        }
        return new RailFigures(rail.isEmpty() ? 0 : rail.getFirst().rank().rail(), n, c.bytes(), s, t, slowest,
                alg, factor, bus, wrongKnown ? wrong : null, expected, from, c.target() < 0 ? null
                : plan.hosts().get(c.target()));
    }

    /**
     * Every rank that did not end well. A rank whose own run failed (its result names an error) while another
     * rank's host is to blame (unreachable, missing tool, silent, hung) is listed as a consequence of those.
     */
    private static void failures(List<RankResult> ranks, List<Verdict> v) {
        List<String> causes = ranks.stream().filter(r -> !r.ok() && r.failure().host() != null)
                .map(r -> r.failure().host()).distinct().toList();
        for (RankResult r : ranks) {
            if (!r.ok()) {
                Failure f = r.failure();
                boolean consequence = f.host() == null && !causes.isEmpty();
                v.add(new Verdict(Verdict.Level.FAILED, f.kind().name(), f.host() != null ? f.host()
                        : r.rank().host(), r.rank().where() + ": " + f.kind().label() + ": " + f.message()
                        + (consequence ? " (a consequence; the cause: " + String.join(", ", causes) + ")" : "")));
            }
        }
    }

    private static void wrong(FabricPlan plan, List<RankResult> ranks, List<Verdict> v) {
        if (!plan.request().pattern().ring()) {
            return;
        }
        long total = 0;
        List<String> silent = new ArrayList<>();
        for (RankResult r : ranks) {
            Double w = r.number("wrong");
            if (w == null) {
                if (r.result() != null) {
                    silent.add(r.rank().where());
                }
                continue;
            }
            total += w.longValue();
            if (w > 0) {
                v.add(new Verdict(Verdict.Level.FAILED, "#wrong", r.rank().host(), r.rank().where() + ": "
                        + w.longValue() + " elements wrong (wrong data)"));
            }
        }
        if (!silent.isEmpty()) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, "#wrong", null, "not judged: " + String.join(", ", silent)
                    + " gave no #wrong"));
        } else if (total == 0 && ranks.stream().allMatch(RankResult::ok)) {
            v.add(new Verdict(Verdict.Level.OK, "#wrong", null, "0 elements wrong on " + ranks.size() + " ranks"));
        }
    }

    /** Loss = any rise of a sequence-error or retransmission counter, or a discard on the lossless priority. */
    private static void loss(FabricPlan plan, List<RankResult> ranks, List<Verdict> v) {
        Expect e = plan.request().expect();
        Integer prio = plan.request().priority();
        List<String> names = new ArrayList<>(LOSS);
        if (prio != null) {
            names.addAll(List.of("rx_prio" + prio + "_discards", "rx_prio" + prio + "_buf_discard",
                    "rx_prio" + prio + "_cong_discard"));
        }
        int judged = 0;
        for (RankResult r : ranks) {
            if (r.result() == null) {
                continue;
            }
            Map<String, Long> seen = counters(r, names);
            if (seen.isEmpty()) {
                v.add(new Verdict(Verdict.Level.NOT_JUDGED, "loss", r.rank().host(), "not judged: "
                        + r.rank().where() + " has no loss counter (" + String.join(", ", LOSS) + ")"));
                continue;
            }
            judged++;
            List<String> rose = seen.entrySet().stream().filter(x -> x.getValue() > 0)
                    .map(x -> x.getKey() + " +" + x.getValue()).toList();
            if (!rose.isEmpty()) {
                boolean lossless = e != Expect.NONE;
                v.add(new Verdict(lossless ? Verdict.Level.FAILED : Verdict.Level.FLAGGED, "loss", r.rank().host(),
                        r.rank().where() + ": " + String.join(", ", rose) + (lossless ? " on a fabric set up lossless"
                        + " (--expect " + e.cli() + ")" : " (loss and retransmission: RoCE on a fabric not set up"
                        + " lossless, --expect none)")));
            }
        }
        if (judged > 0 && v.stream().noneMatch(x -> x.rule().equals("loss") && x.level() != Verdict.Level.NOT_JUDGED)) {
            v.add(new Verdict(Verdict.Level.OK, "loss", null, "no sequence error, retransmission or discard on "
                    + judged + " ranks"));
        }
    }

    private static void congestion(FabricPlan plan, List<RankResult> ranks, List<Verdict> v) {
        FabricRequest o = plan.request();
        if (o.expect() == Expect.NONE) {
            v.add(new Verdict(Verdict.Level.NOT_JUDGED, "congestion", null, "ECN marks, CNPs and pauses reported,"
                    + " not judged (--expect none)"));
            return;
        }
        Integer prio = o.priority();
        List<String> pauses = prio == null ? List.of() : List.of("rx_prio" + prio + "_pause", "tx_prio" + prio
                + "_pause");
        if (!o.pattern().congests()) {
            // No congestion offered: marks, CNPs or pauses mean an oversubscribed or mis-hashed path.
            for (RankResult r : ranks) {
                if (r.result() == null) {
                    continue;
                }
                List<String> rose = new ArrayList<>();
                for (String group : List.of(MARKS, CNP_SENT, CNP_HANDLED)) {
                    Map<String, Long> c = counters(r, List.of(group));
                    if (c.isEmpty()) {
                        v.add(notJudged("congestion", r, group));
                    }
                    c.forEach((k, x) -> {
                        if (x > 0) {
                            rose.add(k + " +" + x);
                        }
                    });
                }
                if (prio == null) {
                    v.add(new Verdict(Verdict.Level.NOT_JUDGED, "pause", r.rank().host(), "not judged: no --priority"
                            + " given, so no pause counter to read on " + r.rank().where()));
                } else {
                    Map<String, Long> c = counters(r, pauses);
                    if (c.isEmpty()) {
                        v.add(notJudged("pause", r, pauses.getFirst()));
                    }
                    c.forEach((k, x) -> {
                        if (x > 0) {
                            rose.add(k + " +" + x);
                        }
                    });
                }
                if (!rose.isEmpty()) {
                    v.add(new Verdict(Verdict.Level.FLAGGED, "congestion", r.rank().host(), r.rank().where() + ": "
                            + String.join(", ", rose) + ": congestion where none was offered (an oversubscribed or"
                            + " mis-hashed path)"));
                }
            }
            return;
        }
        // Rotating, every host is a target once and a sender the other times: the counters span the whole run.
        List<RankResult> senders = ranks.stream().filter(r -> r.result() != null && plan.sends(r.rank().rank()))
                .toList();
        List<RankResult> receivers = ranks.stream().filter(r -> r.result() != null
                && plan.receives(r.rank().rank())).toList();
        if (o.expect() == Expect.PFC) {
            if (prio == null) {
                v.add(new Verdict(Verdict.Level.NOT_JUDGED, "pfc", null, "not judged: incast --expect pfc needs"
                        + " --priority (the lossless priority whose pauses to read)"));
                return;
            }
            String name = "rx_prio" + prio + "_pause";
            long sum = 0;
            boolean any = false;
            for (RankResult s : senders) {
                Map<String, Long> c = counters(s, List.of(name));
                if (c.isEmpty()) {
                    v.add(notJudged("pfc", s, name));
                } else {
                    any = true;
                    sum += c.values().stream().mapToLong(Long::longValue).sum();
                }
            }
            if (any) {
                v.add(sum > 0 ? new Verdict(Verdict.Level.OK, "pfc", null, "senders received " + sum + " pause frames"
                        + " on priority " + prio) : new Verdict(Verdict.Level.FLAGGED, "pfc", null, "no pause at all"
                        + " on priority " + prio + " (fan-in too low to congest, or PFC off on that priority)"));
            }
            return;
        }
        // DCQCN: the receiver's marks answered by its CNPs, and the senders handling them.
        for (RankResult rcv : receivers) {
            Map<String, Long> marks = counters(rcv, List.of(MARKS));
            Map<String, Long> sent = counters(rcv, List.of(CNP_SENT));
            if (marks.isEmpty() || sent.isEmpty()) {
                v.add(notJudged("dcqcn", rcv, marks.isEmpty() ? MARKS : CNP_SENT));
                continue;
            }
            long m = sum(marks);
            long c = sum(sent);
            if (m == 0) {
                v.add(new Verdict(Verdict.Level.FLAGGED, "dcqcn", rcv.rank().host(), rcv.rank().where()
                        + ": no ECN marks under incast (ECN marking off on the switch, or no congestion)"));
            } else if (c == 0) {
                v.add(new Verdict(Verdict.Level.FLAGGED, "dcqcn", rcv.rank().host(), rcv.rank().where() + ": "
                        + m + " ECN marks but no CNP sent"));
            } else {
                long handled = 0;
                boolean any = false;
                for (RankResult s : senders) {
                    Map<String, Long> h = counters(s, List.of(CNP_HANDLED));
                    if (h.isEmpty()) {
                        v.add(notJudged("dcqcn", s, CNP_HANDLED));
                    } else {
                        any = true;
                        handled += sum(h);
                    }
                }
                if (any) {
                    v.add(handled > 0 ? new Verdict(Verdict.Level.OK, "dcqcn", null, m + " marks, " + c
                            + " CNPs sent, " + handled + " handled by the senders") : new Verdict(Verdict.Level.FLAGGED,
                            "dcqcn", null, c + " CNPs sent by " + rcv.rank().where()
                            + " but none handled by the senders"));
                }
            }
        }
    }

    private static void busbw(FabricPlan plan, List<RailFigures> figures, List<Verdict> v) {
        double min = plan.request().minPercent();
        if (Double.isNaN(min)) {
            return;
        }
        for (RailFigures f : figures) {
            if (f.busbwGBps() == null) {
                continue;
            }
            if (f.expectedGBps() == null) {
                v.add(new Verdict(Verdict.Level.NOT_JUDGED, "busbw", null, "not judged: rail " + f.rail() + ": "
                        + f.expectedFrom()));
                continue;
            }
            double pct = 100 * f.busbwGBps() / f.expectedGBps();
            String host = f.slowest().contains("/") ? f.slowest().substring(0, f.slowest().indexOf('/')) : f.slowest();
            String text = String.format(Locale.ROOT, "rail %d%s: busbw %.3f GB/s is %.1f%% of the expected %.3f"
                    + " GB/s (--min-percent %s); slowest rank %s", f.rail(), caseText(plan, f), f.busbwGBps(), pct,
                    f.expectedGBps(), trim(min), f.slowest());
            v.add(new Verdict(pct < min ? Verdict.Level.FLAGGED : Verdict.Level.OK, "busbw", pct < min ? host : null,
                    text));
        }
    }

    /** ", size S" when the run has several sizes, ", target HOST" for incast; "" for one size of another pattern. */
    static String caseText(FabricPlan plan, RailFigures f) {
        return (plan.sizes().size() > 1 ? ", size " + f.bytes() : "") + (f.target() == null ? ""
                : ", target " + Names.printable(f.target()));
    }

    /** The matrix run that would localize what is wrong: the hosts named and their ring neighbours. */
    static String localize(FabricPlan plan, List<Verdict> v) {
        boolean bad = v.stream().anyMatch(x -> x.level() == Verdict.Level.FAILED || x.level() == Verdict.Level.FLAGGED);
        if (!bad) {
            return null;
        }
        List<String> hosts = plan.hosts();
        Set<Integer> pick = new java.util.TreeSet<>();
        for (Verdict x : v) {
            if ((x.level() == Verdict.Level.FAILED || x.level() == Verdict.Level.FLAGGED) && x.host() != null) {
                int i = hosts.indexOf(x.host());
                if (i >= 0) {
                    pick.add(i);
                    pick.add((i + 1) % hosts.size());
                    pick.add((i - 1 + hosts.size()) % hosts.size());
                }
            }
        }
        Set<String> names = new LinkedHashSet<>();
        if (pick.isEmpty() || pick.size() < 2) {
            names.addAll(hosts);
        } else {
            pick.forEach(i -> names.add(hosts.get(i)));
        }
        FabricRequest o = plan.request();
        StringBuilder b = new StringBuilder("rdma-perftest matrix --hosts ").append(String.join(",", names));
        if (!o.hosts().devices().isEmpty()) {
            b.append(" --device ").append(String.join(",", o.hosts().devices()));
        }
        if (o.hosts().toolPath() != null) {
            b.append(" --tool-path ").append(Names.quote(o.hosts().toolPath()));
        }
        b.append(" --tools ib_write_bw");
        if (!Double.isNaN(o.minPercent())) {
            b.append(" --min-percent-of-link ").append(trim(o.minPercent()));
        }
        return b.toString();
    }

    /**
     * The rank's deltas of the counters whose last name segment is one of {@code names} (so
     * "hw_counters/rcvd_seq_err" and "device/hw_counters/rcvd_seq_err" both count; "ethtool/rx_prio3_pause"),
     * only those the rank has (a number, not null).
     */
    static Map<String, Long> counters(RankResult r, List<String> names) {
        Map<String, Long> out = new java.util.TreeMap<>();
        for (Map.Entry<String, Object> e : r.deltas().entrySet()) {
            String k = e.getKey();
            String last = k.substring(k.lastIndexOf('/') + 1);
            Double d = Fields.number(e.getValue());
            if (names.contains(last) && d != null) {
                out.put(k, d.longValue());
            }
        }
        return out;
    }

    private static long sum(Map<String, Long> m) {
        return m.values().stream().mapToLong(Long::longValue).sum();
    }

    private static Verdict notJudged(String rule, RankResult r, String counter) {
        Object why = r.absent().entrySet().stream().filter(e -> e.getKey().endsWith("/" + counter)).map(Map.Entry::getValue)
                .findFirst().orElse(null);
        return new Verdict(Verdict.Level.NOT_JUDGED, rule, r.rank().host(), "not judged: " + r.rank().where()
                + " has no " + counter + (why == null ? "" : " (" + Names.printable(String.valueOf(why), 120) + ")"));
    }

    static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
