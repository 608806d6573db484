package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.PortRate;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.Locale;
import java.util.Optional;

/** {@code port-state}: the port is ACTIVE/LinkUp at a rate the kernel could name. */
record PortStateCheck(Topology topo) implements Check<DevicePort> {
    private static final CheckId ID = CheckId.PORT_STATE;

    @Override
    public CheckResult examine(DevicePort dp) {
        RdmaPort p = dp.port();
        Numbers.Builder n = Numbers.builder()
                .text("state", p.state().known() ? p.state().value().name() : null)
                .text("physState", p.physState().known() ? p.physState().value().name() : null)
                .text("rate", p.rate().known() ? p.rate().value().raw() : null)
                .real("rateGbps", p.rate().known() ? p.rate().value().gbps() : null);
        if (!p.state().known()) {
            return dp.result(ID, Verdict.NA, "port state unknown: " + p.state().problem(), n);
        }
        String state = p.state().value().name();
        String phys = p.physState().known() ? p.physState().value().name() : "unknown";
        if (!p.isActive()) {
            String hint = switch (state.toUpperCase(Locale.ROOT)) {
                case "INIT", "ARMED" -> "link is up but not configured (InfiniBand: is a subnet manager running?)";
                case "DOWN" -> phys.equalsIgnoreCase("Polling") ? "no cable or no link partner"
                        : phys.equalsIgnoreCase("Disabled") ? "port disabled" : "link down";
                default -> "not usable for traffic";
            };
            return dp.result(ID, Verdict.WARN, "port " + state + " (phys_state " + phys + "): " + hint
                    + " (harmless if the port is unused)", n);
        }
        if (p.physState().known() && !phys.equalsIgnoreCase("LinkUp")) {
            return dp.result(ID, Verdict.WARN, "port ACTIVE but phys_state " + phys, n);
        }
        if (!p.rate().known()) {
            return dp.result(ID, Verdict.NA, "port ACTIVE/" + phys + " but the rate is unknown: "
                    + p.rate().problem(), n);
        }
        PortRate rate = p.rate().value();
        CheckResult sdr = rate.isSdr() ? unnamedSpeed(dp, rate, phys, n) : null;
        if (sdr != null) {
            return sdr;
        }
        String unlabelled = rate.unlabelled() ? " (no speed name: old-kernel spelling of SDR)" : "";
        return dp.result(ID, Verdict.OK, "ACTIVE/" + phys + " at " + rate.raw() + unlabelled, n);
    }

    /**
     * Old kernels print speeds they do not know as SDR: a faster netdev or a Gen3+ NIC gives that away.
     *
     * @return the verdict when the SDR reading is doubtful, else {@code null}
     */
    private CheckResult unnamedSpeed(DevicePort dp, PortRate rate, String phys, Numbers.Builder n) {
        SysfsRdmaDevice d = dp.device();
        Optional<NetDevice> nd = dp.netdev().known() ? topo.netdev(dp.netdev().value()) : Optional.empty();
        Long speed = nd.flatMap(x -> Optional.ofNullable(x.speedMbps().orElse(null))).orElse(null);
        if (speed != null && speed / 1000.0 > rate.gbps() + 1e-9) {
            n.whole("netdevSpeedMbps", speed);
            String msg = "rate reads '" + rate.raw() + "' but netdev " + dp.netdev().value() + " runs at " + speed
                    + " Mb/s: kernel too old to name this speed (it maps unknown speeds to SDR)";
            return dp.result(ID, d.virtual() ? Verdict.OK : Verdict.WARN, d.virtual() ? "ACTIVE/" + phys + "; "
                    + msg : msg, n);
        }
        boolean modernNic = !d.virtual() && d.pci().known() && d.pci().value().endpoint().maxSpeed().known()
                && d.pci().value().endpoint().maxSpeed().value().generation() >= 3;
        if (modernNic) {
            return dp.result(ID, Verdict.WARN, "rate reads '" + rate.raw() + "' on a PCIe Gen"
                    + d.pci().value().endpoint().maxSpeed().value().generation()
                    + " NIC: kernel too old to name this speed (it maps unknown speeds to SDR), or the link"
                    + " really trained at SDR", n);
        }
        return null;
    }
}
