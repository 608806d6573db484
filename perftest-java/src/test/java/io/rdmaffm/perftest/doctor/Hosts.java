package io.rdmaffm.perftest.doctor;

import static io.rdmaffm.perftest.doctor.SysfsFixture.CLASS_3D;
import static io.rdmaffm.perftest.doctor.SysfsFixture.CLASS_ETH;
import static io.rdmaffm.perftest.doctor.SysfsFixture.CLASS_IB;
import static io.rdmaffm.perftest.doctor.SysfsFixture.MELLANOX;
import static io.rdmaffm.perftest.doctor.SysfsFixture.NVIDIA;
import static io.rdmaffm.perftest.doctor.SysfsFixture.gidLinkLocal;
import static io.rdmaffm.perftest.doctor.SysfsFixture.gidV4;
import static io.rdmaffm.perftest.doctor.SysfsFixture.link;

import java.nio.file.Path;

/**
 * Compact descriptions of real host shapes, each built into a fixture tree. Device ids: ConnectX-5
 * 0x1017, ConnectX-6 0x101b, ConnectX-6 Dx 0x101d, ConnectX-7 0x1021; H100 SXM5 0x2330, A100 SXM4 80GB 0x20b2.
 */
public final class Hosts {
    static final int CX5 = 0x1017;
    static final int CX6 = 0x101b;
    static final int CX6DX = 0x101d;
    static final int CX7 = 0x1021;
    static final int H100 = 0x2330;
    static final int A100 = 0x20b2;

    private Hosts() {
    }

