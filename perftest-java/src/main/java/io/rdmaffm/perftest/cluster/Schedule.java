package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rounds of host pairs in which no host is in two pairs at once (pure).
 *
 * <p>Every pair of a round runs at the same time, each on all its rails; the next round starts when the round
 * has ended. Keeping a host in one pair per round means a measurement never shares a NIC, PCIe link or CPU with
 * another one of ours: a slow figure is the path's, not our own contention. A pair is written (server, client).
 */
public final class Schedule {
    private Schedule() {
    }

    /** One pair of hosts: {@code server} listens, {@code client} connects. */
    public record HostPair(String server, String client) {
        /** Whether the pair involves {@code host}. */
        public boolean has(String host) {
            return server.equals(host) || client.equals(host);
        }
    }

    /**
     * All unordered pairs, each exactly once, by the circle method: host 0 stays put, the others rotate one place
     * per round, and position i meets position n-1-i. Even n: n-1 rounds of n/2 pairs. Odd n: a phantom host
     * makes n even; whoever meets the phantom sits the round out, so n rounds of (n-1)/2 pairs with one host idle
     * in each (every host idles exactly once). Who serves alternates from round to round, so no host is always
     * the server.
     */
    public static List<List<HostPair>> roundRobin(List<String> hosts) {
        int n = hosts.size();
        int m = n % 2 == 0 ? n : n + 1;
        int[] pos = new int[m];
        for (int i = 0; i < m; i++) {
            pos[i] = i;
        }
        List<List<HostPair>> rounds = new ArrayList<>();
        for (int r = 0; r < m - 1; r++) {
            List<HostPair> round = new ArrayList<>();
            for (int i = 0; i < m / 2; i++) {
                int a = pos[i];
                int b = pos[m - 1 - i];
                if (a < n && b < n) {
                    round.add(r % 2 == 0 ? new HostPair(hosts.get(a), hosts.get(b))
                            : new HostPair(hosts.get(b), hosts.get(a)));
                }
            }
            rounds.add(round);
            int last = pos[m - 1];
            System.arraycopy(pos, 1, pos, 2, m - 2);
            pos[1] = last;
        }
        return rounds;
    }

    /**
     * Every host tested once, in one round: host i meets host i + n/2, so a host list sorted by rack pairs hosts
     * across the list's halves rather than neighbours that likely share a switch. Odd n: the last host would be
     * left out, so it gets a second round of one pair, with the first host; that first host is the one tested
     * twice (one after the other, never at once).
     */
    public static List<List<HostPair>> quick(List<String> hosts) {
        int n = hosts.size();
        int half = n / 2;
        List<HostPair> first = new ArrayList<>();
        for (int i = 0; i < half; i++) {
            first.add(new HostPair(hosts.get(i), hosts.get(i + half)));
        }
        List<List<HostPair>> rounds = new ArrayList<>();
        rounds.add(first);
        if (n % 2 == 1) {
            rounds.add(List.of(new HostPair(hosts.get(n - 1), hosts.get(0))));
        }
        return rounds;
    }

    /**
     * Given pairs in conflict-free rounds, first fit in the order given: each pair goes into the earliest round
     * in which neither of its hosts is busy. A pair conflicts with at most 2(d − 1) others when no host is in
     * more than d pairs, so this needs at most 2d − 1 rounds (the optimum is d or d + 1).
     */
    public static List<List<HostPair>> greedy(List<HostPair> pairs) {
        List<List<HostPair>> rounds = new ArrayList<>();
        List<Set<String>> busy = new ArrayList<>();
        for (HostPair p : pairs) {
            int r = 0;
            while (r < rounds.size() && (busy.get(r).contains(p.server()) || busy.get(r).contains(p.client()))) {
                r++;
            }
            if (r == rounds.size()) {
                rounds.add(new ArrayList<>());
                busy.add(new HashSet<>());
            }
            rounds.get(r).add(p);
            busy.get(r).add(p.server());
            busy.get(r).add(p.client());
        }
        return rounds;
    }

    /**
     * Reads a pairs file: one pair per line, two host names separated by white space or a comma; '#' starts a
     * comment. The first host serves.
     *
     * @param text  the file's content
     * @param known the hosts of the run (each pair's hosts must be among them)
     * @param where the file's name, for messages
     * @throws MatrixInputException for an unknown host, a self-pair, a pair given twice, a malformed line or no pair
     */
    public static List<HostPair> parsePairs(String text, List<String> known, String where) {
        Set<String> hosts = new HashSet<>(known);
        Set<String> seen = new HashSet<>();
        List<HostPair> pairs = new ArrayList<>();
        String[] lines = text.split("\r?\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String at = where + " line " + (i + 1);
            String line = stripComment(lines[i]).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split("[\\s,]+");
            if (f.length != 2) {
                throw new MatrixInputException(at + ": expected two hosts, got '" + Names.printable(line) + "'");
            }
            String a = Names.host(f[0], at);
            String b = Names.host(f[1], at);
            for (String h : f) {
                if (!hosts.contains(h)) {
                    throw new MatrixInputException(at + ": host '" + h + "' is not among the hosts of the run");
                }
            }
            if (a.equals(b)) {
                throw new MatrixInputException(at + ": '" + a + "' paired with itself");
            }
            String key = a.compareTo(b) < 0 ? a + "\n" + b : b + "\n" + a;
            if (!seen.add(key)) {
                throw new MatrixInputException(at + ": pair " + a + " " + b + " is listed twice");
            }
            pairs.add(new HostPair(a, b));
        }
        if (pairs.isEmpty()) {
            throw new MatrixInputException(where + ": no pairs");
        }
        return pairs;
    }

    static String stripComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }
}
