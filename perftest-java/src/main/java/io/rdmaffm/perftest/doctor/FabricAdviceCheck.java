package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static io.rdmaffm.perftest.doctor.Fmt.fmt;

/**
 * {@code fabric-advice}: the guidance of docs/doctor.md for the GPU models and NIC link layers and speeds
 * found. Advice, never a finding: always OK, or N/A without a GPU.
 */
record FabricAdviceCheck(List<Doctor.GpuChoice> gpus) implements Check<Topology> {
    private static final CheckId ID = CheckId.FABRIC_ADVICE;

    @Override
    public CheckResult examine(Topology topo) {
        if (gpus.isEmpty()) {
            return new CheckResult(ID, null, null, Verdict.NA, topo.gpuProblem() != null
                    ? "cannot list PCI devices: " + topo.gpuProblem()
                    : "no NVIDIA GPU found: the fabric guidance is about GPU clusters", Numbers.NONE);
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
        Numbers numbers = Numbers.builder().text("gpus", gpuText).text("tier", tier.name())
                .text("fabric", String.join("+", layers)).real("maxPortGbps", maxRate).build();
        return new CheckResult(ID, null, null, Verdict.OK, "advice (not a finding): " + gpuText + " with " + fabric
                + ": " + advice(tier, layers, maxRate), numbers);
    }

    private static String advice(GpuModels.Tier tier, Set<String> layers, double maxRate) {
        return switch (tier) {
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
    }
}
