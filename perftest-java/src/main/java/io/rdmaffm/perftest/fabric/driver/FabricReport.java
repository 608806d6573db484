package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Names;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fabric run for people (an nccl-tests-style table, per-host lines, the counters that moved, the verdicts)
 * and as CSV (one row per rank). Whatever came from a host is printed escaped.
 */
public final class FabricReport {
    private FabricReport() {
    }

    /** The text report. */
    public static String text(FabricOutcome o) {
        FabricPlan plan = o.plan();
        Pattern p = plan.request().pattern();
        StringBuilder b = new StringBuilder();
        boolean incast = p == Pattern.INCAST;
        // nccl-tests' columns (its "root" is incast's target here, by host), then the expected busbw of the rail.
        b.append(String.format(Locale.ROOT, "#%12s %12s %8s%s %11s %12s %12s %7s %12s%n", "size", "count", "type",
                incast ? String.format(Locale.ROOT, " %-16s", "target") : "", "time(us)", "algbw(GB/s)",
                "busbw(GB/s)", "#wrong", "exp.busbw"));
        int rail = -1;
        for (RailFigures f : o.figures()) {
            if (plan.rails() > 1 && f.rail() != rail) {
                b.append("# rail ").append(f.rail()).append('\n');
            }
            rail = f.rail();
            long count = p.ring() ? f.bytes() / 4 : f.bytes();
            b.append(String.format(Locale.ROOT, " %12d %12d %8s%s %11s %12s %12s %7s %12s%n", f.bytes(), count,
                    p.ring() ? "float" : "uint8", incast ? String.format(Locale.ROOT, " %-16s",
                            Names.printable(f.target(), 16)) : "", num(f.timeUs(), 2), bw(f.algbwGBps()),
                    bw(f.busbwGBps()), f.wrong() == null ? (p.ring() ? "?" : "n/a") : Long.toString(f.wrong()),
                    bw(f.expectedGBps())));
        }
        rail = -1;
        for (RailFigures f : o.figures()) {
            if (f.rail() == rail) {
                continue; // once per rail: the same for every size and target
            }
            rail = f.rail();
            b.append(String.format(Locale.ROOT, "# rail %d: t = slowest rank's mean (%s); %s; busbw = algbw x %s"
                    + " = %.4f (n = %d); expected busbw %s%n", f.rail(), slowest(o, rail), p.algBytesText(),
                    p.busFactorText(), f.factor(), f.n(), f.expectedGBps() == null ? f.expectedFrom()
                            : String.format(Locale.ROOT, "%.3f GB/s (%s)", f.expectedGBps(), f.expectedFrom())));
        }
        if (o.figures().size() > plan.rails()) {
            b.append("# one launch: every rank ran the rows in this order over the same QPs; counters are read before"
                    + " the first row and after the last\n");
        }
        b.append('\n');
        for (RankResult r : o.ranks()) {
            b.append("  ").append(rankLine(r)).append('\n');
        }
        List<String> counters = new ArrayList<>();
        for (RankResult r : o.ranks()) {
            if (r.result() == null) {
                continue;
            }
            List<String> moved = new ArrayList<>();
            for (Map.Entry<String, Object> e : new java.util.TreeMap<>(r.deltas()).entrySet()) {
                Double d = Fields.number(e.getValue());
                if (d != null && d != 0) {
                    moved.add(Names.printable(e.getKey(), 80) + " +" + d.longValue());
                }
            }
            counters.add("  " + r.rank().where() + ": " + (moved.isEmpty() ? "no counter moved" : String.join(", ",
                    moved)) + "; " + r.absent().size() + " absent");
        }
        if (!counters.isEmpty()) {
            b.append("\ncounters (after - before):\n");
            counters.forEach(l -> b.append(l).append('\n'));
        }
        if (!o.links().isEmpty()) {
            b.append("\nlinks (timed iterations; write: post to completion; wait: the receiver's mean ring-step wait):\n");
            for (LinkFigure l : o.links()) {
                b.append(String.format(Locale.ROOT, "  rail %d: %s (rank %d -> %d): write %s us x %d%s%n", l.rail(),
                        l.name(), l.from(), l.to(), num(l.sendUs(), 3), l.writes(), l.waitUs() == null ? ""
                        : ", wait " + num(l.waitUs(), 3) + " us"));
            }
        }
        b.append('\n');
        for (Verdict v : o.verdicts()) {
            b.append(v.line()).append('\n');
        }
        if (o.localize() != null) {
            b.append("to localize: ").append(o.localize()).append('\n');
        }
        long ok = o.ranks().stream().filter(RankResult::ok).count();
        b.append(String.format(Locale.ROOT, "fabric %s: %d ranks, %d ok, %d failed; verdicts: %d ok, %d not judged,"
                        + " %d flagged, %d failed; exit %d%n", p.cli(), o.ranks().size(), ok, o.ranks().size() - ok,
                o.count(Verdict.Level.OK), o.count(Verdict.Level.NOT_JUDGED), o.count(Verdict.Level.FLAGGED),
                o.count(Verdict.Level.FAILED), o.exitCode()));
        return b.toString();
    }

