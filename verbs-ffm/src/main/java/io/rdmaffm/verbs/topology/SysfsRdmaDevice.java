package io.rdmaffm.verbs.topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What sysfs says about one RDMA device ({@code /sys/class/infiniband/<name>}): attributes, PCI path and
 * ports, each a {@link Reading}. Not to be confused with {@link io.rdmaffm.verbs.RdmaDevice}, the entry of
 * {@code ibv_get_device_list()} that a {@link io.rdmaffm.verbs.Context} is opened from; the two share only the
 * name.
 *
 * @param name          the device name ({@code mlx5_0}, {@code rxe0}, {@code rocep1s0f0})
 * @param dir           the device's real sysfs directory, or the class entry if it cannot be resolved
 * @param nodeType      {@code node_type}, e.g. {@code 1: CA}, {@code 4: RNIC}
 * @param nodeGuid      {@code node_guid}
 * @param sysImageGuid  {@code sys_image_guid} (shared by all functions of one adapter)
 * @param fwVer         {@code fw_ver}
 * @param hcaType       {@code hca_type} (mlx5 {@code MT4129}); optional
 * @param parentNetdev  {@code parent} (Soft-RoCE only: the netdev it runs over)
 * @param virtual       whether the device has no PCI function of its own (rxe, siw)
 * @param virtualReason why it is considered virtual, empty when not
 * @param pci           the PCI path from the root port to the device's function, or why unknown
 * @param pciNetdevs    netdevs of the same PCI function ({@code device/net/*})
 * @param ports         the ports, or why they cannot be listed
 */
public record SysfsRdmaDevice(String name, Path dir, Reading<CodedState> nodeType, Reading<String> nodeGuid,
                              Reading<String> sysImageGuid, Reading<String> fwVer, Reading<String> hcaType,
                              Reading<String> parentNetdev, boolean virtual, String virtualReason,
                              Reading<PciPath> pci, List<String> pciNetdevs, Reading<List<RdmaPort>> ports) {

    /**
     * @param number a port number
     * @return that port, if listed
     */
    public Optional<RdmaPort> port(int number) {
        return ports.orElse(List.of()).stream().filter(p -> p.number() == number).findFirst();
    }
}
