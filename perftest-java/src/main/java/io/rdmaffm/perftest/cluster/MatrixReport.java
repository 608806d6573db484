package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The terminal text (matrix, bad pairs, host roll-up, summary) and the CSV of a finished matrix. */
public final class MatrixReport {
    /** Wider matrices do not fit a terminal; the lists and the CSV/JSON still have every pair. */
    static final int MAX_MATRIX_HOSTS = 16;

    private MatrixReport() {
    }

    /** The text for the terminal. */
    public static String text(MatrixOutcome o) {
        StringBuilder b = new StringBuilder();
        List<String> hosts = o.plan().hosts().names();
        if (hosts.size() <= MAX_MATRIX_HOSTS) {
            for (int rail = 0; rail < o.plan().maxRails(); rail++) {
                matrix(b, o, hosts, rail);
            }
            b.append("cells: ").append(cellLegend(o.plan().request())).append('\n');
        } else {
            b.append("(matrix not shown for ").append(hosts.size()).append(" hosts; every pair is in the CSV"
                    + " and JSON)\n");
        }
        List<PairResult> bad = o.results().stream().filter(PairResult::bad).toList();
        if (!bad.isEmpty()) {
            b.append("\nflagged and failed:\n");
            for (PairResult r : bad) {
                b.append("  ").append(r.test().label()).append(": ").append(detail(r))
                        .append(" [cause: ").append(o.rollup().causes().get(r.test())).append("]\n");
            }
        }
        List<PairResult> retested = o.results().stream()
                .filter(r -> r.status() == PairResult.Status.OK_ON_RETEST).toList();
        for (PairResult r : retested) {
            b.append("  ").append(r.test().label()).append(": ok on retest (first: ").append(firstDetail(r))
                    .append(")\n");
        }
        b.append("\nhosts:\n");
        for (HostRollup.EndVerdict v : o.rollup().ends()) {
            b.append("  ").append(v.host()).append(v.device() == null ? "" : "/" + v.device()).append(": ")
                    .append(v.verdict()).append(" - ").append(v.reason()).append('\n');
        }
        b.append('\n').append(summary(o)).append('\n');
        return b.toString();
    }

    /** One line: counts, best figures, exit status. */
    public static String summary(MatrixOutcome o) {
        return String.format(Locale.ROOT, "%d rail tests: %d ok, %d ok on retest, %d flagged, %d failed;"
                + " best %s Gb/s, %s us; exit %d", o.results().size(), o.count(PairResult.Status.OK),
                o.count(PairResult.Status.OK_ON_RETEST), o.count(PairResult.Status.FLAGGED),
                o.count(PairResult.Status.FAILED), dash(fmt(o.best().bwGbps(), 2)), dash(fmt(o.best().latUsec(), 2)),
                o.exitCode());
    }

    private static void matrix(StringBuilder b, MatrixOutcome o, List<String> hosts, int rail) {
        Map<String, PairResult> cells = new HashMap<>();
        String device = null;
        for (PairResult r : o.results()) {
            RailTest t = r.test();
            if (t.rail() == rail) {
                cells.put(t.server() + "\n" + t.client(), r);
                cells.put(t.client() + "\n" + t.server(), r);
                device = device != null ? device : t.serverDevice();
            }
        }
        if (o.plan().maxRails() > 1) {
            b.append("rail ").append(rail).append(device == null ? "" : " (" + device + ")").append(":\n");
        }
        int w = 6;
        for (String h : hosts) {
            w = Math.max(w, h.length());
        }
        List<String[]> rows = new ArrayList<>();
        for (String a : hosts) {
            String[] row = new String[hosts.size()];
            for (int j = 0; j < hosts.size(); j++) {
                String c = hosts.get(j);
                row[j] = a.equals(c) ? "-" : cell(cells.get(a + "\n" + c), o.plan().request());
                w = Math.max(w, row[j].length());
            }
            rows.add(row);
        }
        b.append(pad("", w));
        for (String h : hosts) {
            b.append("  ").append(pad(h, w));
        }
        b.append('\n');
        for (int i = 0; i < hosts.size(); i++) {
            b.append(pad(hosts.get(i), w));
            for (String c : rows.get(i)) {
                b.append("  ").append(pad(c, w));
            }
            b.append('\n');
        }
    }