    /** The slowest rank of the rail's rows, or those of each row when they differ. */
    private static String slowest(FabricOutcome o, int rail) {
        List<String> s = o.figures().stream().filter(f -> f.rail() == rail).map(f -> f.slowest() == null ? "-"
                : f.slowest()).distinct().toList();
        return s.size() == 1 ? s.getFirst() : "per row: " + String.join(", ", o.figures().stream()
                .filter(f -> f.rail() == rail).map(f -> f.slowest() == null ? "-" : f.slowest()).toList());
    }

    private static String rankLine(RankResult r) {
        String who = r.rank().where() + " rank " + r.rank().rank();
        if (r.result() == null) {
            return who + ": " + r.failure().kind().label() + ": " + r.failure().message();
        }
        Map<String, Object> t = Fields.map(r.result().get("time_us"));
        StringBuilder b = new StringBuilder(who);
        String role = r.role();
        if (role != null) {
            b.append(' ').append(Names.printable(role, 20));
        }
        b.append(": ").append(num(Fields.number(t.get("mean")), 2)).append(" us mean (min ")
                .append(num(Fields.number(t.get("min")), 2)).append(", max ").append(num(Fields.number(t.get("max")), 2))
                .append("), sent ").append(num(r.number("bytes_sent"), 0)).append(" B, received ")
                .append(num(r.number("bytes_received"), 0)).append(" B");
        Double cap = r.number("rate_cap_Gbps");
        Double rate = r.number("send_rate_Gbps");
        if (cap != null && rate != null) {
            b.append(", sent at ").append(num(rate, 3)).append(" Gb/s (--rate ").append(num(cap, 3)).append(")");
        }
        Double w = r.number("wrong");
        if (w != null) {
            b.append(", ").append(w.longValue()).append(" wrong");
        }
        if (r.failure() != null) {
            b.append("; ").append(r.failure().kind().label()).append(": ").append(r.failure().message());
        }
        return b.toString();
    }

    /** CSV, one row per rank and case (size; incast: target), in the order the cases ran. */
    public static void csv(FabricOutcome o, Appendable out) throws IOException {
        FabricPlan plan = o.plan();
        out.append("pattern,rail,rank,host,device,bytes,target,role,exit_code,failure,time_us_mean,time_us_min,"
                + "time_us_max,bytes_sent,bytes_received,wrong,error\n");
        for (RankResult r : o.ranks()) {
            for (FabricPlan.Case c : plan.cases()) {
                Map<String, Object> k = r.caseResult(c.bytes(), c.target());
                Map<String, Object> t = k == null ? Map.of() : Fields.map(k.get("time_us"));
                String role = k != null && k.get("role") instanceof String x ? x : r.role();
                List<String> row = List.of(plan.request().pattern().cli(), Integer.toString(r.rank().rail()),
                        Integer.toString(r.rank().rank()), r.rank().host(), r.rank().device() == null ? ""
                                : r.rank().device(), Long.toString(c.bytes()), c.target() < 0 ? ""
                                : plan.hosts().get(c.target()), role == null ? "" : role,
                        Integer.toString(r.exitCode()), r.failure() == null ? "" : r.failure().kind().name(),
                        csvNum(Fields.number(t.get("mean"))), csvNum(Fields.number(t.get("min"))),
                        csvNum(Fields.number(t.get("max"))), csvNum(k == null ? null : Fields.number(k.get(
                                "bytes_sent"))), csvNum(k == null ? null : Fields.number(k.get("bytes_received"))),
                        csvNum(k == null ? null : Fields.number(k.get("wrong"))),
                        r.failure() == null ? "" : r.failure().message());
                List<String> cells = row.stream().map(FabricReport::cell).toList();
                out.append(String.join(",", cells)).append('\n');
            }
        }
    }

    private static String cell(String s) {
        String p = Names.printable(s, 1000);
        boolean quote = p.contains(",") || p.contains("\"");
        // A cell a spreadsheet would run as a formula starts with a quote mark instead.
        if (!p.isEmpty() && "=+-@".indexOf(p.charAt(0)) >= 0 && !p.matches("-?[0-9.]+")) {
            p = "'" + p;
        }
        return quote ? "\"" + p.replace("\"", "\"\"") + "\"" : p;
    }

    private static String csvNum(Double v) {
        if (v == null) {
            return "";
        }
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString(v.longValue()) : Double.toString(v);
    }

    /**
     * A bandwidth in GB/s: two decimals as nccl-tests prints them from 1 GB/s up, more below so that an emulated
     * link's figure (tens of kB/s on Soft-RoCE between VMs) is not printed as 0.00.
     */
    static String bw(Double v) {
        return v == null ? "-" : num(v, v >= 1 ? 2 : v >= 0.01 ? 4 : 6);
    }

    static String num(Double v, int decimals) {
        return v == null ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
