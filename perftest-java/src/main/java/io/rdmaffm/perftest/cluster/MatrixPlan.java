package io.rdmaffm.perftest.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A checked plan: the hosts, their devices, the rounds, and the estimate printed before anything runs. The stage
 * after {@link DiscoveredHosts}; {@link MatrixRun} runs it.
 *
 * @param request    the request it was made from
 * @param discovered the hosts and what they said about themselves
 * @param devices    each host's devices, rail i = device i; an empty list means one rail on the tool's default device
 * @param rounds     the rounds of host pairs
 * @param notes      what the user should know before the run (ignored hostfile suffixes, unpaired NICs)
 */
public record MatrixPlan(MatrixRequest request, DiscoveredHosts discovered, Map<String, List<String>> devices,
        List<List<Schedule.HostPair>> rounds, List<String> notes) {

    /** The hosts and where they came from. */
    public HostInput.Hosts hosts() {
        return discovered.hosts();
    }

    /** The rail tests of round {@code round} (0-based; retests use numbers past the plan's rounds). */
    public List<RailTest> railTests(int round, List<Schedule.HostPair> pairs) {
        List<RailTest> tests = new ArrayList<>();
        int stride = maxRails();
        for (Schedule.HostPair p : pairs) {
            List<String> s = devices.get(p.server());
            List<String> c = devices.get(p.client());
            int rails = rails(p);
            for (int i = 0; i < rails; i++) {
                // Alternate port blocks between rounds: a server of the last round that is still being stopped
                // cannot hold the port the next round's server needs.
                int port = request.basePort() + (round % 2) * stride + i;
                tests.add(new RailTest(round, p.server(), p.client(), i, s.isEmpty() ? null : s.get(i),
                        c.isEmpty() ? null : c.get(i), port));
            }
        }
        return tests;
    }

    /** Rails of a pair: the devices both hosts have at the same index (one when a host uses its default). */
    public int rails(Schedule.HostPair p) {
        int s = devices.get(p.server()).size();
        int c = devices.get(p.client()).size();
        return Math.max(1, Math.min(s, c));
    }

    /** The most rails of any host. */
    public int maxRails() {
        int m = 1;
        for (List<String> d : devices.values()) {
            m = Math.max(m, d.size());
        }
        return m;
    }

    /** Rail tests the launcher limit lets run at once: two launcher processes each. */
    public int concurrentTests() {
        return Math.max(1, request.maxConnections() / 2);
    }

    /** Estimated wall time: each round takes one test time per wave of at most {@link #concurrentTests}. */
    public Duration estimate() {
        long waves = 0;
        for (List<Schedule.HostPair> r : rounds) {
            waves += waves(r);
        }
        return request.perTest().multipliedBy(waves);
    }

    private long waves(List<Schedule.HostPair> round) {
        long tests = 0;
        for (Schedule.HostPair p : round) {
            tests += rails(p);
        }
        return Math.max(1, (tests + concurrentTests() - 1) / concurrentTests());
    }

    /** E.g. "7 rounds of 4 pairs (2 rails each: up to 8 tests per round), about 84 s at 12 s per test". */
    public String summary() {
        int most = 0;
        int least = Integer.MAX_VALUE;
        long maxWaves = 1;
        for (List<Schedule.HostPair> r : rounds) {
            most = Math.max(most, r.size());
            least = Math.min(least, r.size());
            maxWaves = Math.max(maxWaves, waves(r));
        }
        StringBuilder b = new StringBuilder();
        b.append(rounds.size()).append(rounds.size() == 1 ? " round of " : " rounds of ")
                .append(least == most ? "" : "up to ").append(most).append(most == 1 ? " pair" : " pairs");
        int rails = maxRails();
        if (rails > 1) {
            b.append(" (").append(rails).append(" rails each: up to ").append(most * rails).append(" tests per round)");
        }
        int n = hosts().names().size();
        if (request.mode() == MatrixRequest.Mode.ALL && n % 2 == 1) {
            b.append(", one host idle per round");
        }
        if (maxWaves > 1) {
            b.append(", rounds split in up to ").append(maxWaves).append(" waves by --max-connections ")
                    .append(request.maxConnections());
        }
        b.append(", about ").append(human(estimate())).append(" at ").append(human(request.perTest()))
                .append(" per test");
        if (request.retest()) {
            b.append(" (plus retests of flagged pairs)");
        }
        return b.toString();
    }

    /** 45 s, 6 min, 6.8 h, 2.1 days. */
    public static String human(Duration d) {
        double s = d.toMillis() / 1000.0;
        if (s < 90) {
            return s == Math.rint(s) ? (long) s + " s" : String.format(Locale.ROOT, "%.1f s", s);
        }
        if (s < 90 * 60) {
            return Math.round(s / 60) + " min";
        }
        if (s < 48 * 3600) {
            return String.format(Locale.ROOT, "%.1f h", s / 3600);
        }
        return String.format(Locale.ROOT, "%.1f days", s / 86400);
    }
}
