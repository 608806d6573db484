package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Gid;
import io.rdmaffm.verbs.topology.IpAddress;
import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.PcieSpeed;
import io.rdmaffm.verbs.topology.PortRate;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Runs the doctor's checks over a {@link Topology}. Each check yields a {@link CheckResult} per device,
 * port or host; a check that cannot be made says why (N/A) instead of guessing.
 */
public final class Doctor {

    /** Below this headroom of modelled PCIe throughput over port demand, pcie-bandwidth warns. */
    public static final double MIN_MARGIN = 0.10;
    /** RoCE needs the netdev MTU to hold a 4096-byte payload plus GRH, UDP, BTH, XRC, AtomicETH and ICRC. */
    public static final int ROCE_HEADERS = 96;

    private final Topology topo;
    private final PfcProbe pfc;

    private Doctor(Topology topo, PfcProbe pfc) {
        this.topo = topo;
        this.pfc = pfc;
    }

    /**
     * Examines a topology.
     *
     * @param topo         the snapshot
     * @param deviceFilter a device name to restrict the report to, or {@code null} for all
     * @param pfc          where PFC state comes from
     * @return the report
     * @throws IllegalArgumentException when {@code deviceFilter} names no device
     */
    public static DoctorReport examine(Topology topo, String deviceFilter, PfcProbe pfc) {
        return new Doctor(topo, pfc).run(deviceFilter);
    }

    private DoctorReport run(String deviceFilter) {
        List<SysfsRdmaDevice> shown = topo.devices();
        if (deviceFilter != null) {
            shown = shown.stream().filter(d -> d.name().equals(deviceFilter)).toList();
            if (shown.isEmpty()) {
                String found = topo.devices().isEmpty() ? "none found"
                        : "found: " + topo.devices().stream().map(SysfsRdmaDevice::name)
                                .collect(Collectors.joining(", "));
                throw new IllegalArgumentException("no RDMA device '" + deviceFilter + "' under "
                        + topo.root().resolve("sys/class/infiniband") + " (" + found + ")");
            }
        }
        List<String> problems = new ArrayList<>();
        if (topo.devicesProblem() != null) {
            problems.add("cannot list RDMA devices: " + topo.devicesProblem());
        } else if (topo.devices().isEmpty()) {
            problems.add("no RDMA devices under /sys/class/infiniband");
        }
        List<GpuChoice> gpus = gpuChoices();
        List<CheckResult> results = new ArrayList<>();
        for (SysfsRdmaDevice d : shown) {
            results.add(pcieBandwidth(d));
            results.add(pcieDowntrained(d));
            results.add(numa(d));
            results.add(gpuNicAffinity(d, gpus));
            if (!d.ports().known()) {
                problems.add(d.name() + ": cannot list ports: " + d.ports().problem());
            }
            for (RdmaPort p : d.ports().orElse(List.of())) {
                Reading<String> netdev = netdevOf(d, p);
                results.add(portState(d, p, netdev));
                results.add(roceGid(d, p, netdev));
                results.add(roceMtu(d, p, netdev));
                results.add(roceLossless(d, p, netdev));
            }
        }
        results.add(fabricAdvice(gpus));
        return new DoctorReport(topo, shown, gpus, results, null, problems);
    }

    // ---- pcie-bandwidth ----------------------------------------------------------------------------

