package io.rdmaffm.perftest.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per host (per NIC rail on multi-rail hosts) roll-up that tells a node problem from a link problem (pure).
 *
 * <p>The rule. An end is one host's NIC on one rail (the host itself with one NIC). Its <em>peers</em> are the
 * rail tests it was in, except those that failed because of the <em>other</em> host (unreachable, tool or device
 * missing there): those say nothing about this end. A peer is <em>bad</em> when its test is flagged or failed in
 * the end (after the retest).
 * <ul>
 * <li>HOST_FAILED: a test failed because of this host (unreachable, tool missing, device missing).</li>
 * <li>NODE: bad with at least 2 peers and with at least 75% of them: the host (its NIC,
 *     PCIe link, cable or switch port) is slow whoever it talks to. Not "all": one good result with a peer that is
 *     itself unusually fast must not hide a bad node; not "most": in a 4-host matrix with two slow nodes, each
 *     good host is bad with 2 of its 3 peers (67%) and must not be called a node problem.</li>
 * <li>SUSPECT: bad with its only peer ({@code --quick}, two hosts, a pairs file): node and link cannot be told
 *     apart; test it against more peers.</li>
 * <li>SOME_PAIRS: bad with some peers only: those pairs' links or routes (or the peers) are the problem.</li>
 * <li>OK otherwise.</li>
 * </ul>
 * A bad pair's cause: the host it was blamed on; else its NODE end(s); else, when both ends are SUSPECT, either
 * end; else the link or route between them.
 */
public final class HostRollup {
    /** Share of bad peers that makes a node problem. */
    static final int NODE_SHARE_PERCENT = 75;

    private HostRollup() {
    }

    /** The verdict on one end. */
    public enum Verdict { OK, SOME_PAIRS, SUSPECT, NODE, HOST_FAILED }

    /**
     * One end's verdict.
     *
     * @param host     the host
     * @param rail     its rail index
     * @param device   its device on that rail (null: the tool's default)
     * @param verdict  the verdict
     * @param peers    peers counted
     * @param badPeers of those, bad
     * @param reason   one line
     */
    public record EndVerdict(String host, int rail, String device, Verdict verdict, int peers, int badPeers,
            String reason) {
    }

    /**
     * The roll-up.
     *
     * @param ends   every end, in host order then rail
     * @param causes the cause of each bad pair
     */
    public record Rollup(List<EndVerdict> ends, Map<RailTest, String> causes) {
    }

    /** Rolls {@code results} up per end of {@code hosts}. */
    public static Rollup of(List<String> hosts, List<PairResult> results) {
        Map<String, List<PairResult>> byEnd = new LinkedHashMap<>();
        Map<String, String> devices = new HashMap<>();
        for (PairResult r : results) {
            RailTest t = r.test();
            byEnd.computeIfAbsent(key(t.server(), t.rail()), k -> new ArrayList<>()).add(r);
            byEnd.computeIfAbsent(key(t.client(), t.rail()), k -> new ArrayList<>()).add(r);
            devices.putIfAbsent(key(t.server(), t.rail()), t.serverDevice());
            devices.putIfAbsent(key(t.client(), t.rail()), t.clientDevice());
        }
        List<EndVerdict> ends = new ArrayList<>();
        Map<String, EndVerdict> byKey = new HashMap<>();
        for (String h : hosts) {
            for (int rail = 0; byEnd.containsKey(key(h, rail)); rail++) {
                EndVerdict v = verdict(h, rail, devices.get(key(h, rail)), byEnd.get(key(h, rail)));
                ends.add(v);
                byKey.put(key(h, rail), v);
            }
        }
        Map<RailTest, String> causes = new LinkedHashMap<>();
        for (PairResult r : results) {
            if (r.bad()) {
                causes.put(r.test(), cause(r, byKey));
            }
        }
        return new Rollup(ends, causes);
    }

    private static EndVerdict verdict(String host, int rail, String device, List<PairResult> mine) {
        int peers = 0;
        int bad = 0;
        for (PairResult r : mine) {
            Failure f = r.last().failure();
            if (f != null && host.equals(f.host())) {
                return new EndVerdict(host, rail, device, Verdict.HOST_FAILED, mine.size(), mine.size(),
                        f.kind().label() + ": " + f.message());
            }
            if (f != null && f.host() != null) {
                continue;
            }
            peers++;
            if (r.bad()) {
                bad++;
            }
        }
        Verdict v;
        String reason;
        if (bad >= 2 && bad * 100 >= NODE_SHARE_PERCENT * peers) {
            v = Verdict.NODE;
            reason = "bad with " + bad + " of " + peers + " peers: node problem (NIC, PCIe, cable or switch port)";
        } else if (peers == 1 && bad == 1) {
            v = Verdict.SUSPECT;
            reason = "bad with its only peer: node or link cannot be told apart";
        } else if (bad > 0) {
            v = Verdict.SOME_PAIRS;
            reason = "bad with " + bad + " of " + peers + " peers: see those pairs";
        } else {
            v = Verdict.OK;
            reason = peers == 0 ? "no peer could be measured" : "good with all " + peers + " peers";
        }
        return new EndVerdict(host, rail, device, v, peers, bad, reason);
    }

    private static String cause(PairResult r, Map<String, EndVerdict> ends) {
        RailTest t = r.test();
        Failure f = r.last().failure();
        if (f != null && f.host() != null) {
            return "host " + f.host() + " (" + f.kind().label() + ")";
        }
        EndVerdict s = ends.get(key(t.server(), t.rail()));
        EndVerdict c = ends.get(key(t.client(), t.rail()));
        boolean sNode = s.verdict() == Verdict.NODE;
        boolean cNode = c.verdict() == Verdict.NODE;
        if (sNode && cNode) {
            return "nodes " + t.server() + " and " + t.client();
        }
        if (sNode || cNode) {
            return "node " + (sNode ? t.server() : t.client());
        }
        if (s.verdict() == Verdict.SUSPECT && c.verdict() == Verdict.SUSPECT) {
            return "node or link (each end has only this peer)";
        }
        return "link or route between " + t.server() + " and " + t.client();
    }

    private static String key(String host, int rail) {
        return host + "\n" + rail;
    }
}
