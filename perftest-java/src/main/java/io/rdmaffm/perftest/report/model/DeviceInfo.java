package io.rdmaffm.perftest.report.model;

/**
 * The RDMA device and port a run used (schema 1, {@code device}); null in a version-0 document.
 *
 * @param name {@code rxe0}, {@code mlx5_0}, ...
 * @param port the port number used
 * @param virtual no PCI function of its own (rxe, siw): no PCIe expectation applies
 * @param fwVersion firmware version, or null
 * @param linkLayer {@code "InfiniBand"} or {@code "Ethernet"}
 * @param portState e.g. {@code "ACTIVE"}
 * @param portRate sysfs {@code rate} as printed, or null
 * @param portRateGbps the port rate in Gb/s, or null
 * @param activeMtu bytes, or null
 * @param gidIndex the GID index used, -1 without GID
 * @param gid the GID as IPv6 text, or null
 * @param netdev the port's network device, or null
 * @param numaNode the PCI function's NUMA node, or null
 * @param pcie the PCIe facts, or null (virtual device, or sysfs did not tell)
 */
public record DeviceInfo(String name, Integer port, boolean virtual, String fwVersion, String linkLayer,
                         String portState, String portRate, Double portRateGbps, Integer activeMtu, Integer gidIndex,
                         String gid, String netdev, Integer numaNode, Pcie pcie) {

    /**
     * @param function the PCI function (BDF)
     * @param link the narrowest link on the path to the root port, e.g. {@code "16.0 GT/s x16"}
     * @param modelGbps usable throughput by doctor's PCIe model, Gb/s, or null
     * @param path root port to device, {@code /}-separated BDFs
     */
    public record Pcie(String function, String link, Double modelGbps, String path) {
    }

    static DeviceInfo read(Fields f) {
        if (f == null) {
            return null;
        }
        Fields p = f.object("pcie");
        Pcie pcie = p == null ? null
                : new Pcie(p.string("function"), p.string("link"), p.number("model_gbps"), p.string("path"));
        return new DeviceInfo(f.string("name"), f.smallInt("port"), Boolean.TRUE.equals(f.bool("virtual")),
                f.string("fw_ver"), f.string("link_layer"), f.string("port_state"), f.string("port_rate"),
                f.number("port_rate_gbps"), f.smallInt("active_mtu"), f.smallInt("gid_index"), f.string("gid"),
                f.string("netdev"), f.smallInt("numa_node"), pcie);
    }
}
