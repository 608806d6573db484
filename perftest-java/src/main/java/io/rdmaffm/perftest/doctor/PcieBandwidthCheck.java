package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.PcieSpeed;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.rdmaffm.perftest.doctor.Fmt.fmt;
import static io.rdmaffm.perftest.doctor.Fmt.round;

/**
 * {@code pcie-bandwidth}: the rates of the active ports sharing one PCIe link against the narrowest link on the
 * path up to the root port, raw and as modelled payload throughput ({@link PcieMath}).
 */
record PcieBandwidthCheck(Topology topo) implements Check<SysfsRdmaDevice> {
    private static final CheckId ID = CheckId.PCIE_BANDWIDTH;

    /**
     * What the active ports on one PCIe link need.
     *
     * @param gbps         the sum of their rates
     * @param active       {@code dev/port} of each port counted
     * @param unknownRates active ports whose rate is unreadable, with the reason
     * @param sdrSuspect   whether a rate reads SDR (old kernels' name for speeds they do not know)
     */
    private record Demand(double gbps, List<String> active, List<String> unknownRates, boolean sdrSuspect) {
    }

    /**
     * The narrowest hop on the path.
     *
     * @param index       its place in the chain, or -1 when no hop's link is known
     * @param rawGbps     its raw rate
     * @param unknownHops hops whose link is unreadable, with the reason
     */
    private record Narrowest(int index, double rawGbps, List<String> unknownHops) {
    }

    @Override
    public CheckResult examine(SysfsRdmaDevice d) {
        CheckResult na = CheckResult.withoutPciPath(ID, d, "no PCIe link");
        if (na != null) {
            return na;
        }
        PciPath path = d.pci().value();
        Demand demand = demand(path);
        Narrowest narrowest = narrowest(path.chain());
        Numbers.Builder n = Numbers.builder().real("demandGbps", demand.gbps())
                .text("activePorts", String.join(",", demand.active()));
        if (narrowest.index() < 0) {
            return CheckResult.of(ID, d, Verdict.NA, "PCIe link speed unknown: "
                    + String.join("; ", narrowest.unknownHops()), n);
        }
        return judge(d, path, demand, narrowest, n);
    }

    /** Functions of one PCI device (a dual-port card's .0 and .1) share one physical link. */
    private Demand demand(PciPath path) {
        double gbps = 0;
        List<String> active = new ArrayList<>();
        List<String> unknownRates = new ArrayList<>();
        boolean sdrSuspect = false;
        for (SysfsRdmaDevice o : topo.devices()) {
            if (o.virtual() || !o.pci().known()) {
                continue;
            }
            PciPath op = o.pci().value();
            if (!op.hostBridge().equals(path.hostBridge()) || !op.endpoint().slot().equals(path.endpoint().slot())) {
                continue;
            }
            for (RdmaPort p : o.ports().orElse(List.of())) {
                if (!p.isActive()) {
                    continue;
                }
                if (p.rate().known()) {
                    gbps += p.rate().value().gbps();
                    active.add(o.name() + "/" + p.number());
                    sdrSuspect |= p.rate().value().isSdr();
                } else {
                    unknownRates.add(o.name() + "/" + p.number() + " (" + p.rate().problem() + ")");
                }
            }
        }
        return new Demand(gbps, active, unknownRates, sdrSuspect);
    }

    private static Narrowest narrowest(List<PciFunction> chain) {
        int limit = -1;
        double limitRaw = Double.MAX_VALUE;
        List<String> unknownHops = new ArrayList<>();
        for (int i = 0; i < chain.size(); i++) {
            PciFunction f = chain.get(i);
            if (!f.currentSpeed().known() || !f.currentWidth().known()) {
                unknownHops.add(f.address() + ": " + (f.currentSpeed().known() ? f.currentWidth().problem()
                        : f.currentSpeed().problem()));
                continue;
            }
            double raw = PcieMath.rawGbps(f.currentSpeed().value(), f.currentWidth().value());
            // Both ends of a link report it; on a tie blame the end that cannot do better, and like the
            // kernel's pcie_bandwidth_available() prefer the end nearer the root.
            boolean better = raw < limitRaw - 1e-9
                    || (Math.abs(raw - limitRaw) < 1e-9 && capability(f) < capability(chain.get(limit)) - 1e-9);
            if (limit < 0 || better) {
                limit = i;
                limitRaw = raw;
            }
        }
        return new Narrowest(limit, limitRaw, unknownHops);
    }

