package io.rdmaffm.verbs.topology;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topology model read from small trees with the kernel's link structure. */
class TopologyTest {

    @TempDir
    Path root;

    private void write(String rel, String content) throws IOException {
        Path p = root.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, content + "\n", StandardCharsets.UTF_8);
    }

    private void link(String rel, String target) throws IOException {
        Path l = root.resolve(rel);
        Files.createDirectories(l.getParent());
        Files.createSymbolicLink(l, l.getParent().relativize(root.resolve(target)));
    }

    private void pci(String path, String cls, String cur, String max, String numa) throws IOException {
        String d = "sys/devices/" + path;
        write(d + "/vendor", "0x15b3");
        write(d + "/device", "0x1021");
        write(d + "/class", cls);
        write(d + "/current_link_speed", cur);
        write(d + "/current_link_width", "16");
        write(d + "/max_link_speed", max);
        write(d + "/max_link_width", "16");
        write(d + "/numa_node", numa);
        write(d + "/local_cpulist", "0-15");
        link("sys/bus/pci/devices/" + path.substring(path.lastIndexOf('/') + 1), d);
    }

    @BeforeEach
    void host() throws IOException {
        String rp = "pci0000:16/0000:16:02.0";
        String usp = rp + "/0000:17:00.0";
        String dsp = usp + "/0000:18:08.0";
        String nic = dsp + "/0000:1a:00.0";
        pci(rp, "0x060400", "32.0 GT/s PCIe", "32.0 GT/s PCIe", "1");
        pci(usp, "0x060400", "32.0 GT/s PCIe", "32.0 GT/s PCIe", "1");
        pci(dsp, "0x060400", "32.0 GT/s PCIe", "32.0 GT/s PCIe", "1");
        pci(nic, "0x020000", "32.0 GT/s PCIe", "32.0 GT/s PCIe", "-1");
        String dev = "sys/devices/" + nic + "/infiniband/mlx5_0";
        write(dev + "/node_type", "1: CA");
        write(dev + "/fw_ver", "28.39.1002");
        link(dev + "/device", "sys/devices/" + nic);
        link("sys/class/infiniband/mlx5_0", dev);
        String port = dev + "/ports/1";
        write(port + "/state", "4: ACTIVE");
        write(port + "/phys_state", "5: LinkUp");
        write(port + "/rate", "400 Gb/sec (4X NDR)");
        write(port + "/link_layer", "Ethernet");
        write(port + "/gids/0", "fe80:0000:0000:0000:0e42:a1ff:fe1d:d12a");
        write(port + "/gids/1", "0000:0000:0000:0000:0000:ffff:7f4d:010a");
        write(port + "/gids/2", "0000:0000:0000:0000:0000:0000:0000:0000");
        write(port + "/gid_attrs/types/0", "RoCE v2");
        write(port + "/gid_attrs/types/1", "RoCE v2");
        write(port + "/gid_attrs/ndevs/0", "ens1np0");
        write(port + "/gid_attrs/ndevs/1", "ens1np0");
        write(port + "/hw_counters/out_of_sequence", "7");
        write(port + "/hw_counters/lifespan", "10");
        write(port + "/counters/port_rcv_data", "N/A (no PMA)");
        String net = "sys/devices/" + nic + "/net/ens1np0";
        write(net + "/mtu", "9000");
        write(net + "/speed", "400000");
        write(net + "/operstate", "up");
        link(net + "/device", "sys/devices/" + nic);
        link("sys/class/net/ens1np0", net);
        write("sys/devices/virtual/net/lo/mtu", "65536");
        write("sys/devices/virtual/net/lo/speed", "-1");
        link("sys/class/net/lo", "sys/devices/virtual/net/lo");
        // 127.77.1.10/24 on ens1np0; 10.77.0.9 on two interfaces' subnets: not attributable
        write("proc/net/route", "Iface\tDestination\tGateway \tFlags\tRefCnt\tUse\tMetric\tMask\t\tMTU\tWindow\tIRTT\n"
                + "ens1np0\t00014D7F\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
                + "ens1np0\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"
                + "lo\t0000000A\t00000000\t0001\t0\t0\t0\t000000FF\t0\t0\t0\n"
                + "ens1np0\t00000000\t01014D7F\t0003\t0\t0\t0\t00000000\t0\t0\t0");
        write("proc/net/fib_trie", "Main:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 127.77.1.10\n        /32 host LOCAL\n"
                + "     |-- 127.77.1.255\n        /32 link BROADCAST\n     |-- 10.77.0.9\n        /32 host LOCAL\n"
                + "Local:\n  +-- 0.0.0.0/0 3 0 5\n     |-- 127.77.1.10\n        /32 host LOCAL");
        write("proc/net/if_inet6", "fe800000000000000e42a1fffe1dd12a 02 40 20 80  ens1np0\n"
                + "20010db8000000000000000000000010 02 40 00 80  ens1np0\n"
                + "00000000000000000000000000000001 01 80 10 80       lo");
        for (int i = 0; i < 2; i++) {
            write("sys/devices/system/node/node" + i + "/cpulist", "0-15");
        }
    }

    @Test
    void readsDevicePortsGidsAndPciPath() {
        Topology t = Topology.read(new Sysfs(root));
        assertEquals(null, t.devicesProblem());
        SysfsRdmaDevice d = t.device("mlx5_0").orElseThrow();
        assertFalse(d.virtual());
        assertEquals("28.39.1002", d.fwVer().value());
        PciPath p = d.pci().value();
        assertEquals("pci0000:16", p.hostBridge());
        assertEquals(List.of("0000:16:02.0", "0000:17:00.0", "0000:18:08.0", "0000:1a:00.0"),
                p.chain().stream().map(PciFunction::address).toList());
        assertTrue(p.rootPort().isBridge());
        assertFalse(p.endpoint().isBridge());
        assertEquals("0000:1a:00", p.endpoint().slot());
        assertEquals("numa_node is -1 (firmware gives no affinity)", p.endpoint().numaNode().problem());
        assertEquals(1, p.rootPort().numaNode().value());
        assertEquals(List.of("ens1np0"), d.pciNetdevs());
        RdmaPort port = d.port(1).orElseThrow();
        assertTrue(port.isActive() && port.isEthernet());
        assertEquals(400.0, port.rate().value().gbps());
        List<Gid> gids = port.gids().value();
        assertEquals(2, gids.size(), "the all-zero slot is not a GID");
        assertEquals("127.77.1.10", gids.get(1).ipv4().orElseThrow());
        assertEquals("ens1np0", gids.get(1).netdev().value());
        assertEquals(2, t.numaNodes().value());
        assertTrue(t.gpus().isEmpty());
    }

    @Test
    void netdevsWithAttributedAddresses() {
        Topology t = Topology.read(new Sysfs(root));
        NetDevice nd = t.netdev("ens1np0").orElseThrow();
        assertEquals(9000, nd.mtu().value());
        assertEquals(400000L, nd.speedMbps().value());
        assertEquals("0000:1a:00.0", nd.pciAddress().value());
        assertTrue(nd.physical());
        List<String> addrs = nd.addresses().stream().map(IpAddress::text).toList();
        assertTrue(addrs.contains("127.77.1.10"), addrs.toString());
        assertFalse(addrs.contains("10.77.0.9"), "a subnet routed on two interfaces is not attributed: " + addrs);
        assertTrue(nd.addresses().getFirst().ipv4(), "IPv4 first");
        IpAddress v4 = nd.addresses().getFirst();
        assertEquals("00000000000000000000ffff7f4d010a", v4.gidHex());
        assertTrue(nd.addresses().stream().anyMatch(a -> a.linkLocal() && !a.ipv4()));
        assertTrue(nd.addresses().stream().anyMatch(a -> a.gidHex().equals("20010db8000000000000000000000010")));
        NetDevice lo = t.netdev("lo").orElseThrow();
        assertFalse(lo.physical());
        assertEquals("no device link", lo.pciAddress().problem());
        assertFalse(lo.speedMbps().known());
        assertTrue(nd.qosTrust().problem().endsWith("qos/trust: missing"));
    }

    @Test
    void softRoceOnOldKernelsIsVirtualDespiteItsDeviceLink() throws IOException {
        // before ~5.11 rxe's device link pointed at the real NIC; "parent" tells it apart
        String dev = "sys/devices/virtual/infiniband/rxe0";
        write(dev + "/node_type", "1: CA");
        write(dev + "/parent", "ens1np0");
        link(dev + "/device", "sys/devices/pci0000:16/0000:16:02.0/0000:17:00.0/0000:18:08.0/0000:1a:00.0");
        link("sys/class/infiniband/rxe0", dev);
        SysfsRdmaDevice rxe = Topology.read(new Sysfs(root)).device("rxe0").orElseThrow();
        assertTrue(rxe.virtual());
        assertEquals("Soft-RoCE over netdev ens1np0", rxe.virtualReason());
        assertFalse(rxe.pci().known());
        assertEquals("ports: missing", rxe.ports().problem().substring(rxe.ports().problem().lastIndexOf('/') + 1));
    }

    @Test
    void countersAreReadPerPortAndNonNumbersReported() {
        Sysfs fs = new Sysfs(root);
        CounterSnapshot c = CounterSnapshot.take(fs, Topology.read(fs).device("mlx5_0").orElseThrow());
        assertEquals(7L, c.values().get("1/hw_counters/out_of_sequence"));
        assertFalse(c.values().containsKey("1/hw_counters/lifespan"));
        assertEquals(1, c.problems().size());
        assertTrue(c.problems().getFirst().contains("not a number: 'N/A (no PMA)'"), c.problems().toString());
    }

    @Test
    void sysfsReasons() throws IOException {
        Sysfs fs = new Sysfs(root);
        assertEquals("/nothing/here: missing", fs.text(fs.path("nothing/here")).problem());
        assertEquals("/sys/class: is a directory", fs.text(fs.path("sys/class")).problem());
        Files.createSymbolicLink(root.resolve("a"), Path.of("b"));
        Files.createSymbolicLink(root.resolve("b"), Path.of("a"));
        assertEquals("/a: symbolic link loop", fs.text(fs.path("a")).problem());
        assertEquals("/a: symbolic link loop", fs.realPath(fs.path("a")).problem());
        assertEquals("/a: symbolic link loop", fs.list(fs.path("a")).problem());
        write("empty", "");
        assertEquals("/empty: empty", fs.text(fs.path("empty")).problem());
        assertEquals("'a\\x00b'", Sysfs.quote("a\u0000b"));
        Sysfs failing = new Sysfs(root, f -> {
            throw new IOException("Invalid argument");
        });
        assertEquals("/sys/class/net/lo/mtu: Invalid argument", failing.text(failing.path("sys/class/net/lo/mtu"))
                .problem());
    }

    @Test
    void fifoIsNotOpened() throws Exception {
        Path fifo = root.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        org.junit.jupiter.api.Assumptions.assumeTrue(p.waitFor() == 0, "mkfifo unavailable");
        Sysfs fs = new Sysfs(root);
        assertEquals("/fifo: not a regular file", fs.text(fs.path("fifo")).problem());
        // listed where a directory was expected: the open would block until a writer came (DoctorFuzzTest)
        assertEquals("/fifo: not a directory", fs.list(fs.path("fifo")).problem());
    }
}
