package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.List;

/**
 * {@code gpu-nic-affinity}: the PCIe distance from the NIC to its nearest GPU ({@link PathClass}), which GPUs
 * should use it, and whether GPUDirect RDMA is likely.
 */
record GpuNicAffinityCheck(Topology topo, List<Doctor.GpuChoice> gpus) implements Check<SysfsRdmaDevice> {
    private static final CheckId ID = CheckId.GPU_NIC_AFFINITY;

    @Override
    public CheckResult examine(SysfsRdmaDevice d) {
        if (d.virtual()) {
            return CheckResult.na(ID, d, "virtual device (" + d.virtualReason() + "): no GPUDirect RDMA");
        }
        if (topo.gpus().isEmpty()) {
            return CheckResult.na(ID, d, topo.gpuProblem() != null ? "cannot list PCI devices: "
                    + topo.gpuProblem() : "no NVIDIA GPU found under /sys/bus/pci/devices");
        }
        if (!d.pci().known()) {
            return CheckResult.na(ID, d, "PCI path unknown: " + d.pci().problem());
        }
        PathClass best = null;
        String nearest = null;
        for (PciPath g : topo.gpus()) {
            PathClass c = PathClass.classify(g, d.pci().value(), topo.numaNodes());
            if (best == null || c.ordinal() < best.ordinal()) {
                best = c;
                nearest = g.endpoint().address();
            }
        }
        List<Doctor.GpuChoice> preferring = gpus.stream().filter(g -> d.name().equals(g.nic())).toList();
        boolean peer = !topo.peerMemory().isEmpty();
        Numbers.Builder n = Numbers.builder().text("nearestGpu", nearest).text("path", best.name())
                .flag("gdrLikely", best.gdrByDefault() && peer).flag("peerMemoryLoaded", peer)
                .text("gpusPreferringThisNic", String.join(",", preferring.stream().map(Doctor.GpuChoice::pci)
                        .toList()));
        String users = preferring.isEmpty() ? "no GPU has this as its nearest NIC"
                : "nearest NIC for GPU " + String.join(", ", preferring.stream()
                .map(g -> g.pci() + " (" + g.path() + ")").toList());
        if (!best.gdrByDefault()) {
            return CheckResult.of(ID, d, Verdict.WARN, "nearest GPU " + nearest + " is " + best
                    + ": GPUDirect RDMA unlikely (NCCL's default GDR level is PXB); " + users, n);
        }
        if (!peer) {
            return CheckResult.of(ID, d, Verdict.WARN, "nearest GPU " + nearest + " is " + best
                    + ", but no peer-memory module is loaded (nvidia_peermem / nv_mem): GPUDirect RDMA needs it"
                    + " unless the stack uses DMA-BUF; " + users, n);
        }
        return CheckResult.of(ID, d, Verdict.OK, "nearest GPU " + nearest + " is " + best
                + ", GPUDirect RDMA likely (" + topo.peerMemory().getFirst() + " present); " + users, n);
    }
}
