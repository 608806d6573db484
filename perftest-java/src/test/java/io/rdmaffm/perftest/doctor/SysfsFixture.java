package io.rdmaffm.perftest.doctor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds sysfs trees in a directory the way the kernel lays them out: real device directories under
 * {@code sys/devices/pciDDDD:BB/...}, and {@code sys/class/infiniband}, {@code sys/class/net},
 * {@code sys/bus/pci/devices} as relative symbolic links into them, each device's {@code device} link
 * pointing back at its PCI function. Paths are given below {@code sys/devices}, e.g.
 * {@code "pci0000:15/0000:15:01.0/0000:16:00.0"}.
 */
public final class SysfsFixture {

    /** A PCIe link as sysfs shows it at one end. */
    public record Link(String curSpeed, int curWidth, String maxSpeed, int maxWidth) {
    }

    /** Vendor ids used by the fixtures. */
    public static final int MELLANOX = 0x15b3;
    /** NVIDIA. */
    public static final int NVIDIA = 0x10de;
    /** Intel, for bridges. */
    public static final int INTEL = 0x8086;
    /** Broadcom/PLX, for PCIe switch ports. */
    public static final int PLX = 0x1000;

    /** PCI classes. */
    public static final int CLASS_BRIDGE = 0x060400;
    /** InfiniBand controller. */
    public static final int CLASS_IB = 0x020700;
    /** Ethernet controller. */
    public static final int CLASS_ETH = 0x020000;
    /** 3D controller. */
    public static final int CLASS_3D = 0x030200;

    private final Path root;
    private final List<String[]> ipv4 = new ArrayList<>(); // iface, address, prefix
    private final List<String> inet6 = new ArrayList<>();

    /**
     * @param root the directory standing for {@code /}
     */
    public SysfsFixture(Path root) {
        this.root = root;
    }

    /** @return the root */
    public Path root() {
        return root;
    }

    /**
     * @param gen PCIe generation 1..6
     * @return the kernel's current spelling, e.g. {@code "16.0 GT/s PCIe"}
     */
    public static String gt(int gen) {
        return switch (gen) {
            case 1 -> "2.5 GT/s PCIe";
            case 2 -> "5.0 GT/s PCIe";
            case 3 -> "8.0 GT/s PCIe";
            case 4 -> "16.0 GT/s PCIe";
            case 5 -> "32.0 GT/s PCIe";
            case 6 -> "64.0 GT/s PCIe";
            default -> throw new IllegalArgumentException("gen " + gen);
        };
    }

    /**
     * @param gen   generation, trained at its maximum
     * @param width lanes, trained at the maximum
     * @return the link
     */
    public static Link link(int gen, int width) {
        return new Link(gt(gen), width, gt(gen), width);
    }

    /**
     * @param curGen   trained generation
     * @param curWidth trained lanes
     * @param maxGen   capable generation
     * @param maxWidth capable lanes
     * @return the link
     */
    public static Link link(int curGen, int curWidth, int maxGen, int maxWidth) {
        return new Link(gt(curGen), curWidth, gt(maxGen), maxWidth);
    }

