package io.rdmaffm.verbs.topology;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A snapshot of the RDMA-relevant parts of a host's sysfs: RDMA devices and ports, netdevs with their
 * addresses, the PCI paths behind them, NVIDIA GPUs, NUMA nodes and the GPU peer-memory modules.
 *
 * <p>Pure Java, no native calls; everything is read below {@link Sysfs#root()}, so a captured tree can be
 * examined as well as the live host. Nothing in here throws for a bad file: each attribute is a
 * {@link Reading} that carries the reason it is unknown.
 *
 * <p>IP addresses: IPv6 ones come from {@code /proc/net/if_inet6} with their interface. The kernel has
 * no such file for IPv4, so IPv4 addresses are the {@code host LOCAL} entries of {@code /proc/net/fib_trie}
 * attributed to an interface through its directly connected route in {@code /proc/net/route}. An address
 * without a prefix route ({@code /32}, {@code noprefixroute}) or whose subnet is routed on two interfaces
 * is therefore not attributed to any; consumers should fall back to the GID table in that case.
 *
 * @param root            the root the snapshot was read from
 * @param devices         the RDMA devices, sorted by name
 * @param devicesProblem  why {@code /sys/class/infiniband} could not be listed, or {@code null}
 * @param netdevs         netdevs by name
 * @param gpus            PCI paths of the NVIDIA GPUs found under {@code /sys/bus/pci/devices}
 * @param gpuProblem      why the PCI device list could not be read, or {@code null}
 * @param numaNodes       the number of NUMA nodes ({@code /sys/devices/system/node/node*})
 * @param peerMemory      the GPU peer-memory module files found (nv_mem, nv_mem_nc, nvidia_peermem)
 */
public record Topology(Path root, List<SysfsRdmaDevice> devices, String devicesProblem,
                       Map<String, NetDevice> netdevs, List<PciPath> gpus, String gpuProblem,
                       Reading<Integer> numaNodes, List<String> peerMemory) {

    /**
     * @param root           root
     * @param devices        devices
     * @param devicesProblem problem or null
     * @param netdevs        netdevs
     * @param gpus           gpus
     * @param gpuProblem     problem or null
     * @param numaNodes      NUMA node count
     * @param peerMemory     peer-memory files
     */
    public Topology {
        devices = List.copyOf(devices);
        netdevs = Map.copyOf(netdevs);
        gpus = List.copyOf(gpus);
        peerMemory = List.copyOf(peerMemory);
    }

    /**
     * Reads a snapshot.
     *
     * @param sysfs where to read
     * @return the snapshot; never throws for bad or missing files
     */
    public static Topology read(Sysfs sysfs) {
        return new TopologyReader(sysfs).read();
    }

    /**
     * @param name a device name
     * @return the device, if present
     */
    public Optional<SysfsRdmaDevice> device(String name) {
        return devices.stream().filter(d -> d.name().equals(name)).findFirst();
    }

    /**
     * @param name a netdev name
     * @return the netdev, if present
     */
    public Optional<NetDevice> netdev(String name) {
        return Optional.ofNullable(netdevs.get(name));
    }
}
