package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.PciPath;
import io.rdmaffm.verbs.topology.Reading;

/**
 * The PCIe distance between two devices, in the classes {@code nvidia-smi topo -m} prints, best first.
 * NVML's algorithm is closed; this is the sysfs approximation NCCL-style tools use: compare the real
 * sysfs paths and the NUMA nodes of the two endpoints.
 */
public enum PathClass {
    /** At most one PCIe switch between them. */
    PIX,
    /** Several bridges/switches, but not through the host bridge. */
    PXB,
    /** Through the PCIe host bridge (the CPU). */
    PHB,
    /** Through the interconnect between host bridges of one NUMA node. */
    NODE,
    /** Through the inter-socket interconnect (QPI/UPI/Infinity Fabric). */
    SYS;

    /**
     * @param a         one device's path
     * @param b         the other's
     * @param numaNodes the host's NUMA node count, used when a device's node is unknown
     * @return the class
     */
    public static PathClass classify(PciPath a, PciPath b, Reading<Integer> numaNodes) {
        if (!a.hostBridge().equals(b.hostBridge())) {
            Reading<Integer> na = a.endpoint().numaNode();
            Reading<Integer> nb = b.endpoint().numaNode();
            if (na.known() && nb.known()) {
                return na.value().equals(nb.value()) ? NODE : SYS;
            }
            return numaNodes.orElse(0) == 1 ? NODE : SYS;
        }
        int common = 0;
        int n = Math.min(a.chain().size(), b.chain().size());
        while (common < n && a.chain().get(common).address().equals(b.chain().get(common).address())) {
            common++;
        }
        if (common == 0) {
            return PHB;
        }
        // Below the deepest shared port each side passes a downstream port and reaches its endpoint:
        // two components each side means both hang off one switch.
        int rest = Math.max(a.chain().size() - common, b.chain().size() - common);
        return rest <= 2 ? PIX : PXB;
    }

    /** @return whether NCCL's default GPUDirect RDMA level (PXB) allows GDR at this distance */
    public boolean gdrByDefault() {
        return this == PIX || this == PXB;
    }
}