    /**
     * Writes a file below the root, creating directories.
     *
     * @param rel     path relative to the root
     * @param content the content; a newline is appended as the kernel does
     * @return the file
     */
    public Path write(String rel, String content) {
        return writeBytes(rel, (content + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * @param rel   path relative to the root
     * @param bytes exact content
     * @return the file
     */
    public Path writeBytes(String rel, byte[] bytes) {
        try {
            Path p = root.resolve(rel);
            Files.createDirectories(p.getParent());
            Files.write(p, bytes);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Removes a file or a directory tree (a module unloaded, a driver gone).
     *
     * @param rel the path, relative to the root
     */
    public void delete(String rel) {
        try (var walk = Files.walk(root.resolve(rel))) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Creates a relative symbolic link, as sysfs has.
     *
     * @param rel    the link, relative to the root
     * @param target the target, relative to the root
     */
    public void symlink(String rel, String target) {
        try {
            Path link = root.resolve(rel);
            Files.createDirectories(link.getParent());
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, link.getParent().relativize(root.resolve(target)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String bdf(String pciPath) {
        return pciPath.substring(pciPath.lastIndexOf('/') + 1);
    }

    /**
     * A PCI function with its attributes and its {@code /sys/bus/pci/devices} link.
     *
     * @param pciPath  path below sys/devices
     * @param vendor   vendor id
     * @param device   device id
     * @param pciClass class
     * @param link     the link as this function reports it
     * @param numa     numa_node (-1 for none)
     * @param cpus     local_cpulist
     * @return the function's directory relative to the root
     */
    public String pci(String pciPath, int vendor, int device, int pciClass, Link link, int numa, String cpus) {
        String dir = "sys/devices/" + pciPath;
        write(dir + "/vendor", String.format("0x%04x", vendor));
        write(dir + "/device", String.format("0x%04x", device));
        write(dir + "/class", String.format("0x%06x", pciClass));
        write(dir + "/current_link_speed", link.curSpeed());
        write(dir + "/current_link_width", Integer.toString(link.curWidth()));
        write(dir + "/max_link_speed", link.maxSpeed());
        write(dir + "/max_link_width", Integer.toString(link.maxWidth()));
        write(dir + "/numa_node", Integer.toString(numa));
        write(dir + "/local_cpulist", cpus);
        symlink("sys/bus/pci/devices/" + bdf(pciPath), dir);
        return dir;
    }

    /**
     * A root port or switch port.
     *
     * @param pciPath path below sys/devices
     * @param link    its link
     * @param numa    numa node
     * @return the directory
     */
    public String bridge(String pciPath, Link link, int numa) {
        return pci(pciPath, pciPath.split("/").length == 2 ? INTEL : PLX, 0x1234, CLASS_BRIDGE, link, numa, "0-1");
    }

    /**
     * Config space with a PCIe capability at 0x40 giving the Max_Payload_Size, as root reads it
     * (256 bytes), or only the first 64 bytes as an unprivileged reader gets.
     *
     * @param pciPath      the function
     * @param maxPayload   128, 256, 512...
     * @param privileged   whether to write the whole 256 bytes
     */
    public void config(String pciPath, int maxPayload, boolean privileged) {
        byte[] cfg = new byte[256];
        cfg[0x06] = 0x10; // status: capability list present
        cfg[0x34] = 0x40;
        cfg[0x40] = 0x10; // PCI Express capability
        cfg[0x41] = 0x00; // end of list
        int code = Integer.numberOfTrailingZeros(maxPayload / 128);
        cfg[0x48] = (byte) (code << 5);
        byte[] out = privileged ? cfg : java.util.Arrays.copyOf(cfg, 64);
        writeBytes("sys/devices/" + pciPath + "/config", out);
    }

    /**
     * The whole 4 KiB config space of a bridge as root reads it: a PCI Express capability at 0x40 and an ACS
     * extended capability at 0x100 whose control register holds {@code acsControl} (bit 2 P2P Request Redirect,
     * bit 3 P2P Completion Redirect).
     *
     * @param pciPath    the function
     * @param acsControl the ACS control register
     */
    public void acsConfig(String pciPath, int acsControl) {
        byte[] cfg = new byte[4096];
        cfg[0x06] = 0x10;
        cfg[0x34] = 0x40;
        cfg[0x40] = 0x10;
        cfg[0x48] = 0x20; // Max_Payload_Size 256
        cfg[0x100] = 0x0d; // ACS, version 1, no next capability
        cfg[0x102] = 0x10;
        cfg[0x104] = 0x5f; // capabilities: SV TB RR CR UF DT
        cfg[0x106] = (byte) acsControl;
        cfg[0x107] = (byte) (acsControl >> 8);
        writeBytes("sys/devices/" + pciPath + "/config", cfg);
    }

    /**
     * The loaded NVIDIA driver as /proc/driver/nvidia/version and /sys/module/nvidia show it.
     *
     * @param open    NVIDIA's open GPU kernel modules, else the proprietary ones
     * @param version e.g. 550.54.14
     */
    public void nvidiaDriver(boolean open, String version) {
        write("proc/driver/nvidia/version", "NVRM version: NVIDIA UNIX " + (open ? "Open Kernel Module for x86_64  "
                : "x86_64 Kernel Module  ") + version + "  Release Build  (dvs-builder@U16-I3-B03-4-3)  Thu Nov  2"
                + " 00:00:00 UTC 2023\nGCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n");
        write("sys/module/nvidia/version", version);
    }

    /**
     * The running kernel and its /boot/config.
     *
     * @param release uname -r
     * @param config  the config file's lines, e.g. {@code CONFIG_DMA_SHARED_BUFFER=y}
     */
    public void kernel(String release, String... config) {
        write("proc/sys/kernel/osrelease", release);
        write("boot/config-" + release, String.join("\n", config) + "\n");
    }

    /**
     * An IOMMU (intel dmar0) and every given function in its own group of {@code type} (DMA, DMA-FQ, identity).
     *
     * @param type     the groups' domain type
     * @param pciPaths the functions
     */
    public void iommu(String type, String... pciPaths) {
        write("sys/class/iommu/dmar0/intel-iommu/version", "1:0");
        for (int i = 0; i < pciPaths.length; i++) {
            write("sys/kernel/iommu_groups/" + (20 + i) + "/type", type);
            String dev = "sys/devices/" + pciPaths[i];
            symlink(dev + "/iommu_group", "sys/kernel/iommu_groups/" + (20 + i));
        }
    }

    /** An RDMA device being built. */
    public final class Dev {
        final String dir;

        Dev(String dir) {
            this.dir = dir;
        }

        /**
         * @param file    file below the device directory
         * @param content its content
         * @return this
         */
        public Dev attr(String file, String content) {
            write(dir + "/" + file, content);
            return this;
        }

        /**
         * @param n         port number
         * @param state     e.g. {@code "4: ACTIVE"}
         * @param phys      e.g. {@code "5: LinkUp"}
         * @param rate      e.g. {@code "400 Gb/sec (4X NDR)"}
         * @param linkLayer {@code InfiniBand} or {@code Ethernet}
         * @return the port
         */
        public Port port(int n, String state, String phys, String rate, String linkLayer) {
            String p = dir + "/ports/" + n;
            write(p + "/state", state);
            write(p + "/phys_state", phys);
            write(p + "/rate", rate);
            write(p + "/link_layer", linkLayer);
            // kernels list the whole table; unused slots read as zeros
            for (int i = 0; i < 4; i++) {
                write(p + "/gids/" + i, "0000:0000:0000:0000:0000:0000:0000:0000");
            }
            return new Port(p);
        }

        /** @return the device directory relative to the root */
        public String dir() {
            return dir;
        }
    }

    /** A port being built. */
    public final class Port {
        final String dir;

        Port(String dir) {
            this.dir = dir;
        }

        /**
         * @param index the GID index
         * @param gid   the GID text
         * @param type  {@code "RoCE v2"}, {@code "IB/RoCE v1"}
         * @param ndev  the netdev, or null for none (IB)
         * @return this
         */
        public Port gid(int index, String gid, String type, String ndev) {
            write(dir + "/gids/" + index, gid);
            write(dir + "/gid_attrs/types/" + index, type);
            if (ndev != null) {
                write(dir + "/gid_attrs/ndevs/" + index, ndev);
            }
            return this;
        }

        /**
         * @param group {@code hw_counters} or {@code counters}
         * @param name  counter name
         * @param value value
         * @return this
         */
        public Port counter(String group, String name, long value) {
            write(dir + "/" + group + "/" + name, Long.toString(value));
            return this;
        }

        /** @return the port directory relative to the root */
        public String dir() {
            return dir;
        }
    }

    /**
     * An RDMA device on a PCI function, as mlx5 registers it.
     *
     * @param name    device name
     * @param pciPath its PCI function below sys/devices
     * @param fw      fw_ver
     * @return the device
     */
    public Dev rdma(String name, String pciPath, String fw) {
        String dir = "sys/devices/" + pciPath + "/infiniband/" + name;
        write(dir + "/node_type", "1: CA");
        write(dir + "/fw_ver", fw);
        // one adapter per device unless a test says otherwise
        String guid = String.format("b83f:d203:00a1:%04x", name.hashCode() & 0xffff);
        write(dir + "/node_guid", guid);
        write(dir + "/sys_image_guid", guid);
        symlink(dir + "/device", "sys/devices/" + pciPath);
        symlink("sys/class/infiniband/" + name, dir);
        return new Dev(dir);
    }

    /**
     * A Soft-RoCE device as current kernels register it: under devices/virtual, no device link, a parent file.
     *
     * @param name   device name
     * @param parent the netdev
     * @return the device
     */
    public Dev rxe(String name, String parent) {
        String dir = "sys/devices/virtual/infiniband/" + name;
        write(dir + "/node_type", "1: CA");
        write(dir + "/fw_ver", "0.0.0");
        write(dir + "/parent", parent);
        write(dir + "/node_desc", "rxe");
        symlink("sys/class/infiniband/" + name, dir);
        return new Dev(dir);
    }

    /**
     * A netdev, on a PCI function or virtual.
     *
     * @param name      interface name
     * @param pciPath   its PCI function below sys/devices, or null for a virtual interface
     * @param mtu       MTU
     * @param speedMbps speed file value
     * @return the netdev directory relative to the root
     */
    public String netdev(String name, String pciPath, int mtu, long speedMbps) {
        String dir = pciPath == null ? "sys/devices/virtual/net/" + name : "sys/devices/" + pciPath + "/net/" + name;
        write(dir + "/mtu", Integer.toString(mtu));
        write(dir + "/speed", Long.toString(speedMbps));
        write(dir + "/operstate", "up");
        write(dir + "/address", "b8:3f:d2:00:00:01");
        if (pciPath != null) {
            symlink(dir + "/device", "sys/devices/" + pciPath);
        }
        symlink("sys/class/net/" + name, dir);
        return dir;
    }

    /**
     * Assigns an IPv4 address with its connected route, in /proc/net/fib_trie and /proc/net/route.
     *
     * @param iface   interface
     * @param address dotted address
     * @param prefix  prefix length
     */
    public void ipv4(String iface, String address, int prefix) {
        ipv4.add(new String[] {iface, address, Integer.toString(prefix)});
        StringBuilder route = new StringBuilder(
                "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n");
        StringBuilder trie = new StringBuilder("Main:\n  +-- 0.0.0.0/0 3 0 5\n");
        StringBuilder local = new StringBuilder("Local:\n  +-- 0.0.0.0/0 3 0 5\n");
        for (String[] a : ipv4) {
            int addr = toInt(a[1]);
            int len = Integer.parseInt(a[2]);
            int mask = len == 0 ? 0 : -1 << (32 - len);
            int net = addr & mask;
            route.append(String.format(Locale.ROOT, "%s\t%08X\t00000000\t0001\t0\t0\t0\t%08X\t0\t0\t0%n",
                    a[0], Integer.reverseBytes(net), Integer.reverseBytes(mask)));
            String block = "     +-- " + dotted(net) + "/" + len + " 2 0 2\n"
                    + "        |-- " + dotted(net) + "\n           /" + len + " link UNICAST\n"
                    + "        |-- " + a[1] + "\n           /32 host LOCAL\n";
            trie.append(block);
            local.append(block);
        }
        write("proc/net/route", route.toString().strip());
        write("proc/net/fib_trie", (trie.toString() + local).stripTrailing());
    }

    /**
     * Assigns an IPv6 address in /proc/net/if_inet6.
     *
     * @param iface  interface
     * @param hex32  the address as 32 hex digits
     * @param scope  0x00 global, 0x20 link
     */
    public void ipv6(String iface, String hex32, int scope) {
        inet6.add(String.format("%s %02x %02x %02x %02x %8s", hex32, inet6.size() + 2, 64, scope, 0x80, iface));
        write("proc/net/if_inet6", String.join("\n", inet6));
    }

    /**
     * @param n how many NUMA nodes the host has
     */
    public void numaNodes(int n) {
        for (int i = 0; i < n; i++) {
            write("sys/devices/system/node/node" + i + "/cpulist", i * 32 + "-" + (i * 32 + 31));
        }
    }

    /** Marks the nvidia_peermem module as loaded. */
    public void peermem() {
        write("sys/module/nvidia_peermem/version", "535.129.03");
    }

    /**
     * @param dotted IPv4 address
     * @return its IPv4-mapped GID
     */
    public static String gidV4(String dotted) {
        int a = toInt(dotted);
        return String.format("0000:0000:0000:0000:0000:ffff:%04x:%04x", (a >>> 16) & 0xffff, a & 0xffff);
    }

    /**
     * @param suffix the interface-id part, 4 groups
     * @return a link-local GID
     */
    public static String gidLinkLocal(String suffix) {
        return "fe80:0000:0000:0000:" + suffix;
    }

    private static int toInt(String dotted) {
        int v = 0;
        for (String p : dotted.split("\\.")) {
            v = (v << 8) | Integer.parseInt(p);
        }
        return v;
    }

    private static String dotted(int a) {
        return ((a >>> 24) & 255) + "." + ((a >>> 16) & 255) + "." + ((a >>> 8) & 255) + "." + (a & 255);
    }
}