    private static String cell(PairResult r, MatrixRequest o) {
        if (r == null) {
            return ".";
        }
        Attempt a = r.last();
        if (!a.ok()) {
            return "!" + a.failure().kind().label().toUpperCase(Locale.ROOT).replace(' ', '-');
        }
        List<String> parts = new ArrayList<>();
        if (hasBw(o)) {
            parts.add(fmt(a.bwGbps(), 1));
        }
        if (hasLat(o)) {
            parts.add(fmt(a.latUsec(), 2));
        }
        String mark = r.status() == PairResult.Status.FLAGGED ? "*"
                : r.status() == PairResult.Status.OK_ON_RETEST ? "r" : "";
        return String.join("/", parts) + mark;
    }

    private static String cellLegend(MatrixRequest o) {
        String figures = hasBw(o) && hasLat(o) ? "Gb/s/us" : hasBw(o) ? "Gb/s" : "us";
        return figures + "; * flagged, r ok on retest, !KIND failed, . not scheduled";
    }

    private static boolean hasBw(MatrixRequest o) {
        return o.tools().stream().anyMatch(t -> t.endsWith("_bw"));
    }

    private static boolean hasLat(MatrixRequest o) {
        return o.tools().stream().anyMatch(t -> t.endsWith("_lat"));
    }

    private static String detail(PairResult r) {
        Attempt a = r.last();
        String s = a.ok() ? String.join("; ", r.flags().stream().map(OutlierRules.Flag::message).toList())
                : a.failure().kind().label() + ": " + a.failure().message();
        return r.retest() != null ? s + " (also on retest)" : s;
    }

    /** The CSV's message: what went wrong, or for a pair that passed on retest, what the first attempt gave. */
    private static String message(PairResult r) {
        return switch (r.status()) {
            case OK -> "";
            case OK_ON_RETEST -> "ok on retest (first: " + firstDetail(r) + ")";
            case FLAGGED -> detail(r);
            case FAILED -> r.last().failure().message();
        };
    }

    private static String firstDetail(PairResult r) {
        Attempt f = r.first();
        return f.ok() ? String.format(Locale.ROOT, "%s Gb/s, %s us", fmt(f.bwGbps(), 2), fmt(f.latUsec(), 2))
                : f.failure().kind().label();
    }

    /** The CSV: a header and one row per rail test. */
    public static String csv(MatrixOutcome o) {
        StringBuilder b = new StringBuilder();
        try {
            csv(o, b);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return b.toString();
    }

    /** The CSV, row by row into {@code b} (a file's writer on large matrices). */
    public static void csv(MatrixOutcome o, Appendable b) throws java.io.IOException {
        b.append("server,server_device,client,client_device,rail,status,bw_gbps,lat_usec,expected_gbps,attempts,"
                + "first_bw_gbps,first_lat_usec,failure,failure_host,flags,cause,message\n");
        OutlierRules rules = OutlierRules.of(o.plan());
        for (PairResult r : o.results()) {
            RailTest t = r.test();
            Attempt a = r.last();
            Failure f = a.failure();
            List<String> cols = List.of(t.server(), nz(t.serverDevice()), t.client(), nz(t.clientDevice()),
                    Integer.toString(t.rail()), r.status().name(), fmt(a.bwGbps(), 3), fmt(a.latUsec(), 3),
                    fmt(rules.expectedGbps(t), 1), r.retest() == null ? "1" : "2", fmt(r.first().bwGbps(), 3),
                    fmt(r.first().latUsec(), 3), f == null ? "" : f.kind().name(), f == null ? "" : nz(f.host()),
                    String.join(" ", r.flags().stream().map(fl -> fl.rule().name()).toList()),
                    nz(o.rollup().causes().get(t)), message(r));
            for (int i = 0; i < cols.size(); i++) {
                b.append(i == 0 ? "" : ",").append(csvField(cols.get(i)));
            }
            b.append('\n');
        }
    }

    static String csvField(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }

    private static String dash(String s) {
        return s.isEmpty() ? "-" : s;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /**
     * {@code v} with {@code decimals} decimals, or three significant digits when it is below 1 (an emulated or
     * broken link gives 0.0239 Gb/s, which one decimal would show as 0.0); "" for NaN.
     */
    static String fmt(double v, int decimals) {
        if (Double.isNaN(v)) {
            return "";
        }
        int d = decimals;
        double a = Math.abs(v);
        if (a > 0 && a < 1) {
            d = Math.max(decimals, 2 - (int) Math.floor(Math.log10(a)));
        }
        return String.format(Locale.ROOT, "%." + d + "f", v);
    }

    private static String pad(String s, int w) {
        return s.length() >= w ? s : s + " ".repeat(w - s.length());
    }
}
