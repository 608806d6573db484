package io.rdmaffm.perftest.doctor;

import java.util.Map;

/** Names NVIDIA GPUs from their PCI device id and places them in the fabric guidance's tiers. */
final class GpuModels {

    /** The tiers of the fabric guidance this project grew from (see docs/doctor.md). */
    enum Tier {
        /** H100, H200, Blackwell (B200, GB200): InfiniBand, especially at thousands of GPUs. */
        HIGH_END,
        /** A800, H20, L40S, V100 (and A100 in some cases): RoCE is the cost-effective choice. */
        MID,
        /** A100: listed under both; InfiniBand at large scale, RoCE in some cases. */
        A100,
        /** RTX 4090/4090D and other consumer cards: RoCE with ConnectX-6/7 and PFC switches, or TCP. */
        CONSUMER,
        /** Not in the guidance. */
        UNKNOWN
    }

    record Model(String name, Tier tier) {
    }

    // Ids checked against pci.ids (2023-04-10) except where marked; names as pci.ids spells them.
    private static final Map<Integer, Model> BY_ID = Map.ofEntries(
            Map.entry(0x1db1, new Model("Tesla V100 SXM2 16GB", Tier.MID)),
            Map.entry(0x1db4, new Model("Tesla V100 PCIe 16GB", Tier.MID)),
            Map.entry(0x1db5, new Model("Tesla V100 SXM2 32GB", Tier.MID)),
            Map.entry(0x1db6, new Model("Tesla V100 PCIe 32GB", Tier.MID)),
            Map.entry(0x20b0, new Model("A100 SXM4 40GB", Tier.A100)),
            Map.entry(0x20b1, new Model("A100 PCIe 40GB", Tier.A100)),
            Map.entry(0x20b2, new Model("A100 SXM4 80GB", Tier.A100)),
            Map.entry(0x20b3, new Model("A100-SXM-64GB", Tier.A100)),
            Map.entry(0x20b5, new Model("A100 PCIe 80GB", Tier.A100)),
            Map.entry(0x20f1, new Model("A100 PCIe 40GB", Tier.A100)),
            Map.entry(0x20f3, new Model("A800-SXM4-80GB", Tier.MID)),
            Map.entry(0x20f5, new Model("A800 80GB PCIe", Tier.MID)),
            Map.entry(0x20f6, new Model("A800 40GB PCIe", Tier.MID)),
            Map.entry(0x2330, new Model("H100 SXM5 80GB", Tier.HIGH_END)),
            Map.entry(0x2331, new Model("H100 PCIe", Tier.HIGH_END)),
            Map.entry(0x26b5, new Model("L40", Tier.UNKNOWN)),
            Map.entry(0x2684, new Model("GeForce RTX 4090", Tier.CONSUMER)),
            // newer than the pci.ids snapshot above; from NVIDIA driver supported-chip lists (unverified here)
            Map.entry(0x26b9, new Model("L40S", Tier.MID)),
            Map.entry(0x2685, new Model("GeForce RTX 4090 D", Tier.CONSUMER)),
            Map.entry(0x2335, new Model("H200", Tier.HIGH_END)),
            Map.entry(0x2329, new Model("H20", Tier.MID)),
            Map.entry(0x2901, new Model("B200", Tier.HIGH_END)),
            Map.entry(0x2941, new Model("GB200", Tier.HIGH_END)));

    private GpuModels() {
    }

    static Model of(int deviceId) {
        Model m = BY_ID.get(deviceId);
        return m != null ? m : new Model(String.format("NVIDIA GPU 0x%04x", deviceId), Tier.UNKNOWN);
    }
}
