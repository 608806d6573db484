package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The doctor's verdicts on fixture trees of real host shapes. */
class DoctorHostsTest {

    @TempDir
    Path dir;

    static DoctorReport examine(SysfsFixture f) {
        return examine(f, PfcProbe.unavailable("not asked in tests"));
    }

    static DoctorReport examine(SysfsFixture f, PfcProbe pfc) {
        return Doctor.examine(Topology.read(new Sysfs(f.root())), null, pfc);
    }

    static CheckResult check(DoctorReport r, CheckId id, String device, Integer port) {
        List<CheckResult> l = r.results().stream()
                .filter(c -> c.check() == id && java.util.Objects.equals(c.device(), device)
                        && java.util.Objects.equals(c.port(), port))
                .toList();
        assertEquals(1, l.size(), () -> "one " + id + " for " + device + "/" + port + " in " + r.results());
        return l.getFirst();
    }

    static void assertVerdict(Verdict v, CheckResult c) {
        assertEquals(v, c.verdict(), () -> c.check().id() + " " + c.device() + "/" + c.port() + ": " + c.reason());
    }

    @Test
    void h100WithEightCx7OnGen5BehindSwitchesIsAllOkAndPix() {
        DoctorReport r = examine(Hosts.h100(dir));
        assertEquals(8, r.devices().size());
        assertEquals(8, r.gpus().size());
        for (int i = 0; i < 8; i++) {
            String d = "mlx5_" + i;
            CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, d, null);
            assertVerdict(Verdict.OK, bw);
            assertEquals(400.0, bw.numbers().get("demandGbps"));
            assertEquals(504.1, bw.numbers().get("rawGbps"));
            assertEquals(451.2, bw.numbers().get("modelGbps"));
            assertEquals(true, bw.numbers().get("maxPayloadAssumed"));
            assertVerdict(Verdict.OK, check(r, CheckId.PCIE_DOWNTRAINED, d, null));
            CheckResult numa = check(r, CheckId.NUMA, d, null);
            assertVerdict(Verdict.OK, numa);
            assertEquals(i < 4 ? 0 : 1, numa.numbers().get("numaNode"));
            CheckResult aff = check(r, CheckId.GPU_NIC_AFFINITY, d, null);
            assertVerdict(Verdict.OK, aff);
            assertEquals("PIX", aff.numbers().get("path"));
            assertEquals(true, aff.numbers().get("gdrLikely"));
            assertVerdict(Verdict.OK, check(r, CheckId.PORT_STATE, d, 1));
            assertVerdict(Verdict.NA, check(r, CheckId.ROCE_GID, d, 1));
        }
        // each GPU has its own rail
        Set<String> nics = r.gpus().stream().map(Doctor.GpuChoice::nic).collect(Collectors.toSet());
        assertEquals(8, nics.size());
        assertTrue(r.gpus().stream().allMatch(g -> g.path() == PathClass.PIX));
        assertTrue(r.gpus().stream().allMatch(g -> g.model().equals("H100 SXM5 80GB")));
        assertTrue(r.gpus().stream().allMatch(g -> g.maxLink().equals("32.0 GT/s x16")), "judged by max link");
        CheckResult advice = check(r, CheckId.FABRIC_ADVICE, null, null);
        assertVerdict(Verdict.OK, advice);
        assertTrue(advice.reason().contains("InfiniBand"), advice.reason());
        assertEquals(Verdict.OK, r.worst());
        assertEquals(0, r.exitCode());
        assertEquals(0, r.count(Verdict.WARN) + r.count(Verdict.FAIL));
    }

    @Test
    void a100With200gHdrOnGen4WarnsAboutTheMargin() {
        DoctorReport r = examine(Hosts.a100(dir));
        for (int i = 0; i < 4; i++) {
            CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_" + i, null);
            assertVerdict(Verdict.WARN, bw);
            assertTrue(bw.reason().startsWith("margin only"), bw.reason());
            assertEquals(128, bw.numbers().get("maxPayloadBytes"));
            assertEquals(false, bw.numbers().get("maxPayloadAssumed"));
            assertEquals(252.1, bw.numbers().get("rawGbps"));
            double model = (Double) bw.numbers().get("modelGbps");
            assertTrue(model >= 200 && model < 220, "modelled " + model);
            assertEquals(192.0, bw.numbers().get("ncclModelGbps"));
            assertTrue(bw.reason().contains("NCCL models this link at 192"), bw.reason());
            assertVerdict(Verdict.OK, check(r, CheckId.GPU_NIC_AFFINITY, "mlx5_" + i, null));
        }
        assertEquals(8, r.gpus().size());
        assertTrue(r.gpus().stream().allMatch(g -> g.path() == PathClass.PIX), r.gpus().toString());
        assertTrue(check(r, CheckId.FABRIC_ADVICE, null, null).reason().contains("A100"));
        assertEquals(1, r.exitCode());
    }

    @Test
    void a100ShapeWithDefaultPayloadWouldBeOkSoTheWarnComesFromTheMeasuredMps() {
        SysfsFixture f = Hosts.a100(dir);
        for (int b : new int[] {0x07, 0x47, 0x87, 0xc7}) {
            String nic = String.format("pci0000:%02x/0000:%02x:01.1/0000:%02x:00.0/0000:%02x:08.0/0000:%02x:00.0",
                    b - 7, b - 7, b, b + 1, b + 2);
            f.config(nic, 256, true);
        }
        DoctorReport r = examine(f);
        assertVerdict(Verdict.OK, check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null));
    }

    @Test
    void cx7In400gInAGen4SlotFailsNamingTheRootPort() {
        DoctorReport r = examine(Hosts.cx7InGen4Slot(dir));
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.FAIL, bw);
        assertEquals("0000:00:01.0", bw.numbers().get("limitingDevice"));
        assertEquals("root port", bw.numbers().get("limitingRole"));
        assertTrue(bw.reason().contains("limited by 0000:00:01.0"), bw.reason());
        assertTrue(bw.reason().contains("could do 32.0 GT/s x16"), bw.reason());
        CheckResult dt = check(r, CheckId.PCIE_DOWNTRAINED, "mlx5_0", null);
        assertVerdict(Verdict.OK, dt);
        assertTrue(dt.reason().contains("slot 0000:00:01.0 caps the NIC at 16.0 GT/s x16"), dt.reason());
        assertEquals(2, r.exitCode());
    }

    @Test
    void nicTrainedX8InAnX16SlotIsDowntrained() {
        DoctorReport r = examine(Hosts.x8InX16(dir));
        CheckResult dt = check(r, CheckId.PCIE_DOWNTRAINED, "mlx5_0", null);
        assertVerdict(Verdict.WARN, dt);
        assertTrue(dt.reason().contains("0000:21:00.0 (NIC) trained 16.0 GT/s x8, both ends support 16.0 GT/s x16"),
                dt.reason());
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.FAIL, bw);
        assertEquals(8, bw.numbers().get("linkWidth"));
    }

    @Test
    void dualPortCardWithBothPortsActiveExceedsItsGen3Link() {
        DoctorReport r = examine(Hosts.dualPort100gGen3(dir));
        for (String d : List.of("mlx5_0", "mlx5_1")) {
            CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, d, null);
            assertVerdict(Verdict.FAIL, bw);
            assertEquals(200.0, bw.numbers().get("demandGbps"));
            assertEquals("mlx5_0/1,mlx5_1/1", bw.numbers().get("activePorts"));
            assertEquals(126.0, bw.numbers().get("rawGbps"));
            assertTrue(bw.reason().contains("2 active ports sharing the link"), bw.reason());
            assertFalse(bw.numbers().containsKey("adapterOtherLinks"), "both functions share one link");
            assertVerdict(Verdict.OK, check(r, CheckId.ROCE_MTU, d, 1));
            CheckResult gid = check(r, CheckId.ROCE_GID, d, 1);
            assertVerdict(Verdict.OK, gid);
            assertEquals(3, gid.numbers().get("gidIndex"));
        }
        assertEquals("10.77.101.11", check(r, CheckId.ROCE_GID, "mlx5_1", 1).numbers().get("address"));
    }

    @Test
    void oneActivePortOfTheDualPortCardFits() {
        SysfsFixture f = Hosts.dualPort100gGen3(dir);
        f.write("sys/class/infiniband/mlx5_1/ports/1/state", "1: DOWN");
        f.write("sys/class/infiniband/mlx5_1/ports/1/phys_state", "2: Polling");
        DoctorReport r = examine(f);
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.OK, bw);
        assertEquals(100.0, bw.numbers().get("demandGbps"));
        CheckResult ps = check(r, CheckId.PORT_STATE, "mlx5_1", 1);
        assertVerdict(Verdict.WARN, ps);
        assertTrue(ps.reason().contains("no cable or no link partner"), ps.reason());
    }

    @Test
    void roceLosslessUsesPfcAndTheOfedEcnFiles() {
        SysfsFixture f = Hosts.dualPort100gGen3(dir);
        DoctorReport on = examine(f, nd -> io.rdmaffm.verbs.topology.Reading.of(List.of(3)));
        CheckResult ok = check(on, CheckId.ROCE_LOSSLESS, "mlx5_0", 1);
        assertVerdict(Verdict.OK, ok);
        assertTrue(ok.reason().contains("PFC on priority 3") && ok.reason().contains("trust dscp"), ok.reason());
        DoctorReport off = examine(f, nd -> io.rdmaffm.verbs.topology.Reading.of(List.of()));
        assertVerdict(Verdict.WARN, check(off, CheckId.ROCE_LOSSLESS, "mlx5_0", 1));
        DoctorReport wrongPrio = examine(f, nd -> io.rdmaffm.verbs.topology.Reading.of(List.of(4)));
        CheckResult w = check(wrongPrio, CheckId.ROCE_LOSSLESS, "mlx5_0", 1);
        assertVerdict(Verdict.WARN, w);
        assertTrue(w.reason().contains("ECN/DCQCN not enabled there"), w.reason());
        DoctorReport unknown = examine(f);
        CheckResult na = check(unknown, CheckId.ROCE_LOSSLESS, "mlx5_0", 1);
        assertVerdict(Verdict.NA, na);
        assertTrue(na.reason().contains("PFC unknown (not asked in tests)"), na.reason());
    }

    @Test
    void roceNetdevWithMtu1500Warns() {
        DoctorReport r = examine(Hosts.roceMtu1500(dir));
        CheckResult mtu = check(r, CheckId.ROCE_MTU, "mlx5_0", 1);
        assertVerdict(Verdict.WARN, mtu);
        assertEquals(1500, mtu.numbers().get("netdevMtu"));
        assertEquals(1024, mtu.numbers().get("roceMtu"));
        assertTrue(mtu.reason().contains("MTU 1500") && mtu.reason().contains("4192"), mtu.reason());
        CheckResult gid = check(r, CheckId.ROCE_GID, "mlx5_0", 1);
        assertVerdict(Verdict.OK, gid);
        assertEquals(3, gid.numbers().get("gidIndex"));
        assertTrue(gid.reason().startsWith("use -x 3 (RoCE v2, 10.77.50.10 on ens2f0np0)"), gid.reason());
        CheckResult ll = check(r, CheckId.ROCE_LOSSLESS, "mlx5_0", 1);
        assertVerdict(Verdict.NA, ll);
        assertTrue(ll.reason().contains("MLNX_OFED-only"), ll.reason());
        assertEquals(1, r.exitCode());
    }

    @Test
    void roceWithoutAV2GidForTheAddressFails() {
        SysfsFixture f = Hosts.roceMtu1500(dir);
        f.write("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/1", "IB/RoCE v1");
        f.write("sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/3", "IB/RoCE v1");
        CheckResult gid = check(examine(f), CheckId.ROCE_GID, "mlx5_0", 1);
        assertVerdict(Verdict.FAIL, gid);
        assertTrue(gid.reason().contains("no RoCE v2 GID for 10.77.50.10 on ens2f0np0"), gid.reason());
    }

    @Test
    void rxeIsVirtualWithPcieChecksNotApplicableAndTheRestRunning() {
        DoctorReport r = examine(Hosts.rxe(dir));
        assertTrue(r.devices().getFirst().virtual());
        for (CheckId id : List.of(CheckId.PCIE_BANDWIDTH, CheckId.PCIE_DOWNTRAINED, CheckId.NUMA,
                CheckId.GPU_NIC_AFFINITY)) {
            CheckResult c = check(r, id, "rxe0", null);
            assertVerdict(Verdict.NA, c);
            assertTrue(c.reason().contains("virtual device (Soft-RoCE over netdev veth0)"), c.reason());
        }
        assertVerdict(Verdict.OK, check(r, CheckId.PORT_STATE, "rxe0", 1));
        CheckResult gid = check(r, CheckId.ROCE_GID, "rxe0", 1);
        assertVerdict(Verdict.OK, gid);
        assertEquals(1, gid.numbers().get("gidIndex"));
        assertEquals("10.77.0.1", gid.numbers().get("address"));
        assertVerdict(Verdict.WARN, check(r, CheckId.ROCE_MTU, "rxe0", 1));
        CheckResult ll = check(r, CheckId.ROCE_LOSSLESS, "rxe0", 1);
        assertVerdict(Verdict.NA, ll);
        assertTrue(ll.reason().contains("veth0 is virtual (no device link)"), ll.reason());
        assertVerdict(Verdict.NA, check(r, CheckId.FABRIC_ADVICE, null, null));
    }

    @Test
    void oldKernelSpellingsAreParsedAndUnnamedSpeedsFlagged() {
        DoctorReport r = examine(Hosts.oldKernel(dir));
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.OK, bw);
        assertEquals("8.0 GT/s", bw.numbers().get("linkSpeed"));
        assertEquals(126.0, bw.numbers().get("rawGbps"));
        assertEquals(10.0, bw.numbers().get("demandGbps"));
        assertTrue(bw.reason().contains("kernel may be too old"), bw.reason());
        CheckResult ib = check(r, CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.WARN, ib);
        assertTrue(ib.reason().contains("kernel too old to name this speed"), ib.reason());
        assertEquals(10.0, ib.numbers().get("rateGbps"));
        CheckResult eth = check(r, CheckId.PORT_STATE, "mlx5_1", 1);
        assertVerdict(Verdict.WARN, eth);
        assertTrue(eth.reason().contains("netdev enp3s0f0 runs at 100000 Mb/s"), eth.reason());
        assertEquals(2.5, eth.numbers().get("rateGbps"));
        // "Unknown speed" capability on the second root port: the downtrain check cannot judge that hop
        // but still judges the NIC's own link
        assertVerdict(Verdict.OK, check(r, CheckId.PCIE_DOWNTRAINED, "mlx5_1", null));
    }

    @Test
    void socketDirectAdapterOnTwoLinksIsPointedOut() {
        SysfsFixture f = Hosts.cx7InGen4Slot(dir);
        String rp2 = "pci0000:80/0000:80:01.0";
        String pf2 = rp2 + "/0000:81:00.0";
        f.bridge(rp2, SysfsFixture.link(4, 16), 0);
        f.pci(pf2, SysfsFixture.MELLANOX, Hosts.CX7, SysfsFixture.CLASS_IB, SysfsFixture.link(4, 16, 5, 16), 0, "0-31");
        f.rdma("mlx5_1", pf2, "28.39.1002").attr("sys_image_guid", "a088:c203:0011:2233")
                .port(1, "4: ACTIVE", "5: LinkUp", "400 Gb/sec (4X NDR)", "InfiniBand");
        f.write("sys/class/infiniband/mlx5_0/sys_image_guid", "a088:c203:0011:2233");
        DoctorReport r = examine(f);
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertEquals("mlx5_1 at 0000:81:00.0", bw.numbers().get("adapterOtherLinks"));
        assertTrue(bw.reason().contains("Socket Direct"), bw.reason());
        assertEquals(400.0, bw.numbers().get("demandGbps"), "PFs on other links are not summed into this link");
        assertEquals(null, check(examine(Hosts.h100(dir.resolve("h"))), CheckId.PCIE_BANDWIDTH, "mlx5_0", null)
                .numbers().get("adapterOtherLinks"));
    }

    @Test
    void noGpusMeansAffinityAndAdviceAreNotApplicable() {
        DoctorReport r = examine(Hosts.cx7InGen4Slot(dir));
        assertVerdict(Verdict.NA, check(r, CheckId.GPU_NIC_AFFINITY, "mlx5_0", null));
        CheckResult adv = check(r, CheckId.FABRIC_ADVICE, null, null);
        assertVerdict(Verdict.NA, adv);
        assertFalse(adv.advisory() && adv.verdict() == Verdict.FAIL);
    }

    @Test
    void gpuOnTheOtherSocketIsSysAndGdrUnlikely() {
        SysfsFixture f = Hosts.cx7InGen4Slot(dir);
        f.numaNodes(2);
        f.bridge("pci0000:80/0000:80:01.0", SysfsFixture.link(4, 16), 1);
        f.pci("pci0000:80/0000:80:01.0/0000:81:00.0", SysfsFixture.NVIDIA, Hosts.A100, SysfsFixture.CLASS_3D,
                SysfsFixture.link(4, 16), 1, "32-63");
        f.peermem();
        DoctorReport r = examine(f);
        CheckResult aff = check(r, CheckId.GPU_NIC_AFFINITY, "mlx5_0", null);
        assertVerdict(Verdict.WARN, aff);
        assertEquals("SYS", aff.numbers().get("path"));
        assertTrue(aff.reason().contains("GPUDirect RDMA unlikely"), aff.reason());
    }

    @Test
    void missingPeerMemoryModuleWarnsEvenAtPix() {
        SysfsFixture f = Hosts.h100(dir);
        f.write("sys/module/nvidia_peermem/version", "x");
        try {
            java.nio.file.Files.delete(dir.resolve("sys/module/nvidia_peermem/version"));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        CheckResult aff = check(examine(f), CheckId.GPU_NIC_AFFINITY, "mlx5_0", null);
        assertVerdict(Verdict.WARN, aff);
        assertTrue(aff.reason().contains("no peer-memory module"), aff.reason());
    }
}