    /**
     * DGX H100-like: two sockets, eight host bridges, each with a Gen5 switch holding one H100 and one
     * ConnectX-7 400G NDR port (each GPU's own rail), the proprietary driver with nvidia_peermem loaded, the
     * switches' downstream ports with ACS P2P redirection off (their config read in full), the NICs' config
     * unprivileged (64 bytes).
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture h100(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(2);
        f.peermem();
        f.nvidiaDriver(false, "535.129.03");
        int[] buses = {0x15, 0x37, 0x48, 0x5a, 0x97, 0xb7, 0xc8, 0xda};
        for (int i = 0; i < buses.length; i++) {
            int b = buses[i];
            int numa = i < 4 ? 0 : 1;
            String cpus = numa == 0 ? "0-55,112-167" : "56-111,168-223";
            String rp = String.format("pci0000:%02x/0000:%02x:01.0", b, b);
            String usp = rp + String.format("/0000:%02x:00.0", b + 1);
            String dspNic = usp + String.format("/0000:%02x:00.0", b + 2);
            String dspGpu = usp + String.format("/0000:%02x:01.0", b + 2);
            String nic = dspNic + String.format("/0000:%02x:00.0", b + 3);
            String gpu = dspGpu + String.format("/0000:%02x:00.0", b + 4);
            f.bridge(rp, link(5, 16), numa);
            f.bridge(usp, link(5, 16), numa);
            f.bridge(dspNic, link(5, 16), numa);
            f.bridge(dspGpu, link(5, 16), numa);
            // the switch's downstream ports: ACS present, P2P redirection off (config read as root)
            f.acsConfig(dspNic, 0);
            f.acsConfig(dspGpu, 0);
            f.pci(nic, MELLANOX, CX7, CLASS_IB, link(5, 16), numa, cpus);
            f.config(nic, 256, false);
            // an idle GPU trains down to Gen1: the doctor must judge it by its maximum
            f.pci(gpu, NVIDIA, H100, CLASS_3D, link(1, 16, 5, 16), numa, cpus);
            f.rdma("mlx5_" + i, nic, "28.39.1002")
                    .port(1, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand")
                    .gid(0, gidLinkLocal("a088:c203:00b1:000" + i), "IB/RoCE v1", null);
            f.netdev("ibp" + Integer.toHexString(b + 3) + "s0", nic, 4092, 400000);
        }
        return f;
    }

    /**
     * An 8×A100 server: two sockets, four Gen4 switches each with two A100 and one ConnectX-6 200G HDR
     * port on Gen4 x16; read as root, and the BIOS left Max_Payload_Size at 128 bytes; the proprietary R470
     * driver with nv_peer_mem (MLNX_OFED's nv_mem); the switch ports' config not captured.
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture a100(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(2);
        f.write("sys/kernel/mm/memory_peers/nv_mem/version", "1.3-0");
        f.nvidiaDriver(false, "470.223.02");
        int[] buses = {0x07, 0x47, 0x87, 0xc7};
        for (int i = 0; i < buses.length; i++) {
            int b = buses[i];
            int numa = i < 2 ? 0 : 1;
            String cpus = numa == 0 ? "0-63" : "64-127";
            String rp = String.format("pci0000:%02x/0000:%02x:01.1", b - 7, b - 7);
            String usp = rp + String.format("/0000:%02x:00.0", b);
            f.bridge(rp, link(4, 16), numa);
            f.bridge(usp, link(4, 16), numa);
            String dspNic = usp + String.format("/0000:%02x:08.0", b + 1);
            f.bridge(dspNic, link(4, 16), numa);
            String nic = dspNic + String.format("/0000:%02x:00.0", b + 2);
            f.pci(nic, MELLANOX, CX6, CLASS_IB, link(4, 16), numa, cpus);
            f.config(nic, 128, true);
            for (int g = 0; g < 2; g++) {
                String dsp = usp + String.format("/0000:%02x:%02x.0", b + 1, 0x10 + g);
                f.bridge(dsp, link(4, 16), numa);
                f.pci(dsp + String.format("/0000:%02x:00.0", b + 3 + g), NVIDIA, A100, CLASS_3D,
                        link(4, 16), numa, cpus);
            }
            f.rdma("mlx5_" + i, nic, "20.31.1014")
                    .port(1, "4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "InfiniBand")
                    .gid(0, gidLinkLocal("0c42:a103:00" + i + "1:0001"), "IB/RoCE v1", null);
        }
        return f;
    }

    /**
     * A single-socket host with a ConnectX-7 400G NDR card in a Gen4 x16 slot: the root port caps the link.
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture cx7InGen4Slot(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(1);
        String rp = "pci0000:00/0000:00:01.0";
        String nic = rp + "/0000:01:00.0";
        f.bridge(rp, link(4, 16), 0);
        f.pci(nic, MELLANOX, CX7, CLASS_IB, link(4, 16, 5, 16), 0, "0-31");
        f.rdma("mlx5_0", nic, "28.39.1002").port(1, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand")
                .gid(0, gidLinkLocal("a088:c203:0000:0001"), "IB/RoCE v1", null);
        return f;
    }

    /**
     * A ConnectX-6 200G HDR card that trained x8 in an x16 slot (bad riser or bifurcation).
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture x8InX16(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(1);
        String rp = "pci0000:00/0000:00:03.1";
        String nic = rp + "/0000:21:00.0";
        f.bridge(rp, link(4, 8, 4, 16), 0);
        f.pci(nic, MELLANOX, CX6, CLASS_IB, link(4, 8, 4, 16), 0, "0-15");
        f.rdma("mlx5_0", nic, "20.31.1014").port(1, "4: ACTIVE", "5: LinkUp", "200 Gb/sec (4X HDR)", "InfiniBand");
        return f;
    }

    /**
     * A dual-port ConnectX-5 100GbE card on Gen3 x16, both ports up with RoCE, MTU 9000, one subnet per
     * port, MLNX_OFED's ECN files enabled on priority 3.
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture dualPort100gGen3(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(2);
        String rp = "pci0000:3a/0000:3a:00.0";
        f.bridge(rp, link(3, 16), 0);
        for (int fn = 0; fn < 2; fn++) {
            String nic = rp + "/0000:3b:00." + fn;
            String ifname = "ens1f" + fn;
            String ip = "10.77." + (100 + fn) + ".11";
            f.pci(nic, MELLANOX, CX5, CLASS_ETH, link(3, 16), 0, "0-19,40-59");
            f.netdev(ifname, nic, 9000, 100000);
            f.ipv4(ifname, ip, 24);
            for (int p = 0; p < 8; p++) {
                f.write("sys/class/net/" + ifname + "/ecn/roce_np/enable/" + p, p == 3 ? "1" : "0");
                f.write("sys/class/net/" + ifname + "/ecn/roce_rp/enable/" + p, p == 3 ? "1" : "0");
            }
            f.write("sys/class/net/" + ifname + "/qos/trust", "dscp");
            String ll = gidLinkLocal("1e34:daff:fe5b:00" + fn + "0");
            f.rdma("mlx5_" + fn, nic, "16.35.2000").attr("sys_image_guid", "1c34:da03:005b:0000")
                    .port(1, "4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", "Ethernet")
                    .gid(0, ll, "IB/RoCE v1", ifname).gid(1, ll, "RoCE v2", ifname)
                    .gid(2, gidV4(ip), "IB/RoCE v1", ifname).gid(3, gidV4(ip), "RoCE v2", ifname);
        }
        return f;
    }

    /**
     * A RoCE host whose ConnectX-6 Dx port's netdev kept the default MTU 1500.
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture roceMtu1500(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(1);
        String rp = "pci0000:00/0000:00:02.0";
        String nic = rp + "/0000:03:00.0";
        f.bridge(rp, link(4, 16), 0);
        f.pci(nic, MELLANOX, CX6DX, CLASS_ETH, link(4, 16), 0, "0-31");
        f.netdev("ens2f0np0", nic, 1500, 100000);
        f.ipv4("ens2f0np0", "10.77.50.10", 24);
        f.ipv6("ens2f0np0", "fe800000000000000e42a1fffe1dd12a", 0x20);
        String ll = gidLinkLocal("0e42:a1ff:fe1d:d12a");
        f.rdma("mlx5_0", nic, "22.36.1010")
                .port(1, "4: ACTIVE", "5: LinkUp", "100 Gb/sec (2X HDR)", "Ethernet")
                .gid(0, ll, "IB/RoCE v1", "ens2f0np0").gid(1, ll, "RoCE v2", "ens2f0np0")
                .gid(2, gidV4("10.77.50.10"), "IB/RoCE v1", "ens2f0np0")
                .gid(3, gidV4("10.77.50.10"), "RoCE v2", "ens2f0np0");
        return f;
    }

    /**
     * Soft-RoCE as in the test VM: rxe0 over veth0 with 10.77.0.1/24, GID 0 link-local v2, GID 1 the
     * IPv4-mapped v2.
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture rxe(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(1);
        f.netdev("veth0", null, 1500, 10000);
        f.netdev("veth1", null, 1500, 10000);
        f.ipv4("veth0", "10.77.0.1", 24);
        f.ipv6("veth0", "fe80000000000000a8c4b2fffe13d0e1", 0x20);
        f.rxe("rxe0", "veth0")
                .port(1, "4: ACTIVE", "5: LinkUp", "10 Gb/sec (1X FDR10)", "Ethernet")
                .gid(0, gidLinkLocal("a8c4:b2ff:fe13:d0e1"), "RoCE v2", "veth0")
                .gid(1, gidV4("10.77.0.1"), "RoCE v2", "veth0")
                .counter("hw_counters", "sent_pkts", 100)
                .counter("hw_counters", "rcvd_seq_err", 0)
                .counter("hw_counters", "duplicate_request", 0);
        return f;
    }

    /**
     * A kernel 5.4-era host: PCIe speeds without the "PCIe" suffix and without a decimal, an SDR rate with
     * no speed name, and a 100GbE RoCE port the kernel could not name (printed as unlabelled SDR).
     *
     * @param root the directory
     * @return the fixture
     */
    public static SysfsFixture oldKernel(Path root) {
        SysfsFixture f = new SysfsFixture(root);
        f.numaNodes(1);
        String rp = "pci0000:00/0000:00:01.0";
        f.pci(rp, SysfsFixture.INTEL, 0x1234, SysfsFixture.CLASS_BRIDGE,
                new SysfsFixture.Link("8 GT/s", 16, "8 GT/s", 16), 0, "0-7");
        String ib = rp + "/0000:02:00.0";
        f.pci(ib, MELLANOX, 0x1013, CLASS_IB, new SysfsFixture.Link("8 GT/s", 16, "8 GT/s", 16), 0, "0-7");
        f.rdma("mlx5_0", ib, "12.28.2006").port(1, "4: ACTIVE", "5: LinkUp", "10 Gb/sec (4X)", "InfiniBand");
        String rp2 = "pci0000:00/0000:00:02.0";
        f.pci(rp2, SysfsFixture.INTEL, 0x1234, SysfsFixture.CLASS_BRIDGE,
                new SysfsFixture.Link("8 GT/s", 16, "Unknown speed", 16), 0, "0-7");
        String eth = rp2 + "/0000:03:00.0";
        f.pci(eth, MELLANOX, CX5, CLASS_ETH, new SysfsFixture.Link("8 GT/s", 16, "8 GT/s", 16), 0, "0-7");
        f.netdev("enp3s0f0", eth, 9000, 100000);
        f.rdma("mlx5_1", eth, "16.26.1040").port(1, "4: ACTIVE", "5: LinkUp", "2.5 Gb/sec (1X)", "Ethernet")
                .gid(0, gidLinkLocal("1e34:daff:fe5b:0000"), "RoCE v2", "enp3s0f0");
        return f;
    }
}