    private CheckResult pcieBandwidth(SysfsRdmaDevice d) {
        CheckId id = CheckId.PCIE_BANDWIDTH;
        if (d.virtual()) {
            return na(id, d, "virtual device (" + d.virtualReason() + "): no PCIe link");
        }
        if (!d.pci().known()) {
            return na(id, d, "PCI path unknown: " + d.pci().problem());
        }
        PciPath path = d.pci().value();
        PciFunction nic = path.endpoint();

        // Functions of one PCI device (a dual-port card's .0 and .1) share one physical link.
        double demand = 0;
        List<String> active = new ArrayList<>();
        List<String> unknownRates = new ArrayList<>();
        boolean sdrSuspect = false;
        for (SysfsRdmaDevice o : topo.devices()) {
            if (o.virtual() || !o.pci().known()) {
                continue;
            }
            PciPath op = o.pci().value();
            if (!op.hostBridge().equals(path.hostBridge()) || !op.endpoint().slot().equals(nic.slot())) {
                continue;
            }
            for (RdmaPort p : o.ports().orElse(List.of())) {
                if (!p.isActive()) {
                    continue;
                }
                if (p.rate().known()) {
                    demand += p.rate().value().gbps();
                    active.add(o.name() + "/" + p.number());
                    sdrSuspect |= p.rate().value().isSdr();
                } else {
                    unknownRates.add(o.name() + "/" + p.number() + " (" + p.rate().problem() + ")");
                }
            }
        }

        List<PciFunction> chain = path.chain();
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
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("demandGbps", demand);
        n.put("activePorts", String.join(",", active));
        if (limit < 0) {
            return result(id, d, null, Verdict.NA, "PCIe link speed unknown: " + String.join("; ", unknownHops), n);
        }
        PciFunction lim = chain.get(limit);
        PcieSpeed speed = lim.currentSpeed().value();
        int width = lim.currentWidth().value();
        int mps = nic.maxPayload().orElse(PcieMath.DEFAULT_MPS);
        boolean mpsAssumed = !nic.maxPayload().known();
        double model = PcieMath.modelGbps(speed, width, mps);
        double nccl = PcieMath.ncclGbps(speed, width);
        n.put("linkSpeed", speed.label());
        n.put("linkWidth", width);
        n.put("rawGbps", round(limitRaw));
        n.put("modelGbps", round(model));
        n.put("efficiency", Math.round(PcieMath.efficiency(speed, mps) * 10000) / 10000.0);
        n.put("maxPayloadBytes", mps);
        n.put("maxPayloadAssumed", mpsAssumed);
        n.put("ncclModelGbps", Double.isNaN(nccl) ? null : round(nccl));
        n.put("limitingDevice", lim.address());
        n.put("limitingRole", role(path, limit));
        String link = speed.label() + " x" + width;
        String where = lim.address() + " (" + role(path, limit) + ", " + link + ")";
        String mpsNote = "MPS " + mps + (mpsAssumed ? " assumed" : "");
        String notes = "";
        if (!unknownRates.isEmpty()) {
            notes += "; rate unknown for " + String.join(", ", unknownRates);
        }
        if (!unknownHops.isEmpty()) {
            notes += "; link unknown at " + String.join(", ", unknownHops);
        }
        List<String> siblings = otherLinksOfAdapter(d, path);
        if (!siblings.isEmpty()) {
            n.put("adapterOtherLinks", String.join(",", siblings));
            notes += "; the same adapter (sys_image_guid) also sits on " + String.join(", ", siblings)
                    + " (Socket Direct / multi-host: each PF reports the full port rate, so compare the port rate"
                    + " with the sum of these links)";
        }
        if (sdrSuspect && nic.maxSpeed().known() && nic.maxSpeed().value().generation() >= 3) {
            notes += "; a port rate reads SDR on a Gen3+ NIC: the kernel may be too old to name its speed,"
                    + " so the demand may be understated";
        }
        if (active.isEmpty() && !unknownRates.isEmpty()) {
            return result(id, d, null, Verdict.NA, "port demand unknown: rate unreadable for "
                    + String.join(", ", unknownRates) + "; link " + link + " = " + fmt(limitRaw) + " Gb/s raw", n);
        }
        if (active.isEmpty()) {
            return result(id, d, null, Verdict.NA, "no active port on this PCIe link, nothing to compare; link "
                    + link + " = " + fmt(limitRaw) + " Gb/s raw, limited by " + where + notes, n);
        }
        double margin = (model - demand) / demand;
        n.put("marginPercent", round(margin * 100));
        String ports = active.size() == 1 ? "port " + active.getFirst() + " needs"
                : active.size() + " active ports sharing the link (" + String.join(", ", active) + ") need";
        String ncclNote = !Double.isNaN(nccl) && nccl < demand
                ? "; NCCL models this link at " + fmt(nccl) + " Gb/s and will treat the NIC as PCIe-bound" : "";
        if (limitRaw < demand) {
            String capable = capability(nic) > limitRaw + 1e-9 && nic.maxSpeed().known() && nic.maxWidth().known()
                    ? "; the NIC could do " + nic.maxSpeed().value().label() + " x" + nic.maxWidth().value() : "";
            return result(id, d, null, Verdict.FAIL, ports + " " + fmt(demand) + " Gb/s but the PCIe link gives "
                    + fmt(limitRaw) + " Gb/s raw (" + fmt(model) + " modelled), limited by " + where + capable
                    + notes, n);
        }
        if (model < demand) {
            return result(id, d, null, Verdict.WARN, ports + " " + fmt(demand) + " Gb/s; the link's "
                    + fmt(limitRaw) + " Gb/s raw leaves only " + fmt(model) + " Gb/s of payload (" + mpsNote
                    + "), limited by " + where + ncclNote + notes, n);
        }
        if (margin < MIN_MARGIN) {
            return result(id, d, null, Verdict.WARN, "margin only " + fmt(margin * 100) + "%: " + ports + " "
                    + fmt(demand) + " Gb/s, " + link + " carries " + fmt(model) + " Gb/s modelled (" + mpsNote
                    + ", " + fmt(limitRaw) + " raw), narrowest at " + lim.address() + ncclNote + notes, n);
        }
        return result(id, d, null, Verdict.OK, ports + " " + fmt(demand) + " Gb/s; " + link + " carries "
                + fmt(limitRaw) + " Gb/s raw, " + fmt(model) + " modelled (" + mpsNote + "), margin "
                + fmt(margin * 100) + "%, narrowest at " + lim.address() + ncclNote + notes, n);
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

    // ---- pcie-downtrained --------------------------------------------------------------------------

    private CheckResult pcieDowntrained(SysfsRdmaDevice d) {
        CheckId id = CheckId.PCIE_DOWNTRAINED;
        if (d.virtual()) {
            return na(id, d, "virtual device (" + d.virtualReason() + "): no PCIe link");
        }
        if (!d.pci().known()) {
            return na(id, d, "PCI path unknown: " + d.pci().problem());
        }
        List<PciFunction> chain = d.pci().value().chain();
        PciFunction nic = chain.getLast();
        Map<String, Object> n = new LinkedHashMap<>();
        if (!nic.currentSpeed().known() || !nic.currentWidth().known()) {
            return result(id, d, null, Verdict.NA, "NIC link unknown: " + (nic.currentSpeed().known()
                    ? nic.currentWidth().problem() : nic.currentSpeed().problem()), n);
        }
        if (!nic.maxSpeed().known() || !nic.maxWidth().known()) {
            return result(id, d, null, Verdict.NA, "NIC link capability unknown: " + (nic.maxSpeed().known()
                    ? nic.maxWidth().problem() : nic.maxSpeed().problem()), n);
        }
        n.put("currentSpeed", nic.currentSpeed().value().label());
        n.put("currentWidth", nic.currentWidth().value());
        n.put("maxSpeed", nic.maxSpeed().value().label());
        n.put("maxWidth", nic.maxWidth().value());
        List<String> findings = new ArrayList<>();
        String slotNote = "";
        for (int i = chain.size() - 1; i >= 0; i--) {
            PciFunction f = chain.get(i);
            if (!f.currentSpeed().known() || !f.currentWidth().known() || !f.maxSpeed().known()
                    || !f.maxWidth().known()) {
                continue;
            }
            // The link above function i joins it to chain[i-1]: it can train to what both ends support.
            double expSpeed = f.maxSpeed().value().gigaTransfers();
            int expWidth = f.maxWidth().value();
            PciFunction up = i > 0 ? chain.get(i - 1) : null;
            if (up != null && up.maxSpeed().known()) {
                expSpeed = Math.min(expSpeed, up.maxSpeed().value().gigaTransfers());
            }
            if (up != null && up.maxWidth().known()) {
                expWidth = Math.min(expWidth, up.maxWidth().value());
            }
            double cs = f.currentSpeed().value().gigaTransfers();
            int cw = f.currentWidth().value();
            if (cs < expSpeed - 1e-9 || cw < expWidth) {
                findings.add(f.address() + (i == chain.size() - 1 ? " (NIC)" : "") + " trained "
                        + f.currentSpeed().value().label() + " x" + cw + ", both ends support "
                        + new PcieSpeed(expSpeed).label() + " x" + expWidth);
            }
            if (i == chain.size() - 1 && (expSpeed < f.maxSpeed().value().gigaTransfers() - 1e-9
                    || expWidth < f.maxWidth().value()) && up != null) {
                slotNote = "; the slot " + up.address() + " caps the NIC at " + new PcieSpeed(expSpeed).label()
                        + " x" + expWidth + " (NIC capable of " + f.maxSpeed().value().label() + " x"
                        + f.maxWidth().value() + ")";
            }
        }
        n.put("downtrainedLinks", findings.size());
        if (!findings.isEmpty()) {
            return result(id, d, null, Verdict.WARN, "downtrained: " + String.join("; ", findings)
                    + " (bad riser, BIOS bifurcation or a slot wired narrower?)" + slotNote, n);
        }
        return result(id, d, null, Verdict.OK, "NIC trained " + nic.currentSpeed().value().label() + " x"
                + nic.currentWidth().value() + ", the most both ends support; no downtrained link up to the root port"
                + slotNote, n);
    }

    // ---- numa -------------------------------------------------------------------------------------

    private CheckResult numa(SysfsRdmaDevice d) {
        CheckId id = CheckId.NUMA;
        if (d.virtual()) {
            return na(id, d, "virtual device (" + d.virtualReason() + "): no PCI device, pin to the parent NIC's node");
        }
        if (!d.pci().known()) {
            return na(id, d, "PCI path unknown: " + d.pci().problem());
        }
        PciFunction nic = d.pci().value().endpoint();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("numaNode", nic.numaNode().orElse(null));
        n.put("localCpus", nic.localCpuList().orElse(null));
        n.put("hostNumaNodes", topo.numaNodes().orElse(null));
        String cpus = nic.localCpuList().known() ? "local CPUs " + nic.localCpuList().value()
                : "local CPUs unknown (" + nic.localCpuList().problem() + ")";
        if (nic.numaNode().known()) {
            int node = nic.numaNode().value();
            return result(id, d, null, Verdict.OK, "NUMA node " + node + ", " + cpus + "; run benchmarks with"
                    + " numactl -N " + node + " -m " + node, n);
        }
        if (!topo.numaNodes().known()) {
            return result(id, d, null, Verdict.NA, "NUMA node unknown (" + nic.numaNode().problem()
                    + ") and the host's node count unknown (" + topo.numaNodes().problem() + ")", n);
        }
        if (topo.numaNodes().value() > 1) {
            return result(id, d, null, Verdict.WARN, "NUMA node unknown (" + nic.numaNode().problem() + ") on a "
                    + topo.numaNodes().value() + "-node host: cannot pin to the NIC's socket; " + cpus, n);
        }
        return result(id, d, null, Verdict.OK, "single NUMA node host, so the unknown node ("
                + nic.numaNode().problem() + ") does not matter; " + cpus, n);
    }

    // ---- gpu-nic-affinity -------------------------------------------------------------------------

    /**
     * A GPU and the NIC it should use.
     *
     * @param pci     the GPU's PCI address
     * @param model   its model name
     * @param nic     the nearest RDMA device, or {@code null} when none has a PCI path
     * @param path    the distance to that NIC, or {@code null}
     * @param maxLink the GPU's link capability (GPUs downtrain when idle, so the current link means little)
     */
    public record GpuChoice(String pci, String model, String nic, PathClass path, String maxLink) {
    }

    private List<GpuChoice> gpuChoices() {
        List<GpuChoice> out = new ArrayList<>();
        for (PciPath g : topo.gpus()) {
            PciFunction f = g.endpoint();
            String model = f.device().known() ? GpuModels.of(f.device().value()).name() : "NVIDIA GPU";
            String best = null;
            PathClass bestClass = null;
            for (SysfsRdmaDevice d : topo.devices()) {
                if (d.virtual() || !d.pci().known()) {
                    continue;
                }
                PathClass c = PathClass.classify(g, d.pci().value(), topo.numaNodes());
                if (bestClass == null || c.ordinal() < bestClass.ordinal()) {
                    bestClass = c;
                    best = d.name();
                }
            }
            String maxLink = f.maxSpeed().known() && f.maxWidth().known()
                    ? f.maxSpeed().value().label() + " x" + f.maxWidth().value() : "unknown";
            out.add(new GpuChoice(f.address(), model, best, bestClass, maxLink));
        }
        return out;
    }

    private CheckResult gpuNicAffinity(SysfsRdmaDevice d, List<GpuChoice> gpus) {
        CheckId id = CheckId.GPU_NIC_AFFINITY;
        if (d.virtual()) {
            return na(id, d, "virtual device (" + d.virtualReason() + "): no GPUDirect RDMA");
        }
        if (topo.gpus().isEmpty()) {
            return na(id, d, topo.gpuProblem() != null ? "cannot list PCI devices: " + topo.gpuProblem()
                    : "no NVIDIA GPU found under /sys/bus/pci/devices");
        }
        if (!d.pci().known()) {
            return na(id, d, "PCI path unknown: " + d.pci().problem());
        }
        PathClass best = null;
        String nearest = null;
        Map<String, String> classes = new TreeMap<>();
        for (PciPath g : topo.gpus()) {
            PathClass c = PathClass.classify(g, d.pci().value(), topo.numaNodes());
            classes.put(g.endpoint().address(), c.name());
            if (best == null || c.ordinal() < best.ordinal()) {
                best = c;
                nearest = g.endpoint().address();
            }
        }
        List<String> preferring = gpus.stream().filter(g -> d.name().equals(g.nic()))
                .map(g -> g.pci() + " (" + g.path() + ")").toList();
        boolean peer = !topo.peerMemory().isEmpty();
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("nearestGpu", nearest);
        n.put("path", best.name());
        n.put("gdrLikely", best.gdrByDefault() && peer);
        n.put("peerMemoryLoaded", peer);
        n.put("gpusPreferringThisNic", String.join(",", preferring.stream().map(s -> s.split(" ")[0]).toList()));
        String users = preferring.isEmpty() ? "no GPU has this as its nearest NIC"
                : "nearest NIC for GPU " + String.join(", ", preferring);
        if (!best.gdrByDefault()) {
            return result(id, d, null, Verdict.WARN, "nearest GPU " + nearest + " is " + best
                    + ": GPUDirect RDMA unlikely (NCCL's default GDR level is PXB); " + users, n);
        }
        if (!peer) {
            return result(id, d, null, Verdict.WARN, "nearest GPU " + nearest + " is " + best
                    + ", but no peer-memory module is loaded (nvidia_peermem / nv_mem): GPUDirect RDMA needs it"
                    + " unless the stack uses DMA-BUF; " + users, n);
        }
        return result(id, d, null, Verdict.OK, "nearest GPU " + nearest + " is " + best
                + ", GPUDirect RDMA likely (" + topo.peerMemory().getFirst() + " present); " + users, n);
    }

    // ---- port-state -------------------------------------------------------------------------------

    private CheckResult portState(SysfsRdmaDevice d, RdmaPort p, Reading<String> netdev) {
        CheckId id = CheckId.PORT_STATE;
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("state", p.state().known() ? p.state().value().name() : null);
        n.put("physState", p.physState().known() ? p.physState().value().name() : null);
        n.put("rate", p.rate().known() ? p.rate().value().raw() : null);
        n.put("rateGbps", p.rate().known() ? p.rate().value().gbps() : null);
        if (!p.state().known()) {
            return result(id, d, p.number(), Verdict.NA, "port state unknown: " + p.state().problem(), n);
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
            return result(id, d, p.number(), Verdict.WARN, "port " + state + " (phys_state " + phys + "): " + hint
                    + " (harmless if the port is unused)", n);
        }
        if (p.physState().known() && !phys.equalsIgnoreCase("LinkUp")) {
            return result(id, d, p.number(), Verdict.WARN, "port ACTIVE but phys_state " + phys, n);
        }
        if (!p.rate().known()) {
            return result(id, d, p.number(), Verdict.NA, "port ACTIVE/" + phys + " but the rate is unknown: "
                    + p.rate().problem(), n);
        }
        PortRate rate = p.rate().value();
        String unlabelled = rate.unlabelled() ? " (no speed name: old-kernel spelling of SDR)" : "";
        if (rate.isSdr()) {
            Optional<NetDevice> nd = netdev.known() ? topo.netdev(netdev.value()) : Optional.empty();
            Long speed = nd.flatMap(x -> Optional.ofNullable(x.speedMbps().orElse(null))).orElse(null);
            boolean modernNic = !d.virtual() && d.pci().known() && d.pci().value().endpoint().maxSpeed().known()
                    && d.pci().value().endpoint().maxSpeed().value().generation() >= 3;
            if (speed != null && speed / 1000.0 > rate.gbps() + 1e-9) {
                n.put("netdevSpeedMbps", speed);
                String msg = "rate reads '" + rate.raw() + "' but netdev " + netdev.value() + " runs at " + speed
                        + " Mb/s: kernel too old to name this speed (it maps unknown speeds to SDR)";
                return result(id, d, p.number(), d.virtual() ? Verdict.OK : Verdict.WARN,
                        d.virtual() ? "ACTIVE/" + phys + "; " + msg : msg, n);
            }
            if (modernNic) {
                return result(id, d, p.number(), Verdict.WARN, "rate reads '" + rate.raw() + "' on a PCIe Gen"
                        + d.pci().value().endpoint().maxSpeed().value().generation()
                        + " NIC: kernel too old to name this speed (it maps unknown speeds to SDR), or the link"
                        + " really trained at SDR", n);
            }
        }
        return result(id, d, p.number(), Verdict.OK, "ACTIVE/" + phys + " at " + rate.raw() + unlabelled, n);
    }

    // ---- RoCE checks ------------------------------------------------------------------------------

    /** The netdev of a port: the kernel's GID table names it for RoCE; else the PCI function's, else rxe's parent. */
    private static Reading<String> netdevOf(SysfsRdmaDevice d, RdmaPort p) {
        for (Gid g : p.gids().orElse(List.of())) {
            if (g.netdev().known()) {
                return g.netdev();
            }
        }
        if (d.parentNetdev().known()) {
            return d.parentNetdev();
        }
        if (d.pciNetdevs().size() == 1 || (!d.pciNetdevs().isEmpty() && p.isEthernet())) {
            return Reading.of(d.pciNetdevs().getFirst());
        }
        return Reading.unknown("no netdev: gid_attrs/ndevs empty, no device/net, no parent");
    }

    private CheckResult roceGid(SysfsRdmaDevice d, RdmaPort p, Reading<String> netdev) {
        CheckId id = CheckId.ROCE_GID;
        Map<String, Object> n = new LinkedHashMap<>();
        CheckResult notRoce = notRoce(id, d, p, "");
        if (notRoce != null) {
            return notRoce;
        }
        if (!p.gids().known()) {
            return result(id, d, p.number(), Verdict.NA, "GID table unreadable: " + p.gids().problem(), n);
        }
        List<Gid> gids = p.gids().value();
        if (gids.isEmpty()) {
            return result(id, d, p.number(), Verdict.FAIL, "GID table is empty: no RoCE GID at all (is the netdev up?)",
                    n);
        }
        String nd = netdev.orElse(null);
        List<Gid> mine = gids.stream().filter(g -> nd == null || !g.netdev().known() || g.netdev().value().equals(nd))
                .toList();
        List<Gid> typed = mine.stream().filter(g -> g.type().known()).toList();
        if (typed.isEmpty()) {
            return result(id, d, p.number(), Verdict.NA, "cannot read GID types: " + mine.stream()
                    .map(g -> g.type().problem()).findFirst().orElse("no GID for netdev " + nd), n);
        }
        List<Gid> v2 = typed.stream().filter(Gid::isRoceV2).toList();
        List<IpAddress> addrs = nd == null ? List.of() : topo.netdev(nd).map(NetDevice::addresses).orElse(List.of())
                .stream().filter(a -> !a.linkLocal()).toList();
        n.put("netdev", nd);
        n.put("roceV2Gids", v2.size());
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
        if (pick == null) {
            // Addresses are unknown or unmatched: fall back to the routable v2 GIDs themselves,
            // preferring IPv4-mapped ones as perftest does.
            pick = v2.stream().filter(g -> g.ipv4().isPresent()).findFirst()
                    .orElse(v2.stream().filter(g -> !g.isLinkLocal()).findFirst().orElse(null));
            if (!addrs.isEmpty()) {
                pick = null;
            }
        }
        if (pick != null) {
            n.put("gidIndex", pick.index());
            n.put("gid", pick.address());
            n.put("address", pick.ipv4().orElse(null));
        }
        String what = pick == null ? "" : "use -x " + pick.index() + " (RoCE v2, "
                + pick.ipv4().orElse(pick.address()) + (nd != null ? " on " + nd : "") + ")";
        if (!addrs.isEmpty()) {
            n.put("addresses", addrs.stream().map(IpAddress::text).collect(Collectors.joining(",")));
            if (missing.size() == addrs.size()) {
                return result(id, d, p.number(), Verdict.FAIL, "no RoCE v2 GID for " + String.join(", ", missing)
                        + " on " + nd + " (" + v2.size() + " v2 GIDs, " + (typed.size() - v2.size())
                        + " other): RoCE v2 cannot use these addresses", n);
            }
            if (!missing.isEmpty()) {
                return result(id, d, p.number(), Verdict.WARN, what + "; but no RoCE v2 GID for "
                        + String.join(", ", missing), n);
            }
            return result(id, d, p.number(), Verdict.OK, what + "; every address of " + nd + " has a RoCE v2 GID", n);
        }
        if (pick != null) {
            return result(id, d, p.number(), Verdict.OK, what + " (netdev addresses not attributable from /proc;"
                    + " taken from the GID table)", n);
        }
        if (!v2.isEmpty()) {
            return result(id, d, p.number(), Verdict.WARN, "only link-local RoCE v2 GIDs"
                    + (nd != null ? " on " + nd : "") + ": the netdev has no IP address, so RoCE v2 is not routable", n);
        }
        return result(id, d, p.number(), Verdict.FAIL, "no RoCE v2 GID (" + typed.size()
                + " RoCE v1 only): RoCE v2 (routable, UDP/IP) is unavailable", n);
    }

    private CheckResult roceMtu(SysfsRdmaDevice d, RdmaPort p, Reading<String> netdev) {
        CheckId id = CheckId.ROCE_MTU;
        CheckResult notRoce = notRoce(id, d, p, "");
        if (notRoce != null) {
            return notRoce;
        }
        if (!netdev.known()) {
            return na(id, d, p, netdev.problem());
        }
        Optional<NetDevice> nd = topo.netdev(netdev.value());
        if (nd.isEmpty()) {
            return na(id, d, p, "netdev " + netdev.value() + " not in /sys/class/net");
        }
        if (!nd.get().mtu().known()) {
            return na(id, d, p, "MTU of " + netdev.value() + " unknown: " + nd.get().mtu().problem());
        }
        int mtu = nd.get().mtu().value();
        int roce = iboeMtu(mtu);
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("netdev", netdev.value());
        n.put("netdevMtu", mtu);
        n.put("roceMtu", roce);
        if (mtu >= 4096 + ROCE_HEADERS) {
            return result(id, d, p.number(), Verdict.OK, netdev.value() + " MTU " + mtu + " allows the 4096-byte RoCE MTU",
                    n);
        }
        return result(id, d, p.number(), Verdict.WARN, netdev.value() + " MTU " + mtu + " limits the RoCE MTU to "
                + (roce == 0 ? "nothing" : Integer.toString(roce)) + " (4096 needs a netdev MTU of at least "
                + (4096 + ROCE_HEADERS) + "; 9000 is usual)", n);
    }

    /** The kernel's iboe_get_mtu(): the largest IB MTU that fits the netdev MTU minus RoCE headers. */
    static int iboeMtu(int netdevMtu) {
        int room = netdevMtu - ROCE_HEADERS;
        for (int m = 4096; m >= 256; m /= 2) {
            if (room >= m) {
                return m;
            }
        }
        return 0;
    }

    private CheckResult roceLossless(SysfsRdmaDevice d, RdmaPort p, Reading<String> netdev) {
        CheckId id = CheckId.ROCE_LOSSLESS;
        CheckResult notRoce = notRoce(id, d, p, "; InfiniBand is lossless by credit-based flow control");
        if (notRoce != null) {
            return notRoce;
        }
        if (!netdev.known()) {
            return na(id, d, p, netdev.problem());
        }
        Optional<NetDevice> ndo = topo.netdev(netdev.value());
        if (ndo.isEmpty()) {
            return na(id, d, p, "netdev " + netdev.value() + " not in /sys/class/net");
        }
        NetDevice nd = ndo.get();
        if (!nd.physical()) {
            return na(id, d, p, "netdev " + nd.name() + " is virtual (" + nd.pciAddress().problem()
                    + "): PFC and ECN belong to a physical NIC");
        }
        Reading<List<Integer>> pfcPrio = pfc.pfcPriorities(nd.name());
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("netdev", nd.name());
        n.put("pfcPriorities", pfcPrio.known() ? prios(pfcPrio.value()) : null);
        n.put("trust", nd.qosTrust().orElse(null));
        n.put("ecnNotificationPriorities", nd.ecnNotification().known() ? prios(nd.ecnNotification().value()) : null);
        n.put("ecnReactionPriorities", nd.ecnReaction().known() ? prios(nd.ecnReaction().value()) : null);
        String trust = nd.qosTrust().known() ? "trust " + nd.qosTrust().value() : "trust unknown (qos/trust is MLNX_OFED-only)";
        boolean ecnKnown = nd.ecnNotification().known() && nd.ecnReaction().known();
        String ecn = ecnKnown ? "ECN np on " + prios(nd.ecnNotification().value()) + ", rp on "
                + prios(nd.ecnReaction().value())
                : "ECN unknown (" + (nd.ecnNotification().known() ? nd.ecnReaction().problem()
                : nd.ecnNotification().problem()) + "; ecn/ is MLNX_OFED-only)";
        if (pfcPrio.known()) {
            List<Integer> on = pfcPrio.value();
            if (on.isEmpty()) {
                return result(id, d, p.number(), Verdict.WARN, "PFC off on every priority of " + nd.name()
                        + ": RoCE runs lossy (drops → retransmissions); " + ecn + "; " + trust, n);
            }
            if (ecnKnown && on.stream().noneMatch(x -> nd.ecnNotification().value().contains(x)
                    && nd.ecnReaction().value().contains(x))) {
                return result(id, d, p.number(), Verdict.WARN, "PFC on priority " + prios(on)
                        + " but ECN/DCQCN not enabled there: PFC alone spreads congestion; " + ecn + "; " + trust, n);
            }
            return result(id, d, p.number(), Verdict.OK, "PFC on priority " + prios(on) + "; " + ecn + "; " + trust, n);
        }
        if (ecnKnown && nd.ecnNotification().value().isEmpty() && nd.ecnReaction().value().isEmpty()) {
            return result(id, d, p.number(), Verdict.WARN, "ECN disabled on every priority of " + nd.name()
                    + "; PFC unknown (" + pfcPrio.problem() + "); " + trust, n);
        }
        return result(id, d, p.number(), Verdict.NA, "PFC unknown (" + pfcPrio.problem() + "); " + ecn + "; " + trust,
                n);
    }

    private static String prios(List<Integer> l) {
        return l.isEmpty() ? "none" : l.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private CheckResult notRoce(CheckId id, SysfsRdmaDevice d, RdmaPort p, String ibNote) {
        if (!p.linkLayer().known()) {
            return na(id, d, p, "link layer unknown: " + p.linkLayer().problem());
        }
        if (p.isInfiniBand()) {
            return na(id, d, p, "InfiniBand port, not RoCE" + ibNote);
        }
        if (!p.isEthernet()) {
            return na(id, d, p, "link layer " + p.linkLayer().value() + ", not RoCE");
        }
        return null;
    }

    // ---- fabric-advice ----------------------------------------------------------------------------

    private CheckResult fabricAdvice(List<GpuChoice> gpus) {
        CheckId id = CheckId.FABRIC_ADVICE;
        Map<String, Object> n = new LinkedHashMap<>();
        if (gpus.isEmpty()) {
            return result(id, null, null, Verdict.NA, topo.gpuProblem() != null
                    ? "cannot list PCI devices: " + topo.gpuProblem()
                    : "no NVIDIA GPU found: the fabric guidance is about GPU clusters", n);
        }
        Map<String, Integer> models = new LinkedHashMap<>();
        GpuModels.Tier tier = null;
        for (PciPath g : topo.gpus()) {
            GpuModels.Model m = g.endpoint().device().known() ? GpuModels.of(g.endpoint().device().value())
                    : new GpuModels.Model("NVIDIA GPU", GpuModels.Tier.UNKNOWN);
            models.merge(m.name(), 1, Integer::sum);
            if (tier == null || m.tier().ordinal() < tier.ordinal()) {
                tier = m.tier();
            }
        }
        Set<String> layers = new LinkedHashSet<>();
        double maxRate = 0;
        for (SysfsRdmaDevice d : topo.devices()) {
            if (d.virtual()) {
                continue;
            }
            for (RdmaPort p : d.ports().orElse(List.of())) {
                if (p.isActive() && p.linkLayer().known()) {
                    layers.add(p.isEthernet() ? "RoCE" : p.linkLayer().value());
                    maxRate = Math.max(maxRate, p.rate().known() ? p.rate().value().gbps() : 0);
                }
            }
        }
        String gpuText = models.entrySet().stream().map(e -> e.getValue() + "× " + e.getKey())
                .collect(Collectors.joining(", "));
        String fabric = layers.isEmpty() ? "no active physical RDMA port" : String.join("+", layers)
                + (maxRate > 0 ? " up to " + fmt(maxRate) + " Gb/s per port" : "");
        n.put("gpus", gpuText);
        n.put("tier", tier.name());
        n.put("fabric", String.join("+", layers));
        n.put("maxPortGbps", maxRate);
        String advice = switch (tier) {
            case HIGH_END -> "InfiniBand is the analysis's choice for H100/H200/Blackwell, above all at thousands of"
                    + " GPUs (hardware congestion control, sub-µs latency)"
                    + (layers.contains("RoCE") ? "; RoCE v2 here needs PFC+ECN done right and is proven up to thousands"
                    + " of GPUs" : "")
                    + (maxRate > 0 && maxRate < 400 ? "; these GPUs are usually given 400 Gb/s per GPU, which needs"
                    + " PCIe Gen5 x16" : "");
            case A100 -> "A100 sits in both tiers: InfiniBand for large clusters, RoCE v2 cost-effective in some cases"
                    + " (hundreds of GPUs); A100 hosts typically run 100–200 Gb/s per NIC, and 200 Gb/s is already"
                    + " near PCIe Gen4 x16's one-way limit, so 400 Gb/s NICs gain nothing without Gen5";
            case MID -> "RoCE v2 is the cost-effective choice for A800/H20/L40S/V100 at hundreds to thousands of GPUs"
                    + " (parity with InfiniBand in a 64-GPU NCCL/Llama3 test; about 36% cheaper at 100G and 14.3%"
                    + " at 400G in one vendor's quote), provided PFC and ECN are configured";
            case CONSUMER -> "consumer GPUs have no official multi-node support: for small clusters RoCE with"
                    + " ConnectX-6/7 and PFC-capable switches, or plain TCP for tens of GPUs";
            case UNKNOWN -> "this GPU model is not in the analysis's guidance; match NIC bandwidth to the PCIe link"
                    + " and use RoCE v2 with PFC+ECN or InfiniBand by scale (IB for thousands of GPUs)";
        };
        return result(id, null, null, Verdict.OK, "advice (not a finding): " + gpuText + " with " + fabric + ": "
                + advice, n);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private static CheckResult na(CheckId id, SysfsRdmaDevice d, String reason) {
        return new CheckResult(id, d.name(), null, Verdict.NA, reason, Map.of());
    }

    private static CheckResult na(CheckId id, SysfsRdmaDevice d, RdmaPort p, String reason) {
        return new CheckResult(id, d.name(), p.number(), Verdict.NA, reason, Map.of());
    }

    private static CheckResult result(CheckId id, SysfsRdmaDevice d, Integer port, Verdict v, String reason,
                                      Map<String, Object> numbers) {
        return new CheckResult(id, d == null ? null : d.name(), port, v, reason, numbers);
    }

    static String fmt(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    private static double round(double v) {
        return Math.round(v * 10.0) / 10.0;
    }
}
