package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Gid;
import io.rdmaffm.verbs.topology.IpAddress;
import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * {@code roce-gid}: every address of the port's netdev has a RoCE v2 GID, and the index to pass as {@code -x}
 * (an IPv4-mapped one first, as perftest prefers).
 */
record RoceGidCheck(Topology topo) implements Check<DevicePort> {
    private static final CheckId ID = CheckId.ROCE_GID;

    /**
     * @param gid     the GID to use, or {@code null}
     * @param missing the addresses without a RoCE v2 GID
     */
    private record Pick(Gid gid, List<String> missing) {
    }

    @Override
    public CheckResult examine(DevicePort dp) {
        CheckResult notRoce = dp.notRoce(ID, "");
        if (notRoce != null) {
            return notRoce;
        }
        Numbers.Builder n = Numbers.builder();
        if (!dp.port().gids().known()) {
            return dp.result(ID, Verdict.NA, "GID table unreadable: " + dp.port().gids().problem(), n);
        }
        List<Gid> gids = dp.port().gids().value();
        if (gids.isEmpty()) {
            return dp.result(ID, Verdict.FAIL, "GID table is empty: no RoCE GID at all (is the netdev up?)", n);
        }
        String nd = dp.netdev().orElse(null);
        List<Gid> mine = gids.stream().filter(g -> nd == null || !g.netdev().known() || g.netdev().value().equals(nd))
                .toList();
        List<Gid> typed = mine.stream().filter(g -> g.type().known()).toList();
        if (typed.isEmpty()) {
            return dp.result(ID, Verdict.NA, "cannot read GID types: " + mine.stream()
                    .map(g -> g.type().problem()).findFirst().orElse("no GID for netdev " + nd), n);
        }
        List<Gid> v2 = typed.stream().filter(Gid::isRoceV2).toList();
        List<IpAddress> addrs = nd == null ? List.of() : topo.netdev(nd).map(NetDevice::addresses).orElse(List.of())
                .stream().filter(a -> !a.linkLocal()).toList();
        n.text("netdev", nd).whole("roceV2Gids", v2.size());
        Pick pick = pick(v2, addrs);
        Gid g = pick.gid();
        if (g != null) {
            n.whole("gidIndex", g.index()).text("gid", g.address()).text("address", g.ipv4().orElse(null));
        }
        String what = g == null ? "" : "use -x " + g.index() + " (RoCE v2, " + g.ipv4().orElse(g.address())
                + (nd != null ? " on " + nd : "") + ")";
        if (!addrs.isEmpty()) {
            n.text("addresses", addrs.stream().map(IpAddress::text).collect(Collectors.joining(",")));
            List<String> missing = pick.missing();
            if (missing.size() == addrs.size()) {
                return dp.result(ID, Verdict.FAIL, "no RoCE v2 GID for " + String.join(", ", missing) + " on " + nd
                        + " (" + v2.size() + " v2 GIDs, " + (typed.size() - v2.size())
                        + " other): RoCE v2 cannot use these addresses", n);
            }
            if (!missing.isEmpty()) {
                return dp.result(ID, Verdict.WARN, what + "; but no RoCE v2 GID for " + String.join(", ", missing),
                        n);
            }
            return dp.result(ID, Verdict.OK, what + "; every address of " + nd + " has a RoCE v2 GID", n);
        }
        if (g != null) {
            return dp.result(ID, Verdict.OK, what + " (netdev addresses not attributable from /proc;"
                    + " taken from the GID table)", n);
        }
        if (!v2.isEmpty()) {
            return dp.result(ID, Verdict.WARN, "only link-local RoCE v2 GIDs" + (nd != null ? " on " + nd : "")
                    + ": the netdev has no IP address, so RoCE v2 is not routable", n);
        }
        return dp.result(ID, Verdict.FAIL, "no RoCE v2 GID (" + typed.size()
                + " RoCE v1 only): RoCE v2 (routable, UDP/IP) is unavailable", n);
    }

    /**
     * The v2 GID of an address of the netdev, an IPv4 one first. Without known addresses, the routable v2 GIDs
     * themselves, IPv4-mapped first as perftest does; with addresses none of which has a GID, none.
     */
    private static Pick pick(List<Gid> v2, List<IpAddress> addrs) {
        List<String> missing = new ArrayList<>();
        Gid pick = null;
        for (IpAddress a : addrs) {
            Optional<Gid> g = v2.stream().filter(x -> x.hex().equals(a.gidHex())).findFirst();
            if (g.isEmpty()) {
                missing.add(a.text());
            } else if (pick == null || (a.ipv4() && pick.ipv4().isEmpty())) {
                pick = g.get();
            }
        }
        if (pick == null && addrs.isEmpty()) {
            pick = v2.stream().filter(g -> g.ipv4().isPresent()).findFirst()
                    .orElse(v2.stream().filter(g -> !g.isLinkLocal()).findFirst().orElse(null));
        }
        return new Pick(pick, missing);
    }
}
