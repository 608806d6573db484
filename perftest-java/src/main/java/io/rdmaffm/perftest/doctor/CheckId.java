package io.rdmaffm.perftest.doctor;

/** The checks, with the stable ids used in output and JSON. */
public enum CheckId {
    /** Port demand against the narrowest PCIe link up to the root port. */
    PCIE_BANDWIDTH("pcie-bandwidth"),
    /** A link trained below what both ends support. */
    PCIE_DOWNTRAINED("pcie-downtrained"),
    /** The NIC's NUMA node and local CPUs. */
    NUMA("numa"),
    /** GPU↔NIC PCIe distance and GPUDirect RDMA likelihood. */
    GPU_NIC_AFFINITY("gpu-nic-affinity"),
    /** A RoCE v2 GID for the netdev's addresses, and the index for {@code -x}. */
    ROCE_GID("roce-gid"),
    /** Netdev MTU large enough for the 4096-byte RoCE MTU. */
    ROCE_MTU("roce-mtu"),
    /** PFC / trust / ECN where readable. */
    ROCE_LOSSLESS("roce-lossless"),
    /** Port state and rate. */
    PORT_STATE("port-state"),
    /** Whether there is anything to check: no RDMA device (or none listable) is a FAIL, not a pass. */
    RDMA_DEVICES("rdma-devices"),
    /** Which GPUDirect RDMA path (peer memory, dma-buf) the host's driver and kernel allow. */
    GPUDIRECT_DRIVER("gpudirect-driver"),
    /** Per GPU↔NIC pair: PCIe distance, ACS redirection, IOMMU translation. */
    GPUDIRECT_PATH("gpudirect-path"),
    /** Fabric guidance from GPU model and NIC speed; advice only, never a FAIL. */
    FABRIC_ADVICE("fabric-advice");

    private final String id;

    CheckId(String id) {
        this.id = id;
    }

    /** @return the stable id, e.g. {@code pcie-bandwidth} */
    public String id() {
        return id;
    }
}
