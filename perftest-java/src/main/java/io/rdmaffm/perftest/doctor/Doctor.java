package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciFunction;
import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Runs the doctor's checks over a {@link Topology}: the device checks on each device, the port checks on each
 * of its ports, then the host checks. Each check ({@link CheckId}) is a class of its own behind {@link Check}
 * and yields one {@link CheckResult} per subject; a check that cannot be made says why (N/A) instead of
 * guessing.
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
        return examine(topo, deviceFilter, pfc, false);
    }

    /**
     * Examines a topology.
     *
     * @param allowNoDevices a host without RDMA devices is expected ({@code --allow-no-devices}): the
     *                       {@code rdma-devices} check is N/A instead of FAIL
     * @return the report
     * @throws IllegalArgumentException when {@code deviceFilter} names no device
     */
    public static DoctorReport examine(Topology topo, String deviceFilter, PfcProbe pfc, boolean allowNoDevices) {
        return new Doctor(topo, pfc).run(deviceFilter, allowNoDevices);
    }

    private DoctorReport run(String deviceFilter, boolean allowNoDevices) {
        List<SysfsRdmaDevice> shown = shown(deviceFilter);
        List<String> problems = new ArrayList<>();
        String none = null;
        if (topo.devicesProblem() != null) {
            none = "cannot list RDMA devices: " + topo.devicesProblem();
        } else if (topo.devices().isEmpty()) {
            none = "no RDMA devices under /sys/class/infiniband";
        }
        CheckResult nothingToCheck = null;
        if (none != null) {
            problems.add(none);
            nothingToCheck = allowNoDevices
                    ? new CheckResult(CheckId.RDMA_DEVICES, null, null, Verdict.NA, none
                            + " (expected: --allow-no-devices)", Numbers.NONE)
                    : new CheckResult(CheckId.RDMA_DEVICES, null, null, Verdict.FAIL, none
                            + ": nothing was checked (load a driver, e.g. modprobe rdma_rxe and rdma link add; "
                            + "or --allow-no-devices on a host that has none)", Numbers.NONE);
        }
        List<GpuChoice> gpus = gpuChoices();
        List<Check<SysfsRdmaDevice>> deviceChecks = new ArrayList<>(List.of(new PcieBandwidthCheck(topo),
                new PcieDowntrainedCheck(), new NumaCheck(topo), new GpuNicAffinityCheck(topo, gpus)));
        // GPUDirect: only where there is an NVIDIA GPU to reach.
        GpuDirectHost gpuDirect = topo.gpus().isEmpty() ? null : GpuDirectHost.read(new Sysfs(topo.root()));
        if (gpuDirect != null) {
            deviceChecks.add(new GpuDirectPathCheck(topo, new Sysfs(topo.root()), gpuDirect, gpus));
        }
        List<Check<DevicePort>> portChecks = List.of(new PortStateCheck(topo), new RoceGidCheck(topo),
                new RoceMtuCheck(topo), new RoceLosslessCheck(topo, pfc));
        List<CheckResult> results = new ArrayList<>();
        for (SysfsRdmaDevice d : shown) {
            for (Check<SysfsRdmaDevice> c : deviceChecks) {
                results.add(c.examine(d));
            }
            if (!d.ports().known()) {
                problems.add(d.name() + ": cannot list ports: " + d.ports().problem());
            }
            for (RdmaPort p : d.ports().orElse(List.of())) {
                DevicePort dp = DevicePort.of(d, p);
                for (Check<DevicePort> c : portChecks) {
                    results.add(c.examine(dp));
                }
            }
        }
        if (gpuDirect != null) {
            results.add(new GpuDirectDriverCheck(gpuDirect).examine(topo));
        }
        if (nothingToCheck != null) {
            results.add(nothingToCheck);
        }
        results.add(new FabricAdviceCheck(gpus).examine(topo));
        return new DoctorReport(topo, shown, gpus, results, null, problems);
    }

    private List<SysfsRdmaDevice> shown(String deviceFilter) {
        if (deviceFilter == null) {
            return topo.devices();
        }
        List<SysfsRdmaDevice> shown = topo.devices().stream().filter(d -> d.name().equals(deviceFilter)).toList();
        if (shown.isEmpty()) {
            String found = topo.devices().isEmpty() ? "none found"
                    : "found: " + topo.devices().stream().map(SysfsRdmaDevice::name).collect(Collectors.joining(", "));
            throw new IllegalArgumentException("no RDMA device '" + deviceFilter + "' under "
                    + topo.root().resolve("sys/class/infiniband") + " (" + found + ")");
        }
        return shown;
    }

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
}
