package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Topology;

import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code roce-lossless}: PFC (from a {@link PfcProbe}), trust and ECN (MLNX_OFED's sysfs files) where they can be
 * read; never guessed.
 */
record RoceLosslessCheck(Topology topo, PfcProbe pfc) implements Check<DevicePort> {
    private static final CheckId ID = CheckId.ROCE_LOSSLESS;

    @Override
    public CheckResult examine(DevicePort dp) {
        return dp.withRoceNetdev(ID, "; InfiniBand is lossless by credit-based flow control", topo,
                nd -> nd.physical() ? lossless(dp, nd) : dp.na(ID, "netdev " + nd.name() + " is virtual ("
                        + nd.pciAddress().problem() + "): PFC and ECN belong to a physical NIC"));
    }

    private CheckResult lossless(DevicePort dp, NetDevice nd) {
        Reading<List<Integer>> pfcPrio = pfc.pfcPriorities(nd.name());
        Reading<List<Integer>> np = nd.ecnNotification();
        Reading<List<Integer>> rp = nd.ecnReaction();
        Numbers.Builder n = Numbers.builder().text("netdev", nd.name())
                .text("pfcPriorities", pfcPrio.known() ? prios(pfcPrio.value()) : null)
                .text("trust", nd.qosTrust().orElse(null))
                .text("ecnNotificationPriorities", np.known() ? prios(np.value()) : null)
                .text("ecnReactionPriorities", rp.known() ? prios(rp.value()) : null);
        String trust = nd.qosTrust().known() ? "trust " + nd.qosTrust().value()
                : "trust unknown (qos/trust is MLNX_OFED-only)";
        boolean ecnKnown = np.known() && rp.known();
        String ecn = ecnKnown ? "ECN np on " + prios(np.value()) + ", rp on " + prios(rp.value())
                : "ECN unknown (" + (np.known() ? rp.problem() : np.problem()) + "; ecn/ is MLNX_OFED-only)";
        if (pfcPrio.known()) {
            List<Integer> on = pfcPrio.value();
            if (on.isEmpty()) {
                return dp.result(ID, Verdict.WARN, "PFC off on every priority of " + nd.name()
                        + ": RoCE runs lossy (drops → retransmissions); " + ecn + "; " + trust, n);
            }
            if (ecnKnown && on.stream().noneMatch(x -> np.value().contains(x) && rp.value().contains(x))) {
                return dp.result(ID, Verdict.WARN, "PFC on priority " + prios(on)
                        + " but ECN/DCQCN not enabled there: PFC alone spreads congestion; " + ecn + "; " + trust, n);
            }
            return dp.result(ID, Verdict.OK, "PFC on priority " + prios(on) + "; " + ecn + "; " + trust, n);
        }
        if (ecnKnown && np.value().isEmpty() && rp.value().isEmpty()) {
            return dp.result(ID, Verdict.WARN, "ECN disabled on every priority of " + nd.name()
                    + "; PFC unknown (" + pfcPrio.problem() + "); " + trust, n);
        }
        return dp.result(ID, Verdict.NA, "PFC unknown (" + pfcPrio.problem() + "); " + ecn + "; " + trust, n);
    }

    private static String prios(List<Integer> l) {
        return l.isEmpty() ? "none" : l.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