    private CheckResult judge(SysfsRdmaDevice d, PciPath path, Demand dem, Narrowest nar, Numbers.Builder n) {
        PciFunction nic = path.endpoint();
        PciFunction lim = path.chain().get(nar.index());
        PcieSpeed speed = lim.currentSpeed().value();
        int width = lim.currentWidth().value();
        int mps = nic.maxPayload().orElse(PcieMath.DEFAULT_MPS);
        boolean mpsAssumed = !nic.maxPayload().known();
        double raw = nar.rawGbps();
        double model = PcieMath.modelGbps(speed, width, mps);
        double nccl = PcieMath.ncclGbps(speed, width);
        String role = role(path, nar.index());
        n.text("linkSpeed", speed.label()).whole("linkWidth", width).real("rawGbps", round(raw))
                .real("modelGbps", round(model))
                .real("efficiency", Math.round(PcieMath.efficiency(speed, mps) * 10000) / 10000.0)
                .whole("maxPayloadBytes", mps).flag("maxPayloadAssumed", mpsAssumed)
                .real("ncclModelGbps", Double.isNaN(nccl) ? null : round(nccl))
                .text("limitingDevice", lim.address()).text("limitingRole", role);
        String link = speed.label() + " x" + width;
        String where = lim.address() + " (" + role + ", " + link + ")";
        String mpsNote = "MPS " + mps + (mpsAssumed ? " assumed" : "");
        String notes = notes(d, path, dem, nar, n);
        if (dem.active().isEmpty() && !dem.unknownRates().isEmpty()) {
            return CheckResult.of(ID, d, Verdict.NA, "port demand unknown: rate unreadable for "
                    + String.join(", ", dem.unknownRates()) + "; link " + link + " = " + fmt(raw) + " Gb/s raw", n);
        }
        if (dem.active().isEmpty()) {
            return CheckResult.of(ID, d, Verdict.NA, "no active port on this PCIe link, nothing to compare; link "
                    + link + " = " + fmt(raw) + " Gb/s raw, limited by " + where + notes, n);
        }
        double demand = dem.gbps();
        double margin = (model - demand) / demand;
        n.real("marginPercent", round(margin * 100));
        String ports = dem.active().size() == 1 ? "port " + dem.active().getFirst() + " needs"
                : dem.active().size() + " active ports sharing the link (" + String.join(", ", dem.active())
                + ") need";
        String ncclNote = !Double.isNaN(nccl) && nccl < demand
                ? "; NCCL models this link at " + fmt(nccl) + " Gb/s and will treat the NIC as PCIe-bound" : "";
        if (raw < demand) {
            String capable = capability(nic) > raw + 1e-9 && nic.maxSpeed().known() && nic.maxWidth().known()
                    ? "; the NIC could do " + nic.maxSpeed().value().label() + " x" + nic.maxWidth().value() : "";
            return CheckResult.of(ID, d, Verdict.FAIL, ports + " " + fmt(demand) + " Gb/s but the PCIe link gives "
                    + fmt(raw) + " Gb/s raw (" + fmt(model) + " modelled), limited by " + where + capable + notes, n);
        }
        if (model < demand) {
            return CheckResult.of(ID, d, Verdict.WARN, ports + " " + fmt(demand) + " Gb/s; the link's "
                    + fmt(raw) + " Gb/s raw leaves only " + fmt(model) + " Gb/s of payload (" + mpsNote
                    + "), limited by " + where + ncclNote + notes, n);
        }
        if (margin < Doctor.MIN_MARGIN) {
            return CheckResult.of(ID, d, Verdict.WARN, "margin only " + fmt(margin * 100) + "%: " + ports + " "
                    + fmt(demand) + " Gb/s, " + link + " carries " + fmt(model) + " Gb/s modelled (" + mpsNote
                    + ", " + fmt(raw) + " raw), narrowest at " + lim.address() + ncclNote + notes, n);
        }
        return CheckResult.of(ID, d, Verdict.OK, ports + " " + fmt(demand) + " Gb/s; " + link + " carries "
                + fmt(raw) + " Gb/s raw, " + fmt(model) + " modelled (" + mpsNote + "), margin "
                + fmt(margin * 100) + "%, narrowest at " + lim.address() + ncclNote + notes, n);
    }

    /** What else the reason should say: unreadable rates and hops, other links of the adapter, SDR doubts. */
    private String notes(SysfsRdmaDevice d, PciPath path, Demand dem, Narrowest nar, Numbers.Builder n) {
        String notes = "";
        if (!dem.unknownRates().isEmpty()) {
            notes += "; rate unknown for " + String.join(", ", dem.unknownRates());
        }
        if (!nar.unknownHops().isEmpty()) {
            notes += "; link unknown at " + String.join(", ", nar.unknownHops());
        }
        List<String> siblings = otherLinksOfAdapter(d, path);
        if (!siblings.isEmpty()) {
            n.text("adapterOtherLinks", String.join(",", siblings));
            notes += "; the same adapter (sys_image_guid) also sits on " + String.join(", ", siblings)
                    + " (Socket Direct / multi-host: each PF reports the full port rate, so compare the port rate"
                    + " with the sum of these links)";
        }
        PciFunction nic = path.endpoint();
        if (dem.sdrSuspect() && nic.maxSpeed().known() && nic.maxSpeed().value().generation() >= 3) {
            notes += "; a port rate reads SDR on a Gen3+ NIC: the kernel may be too old to name its speed,"
                    + " so the demand may be understated";
        }
        return notes;
    }

    /** Other PCIe links of one adapter: functions sharing sys_image_guid but not the PCI device. */
    private List<String> otherLinksOfAdapter(SysfsRdmaDevice d, PciPath path) {
        String guid = d.sysImageGuid().orElse("");
        if (guid.isEmpty() || guid.replaceAll("[0:]", "").isEmpty()) {
            return List.of(); // rxe and some VFs report zeros
        }
        Set<String> out = new LinkedHashSet<>();
        for (SysfsRdmaDevice o : topo.devices()) {
            if (o == d || o.virtual() || !o.pci().known() || !guid.equals(o.sysImageGuid().orElse(""))) {
                continue;
            }
            PciFunction f = o.pci().value().endpoint();
            if (!f.slot().equals(path.endpoint().slot()) || !o.pci().value().hostBridge().equals(path.hostBridge())) {
                out.add(o.name() + " at " + f.address());
            }
        }
        return List.copyOf(out);
    }

    private static double capability(PciFunction f) {
        if (!f.maxSpeed().known() || !f.maxWidth().known()) {
            return Double.MAX_VALUE;
        }
        return PcieMath.rawGbps(f.maxSpeed().value(), f.maxWidth().value());
    }

    private static String role(PciPath path, int index) {
        if (index == path.chain().size() - 1) {
            return "the NIC's own link";
        }
        if (index == 0) {
            return "root port";
        }
        return path.chain().get(index).isBridge() ? "switch port" : "bridge";
    }
}
