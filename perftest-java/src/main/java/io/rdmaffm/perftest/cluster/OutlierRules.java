package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which measured rail tests are outliers (pure). ClusterKit's default relative rules, configurable: bandwidth
 * below {@code bwFractionOfBest} (0.93) of the best pair's, latency above {@code latFactorOfBest} (2.1) times the
 * best pair's; plus an absolute rule: bandwidth below {@code minPercentOfLink}% of what the slower end's NIC
 * should carry (its port rate, capped by its PCIe link, as the caller knows it). The relative rules cannot see a
 * fabric that is uniformly slow, and flag nothing with a single pair; the absolute rule can.
 *
 * @param bwFractionOfBest e.g. 0.93; NaN or 0 switches the rule off
 * @param latFactorOfBest  e.g. 2.1; NaN or 0 switches the rule off
 * @param minPercentOfLink e.g. 90; NaN switches the rule off
 * @param linkGbps         expected Gb/s per "host/device", or per "host" for all its devices
 */
public record OutlierRules(double bwFractionOfBest, double latFactorOfBest, double minPercentOfLink,
        Map<String, Double> linkGbps) {

    /** The rules of a plan: the request's thresholds, the discovered hosts' expected rates. */
    public static OutlierRules of(MatrixPlan plan) {
        MatrixRequest o = plan.request();
        return new OutlierRules(o.bwFractionOfBest(), o.latFactorOfBest(), o.minPercentOfLink(),
                Map.copyOf(plan.discovered().linkGbps()));
    }

    /** Which rule a figure broke. */
    public enum Rule { BW_BELOW_BEST, LAT_ABOVE_BEST, BW_BELOW_LINK }

    /**
     * One broken rule.
     *
     * @param rule    the rule
     * @param message e.g. "bw 71.2 Gb/s < 93% of best 97.9"
     */
    public record Flag(Rule rule, String message) {
    }

    /**
     * The best figures among successful attempts: highest bandwidth, lowest latency (NaN when none).
     *
     * @param bwGbps  best bandwidth
     * @param latUsec best latency
     */
    public record Best(double bwGbps, double latUsec) {
    }

    /** The best figures of {@code attempts} (failed ones ignored). */
    public static Best best(Collection<Attempt> attempts) {
        double bw = Double.NaN;
        double lat = Double.NaN;
        for (Attempt a : attempts) {
            if (!a.ok()) {
                continue;
            }
            if (!Double.isNaN(a.bwGbps()) && (Double.isNaN(bw) || a.bwGbps() > bw)) {
                bw = a.bwGbps();
            }
            if (!Double.isNaN(a.latUsec()) && (Double.isNaN(lat) || a.latUsec() < lat)) {
                lat = a.latUsec();
            }
        }
        return new Best(bw, lat);
    }

    /** The rules {@code a} breaks against {@code best}; empty for a failed attempt. */
    public List<Flag> flags(Attempt a, Best best) {
        List<Flag> flags = new ArrayList<>();
        if (!a.ok()) {
            return flags;
        }
        double bw = a.bwGbps();
        if (on(bwFractionOfBest) && !Double.isNaN(bw) && bw < bwFractionOfBest * best.bwGbps()) {
            flags.add(new Flag(Rule.BW_BELOW_BEST, String.format(Locale.ROOT, "bw %s Gb/s < %s%% of best %s",
                    fmt(bw), percent(bwFractionOfBest * 100), fmt(best.bwGbps()))));
        }
        double lat = a.latUsec();
        if (on(latFactorOfBest) && !Double.isNaN(lat) && lat > latFactorOfBest * best.latUsec()) {
            flags.add(new Flag(Rule.LAT_ABOVE_BEST, String.format(Locale.ROOT, "lat %s us > %sx best %s",
                    fmt(lat), percent(latFactorOfBest), fmt(best.latUsec()))));
        }
        double link = expectedGbps(a.test());
        if (!Double.isNaN(minPercentOfLink) && !Double.isNaN(link) && !Double.isNaN(bw)
                && bw < minPercentOfLink / 100 * link) {
            flags.add(new Flag(Rule.BW_BELOW_LINK, String.format(Locale.ROOT, "bw %s Gb/s < %s%% of link %s Gb/s",
                    fmt(bw), percent(minPercentOfLink), percent(link))));
        }
        return flags;
    }

    /** The slower end's expected rate, NaN when either end's is unknown. */
    public double expectedGbps(RailTest t) {
        double s = rate(t.server(), t.serverDevice());
        double c = rate(t.client(), t.clientDevice());
        return Double.isNaN(s) || Double.isNaN(c) ? Double.NaN : Math.min(s, c);
    }

    private double rate(String host, String device) {
        Double r = device == null ? null : linkGbps.get(host + "/" + device);
        if (r == null) {
            r = linkGbps.get(host);
        }
        return r == null ? Double.NaN : r;
    }

    private static String fmt(double v) {
        return MatrixReport.fmt(v, 2);
    }

    private static boolean on(double v) {
        return !Double.isNaN(v) && v > 0;
    }

    /** 93 → "93", 2.1 → "2.1". */
    private static String percent(double v) {
        return String.format(Locale.ROOT, "%.3f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
