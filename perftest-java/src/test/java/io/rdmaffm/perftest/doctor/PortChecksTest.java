package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.topology.CodedState;
import io.rdmaffm.verbs.topology.Gid;
import io.rdmaffm.verbs.topology.IpAddress;
import io.rdmaffm.verbs.topology.NetDevice;
import io.rdmaffm.verbs.topology.PortRate;
import io.rdmaffm.verbs.topology.RdmaPort;
import io.rdmaffm.verbs.topology.Reading;
import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Topology;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The port checks on their own, over topology records built in memory (no sysfs tree): each check's verdict
 * and figures for one port, and how a port finds its netdev.
 */
class PortChecksTest {
    private static final String V4_GID = "0000:0000:0000:0000:0000:ffff:0a4d:0001"; // ::ffff:10.77.0.1

    private static RdmaPort port(String state, String phys, String rate, String linkLayer, List<Gid> gids) {
        return new RdmaPort(1, Path.of("/p"), CodedState.parse(state), CodedState.parse(phys), PortRate.parse(rate),
                Reading.of(linkLayer), Reading.of(gids));
    }

    private static RdmaPort activeEth(List<Gid> gids) {
        return port("4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", "Ethernet", gids);
    }

    private static SysfsRdmaDevice device(RdmaPort p, List<String> pciNetdevs, Reading<String> parent) {
        return new SysfsRdmaDevice("mlx5_0", Path.of("/d"), CodedState.parse("1: CA"), Reading.of("g"),
                Reading.of("0000:0000:0000:0000"), Reading.of("1.0"), Reading.unknown("no hca_type"), parent,
                parent.known(), parent.known() ? "Soft-RoCE over netdev " + parent.value() : "",
                Reading.unknown("not modelled here"), pciNetdevs, Reading.of(List.of(p)));
    }

    private static NetDevice netdev(String name, int mtu, Long speedMbps, boolean physical, List<IpAddress> addrs) {
        return new NetDevice(name, Reading.of(mtu), Reading.of("aa:bb"), Reading.of("up"),
                speedMbps == null ? Reading.unknown("link down") : Reading.of(speedMbps),
                physical ? Reading.of("0000:3b:00.0") : Reading.unknown("no device link"), addrs,
                Reading.of("dscp"), Reading.of(List.of(3)), Reading.of(List.of(3)));
    }

    private static Topology topology(SysfsRdmaDevice d, NetDevice... nds) {
        Map<String, NetDevice> m = new java.util.HashMap<>();
        for (NetDevice nd : nds) {
            m.put(nd.name(), nd);
        }
        return new Topology(Path.of("/"), List.of(d), null, m, List.of(), null, Reading.of(1), List.of());
    }

    private static Gid gid(int index, String address, String type, String netdev) {
        return new Gid(index, address, Reading.of(type), Reading.of(netdev));
    }

    @Test
    void netdevComesFromTheGidTableThenTheParentThenThePciFunction() {
        RdmaPort withGid = activeEth(List.of(gid(0, "fe80:0000:0000:0000:0000:0000:0000:0001", "RoCE v2", "eth9")));
        assertEquals(Reading.of("eth9"), DevicePort.of(device(withGid, List.of("ens1"), Reading.of("veth0")),
                withGid).netdev());
        RdmaPort bare = activeEth(List.of());
        assertEquals(Reading.of("veth0"), DevicePort.of(device(bare, List.of("ens1"), Reading.of("veth0")), bare)
                .netdev());
        assertEquals(Reading.of("ens1"), DevicePort.of(device(bare, List.of("ens1", "ens2"),
                Reading.unknown("no parent")), bare).netdev());
        assertTrue(DevicePort.of(device(bare, List.of(), Reading.unknown("no parent")), bare).netdev().problem()
                .startsWith("no netdev"));
    }

    @Test
    void roceMtuGivesTheRoceMtuTheNetdevAllows() {
        RdmaPort p = activeEth(List.of());
        SysfsRdmaDevice d = device(p, List.of("ens1"), Reading.unknown("no parent"));
        CheckResult warn = new RoceMtuCheck(topology(d, netdev("ens1", 1500, null, true, List.of())))
                .examine(DevicePort.of(d, p));
        assertEquals(Verdict.WARN, warn.verdict());
        assertEquals(List.of("netdev", "netdevMtu", "roceMtu"),
                warn.numbers().figures().stream().map(Numbers.Figure::name).toList());
        assertEquals(1024, warn.numbers().get("roceMtu"));
        assertEquals(Verdict.OK, new RoceMtuCheck(topology(d, netdev("ens1", 4192, null, true, List.of())))
                .examine(DevicePort.of(d, p)).verdict());
        CheckResult missing = new RoceMtuCheck(topology(d)).examine(DevicePort.of(d, p));
        assertEquals(Verdict.NA, missing.verdict());
        assertEquals("netdev ens1 not in /sys/class/net", missing.reason());
        assertTrue(missing.numbers().figures().isEmpty());
        RdmaPort ib = port("4: ACTIVE", "5: LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand", List.of());
        assertEquals("InfiniBand port, not RoCE", new RoceMtuCheck(topology(d)).examine(DevicePort.of(d, ib))
                .reason());
    }

    @Test
    void portStateHintsAtTheCauseOfAPortThatIsNotActive() {
        RdmaPort down = port("1: DOWN", "2: Polling", "100 Gb/sec (4X EDR)", "Ethernet", List.of());
        SysfsRdmaDevice d = device(down, List.of("ens1"), Reading.unknown("no parent"));
        CheckResult r = new PortStateCheck(topology(d)).examine(DevicePort.of(d, down));
        assertEquals(Verdict.WARN, r.verdict());
        assertTrue(r.reason().contains("no cable or no link partner"), r.reason());
        assertEquals(100.0, r.numbers().get("rateGbps"));
        RdmaPort init = port("2: INIT", "5: LinkUp", "100 Gb/sec (4X EDR)", "InfiniBand", List.of());
        assertTrue(new PortStateCheck(topology(d)).examine(DevicePort.of(d, init)).reason()
                .contains("subnet manager"));
    }

    @Test
    void portStateSeesThroughAnSdrRateOnAFasterNetdev() {
        RdmaPort sdr = port("4: ACTIVE", "5: LinkUp", "10 Gb/sec (4X)", "Ethernet", List.of());
        SysfsRdmaDevice d = device(sdr, List.of("ens1"), Reading.unknown("no parent"));
        CheckResult r = new PortStateCheck(topology(d, netdev("ens1", 9000, 100_000L, true, List.of())))
                .examine(DevicePort.of(d, sdr));
        assertEquals(Verdict.WARN, r.verdict());
        assertTrue(r.reason().contains("runs at 100000 Mb/s: kernel too old"), r.reason());
        assertEquals(100_000L, r.numbers().get("netdevSpeedMbps"));
        CheckResult same = new PortStateCheck(topology(d, netdev("ens1", 9000, 10_000L, true, List.of())))
                .examine(DevicePort.of(d, sdr));
        assertEquals(Verdict.OK, same.verdict(), same.reason());
        assertTrue(same.reason().endsWith("(no speed name: old-kernel spelling of SDR)"), same.reason());
        assertNull(same.numbers().get("netdevSpeedMbps"));
    }

    @Test
    void roceGidPrefersTheIpv4AddressOfTheNetdev() {
        IpAddress v4 = new IpAddress("10.77.0.1", "00000000000000000000ffff0a4d0001", true, false);
        IpAddress v6 = new IpAddress("fd00::1", "fd000000000000000000000000000001", false, false);
        RdmaPort p = activeEth(List.of(gid(0, "fd00:0000:0000:0000:0000:0000:0000:0001", "RoCE v2", "ens1"),
                gid(1, V4_GID, "RoCE v1", "ens1"), gid(2, V4_GID, "RoCE v2", "ens1")));
        SysfsRdmaDevice d = device(p, List.of("ens1"), Reading.unknown("no parent"));
        CheckResult r = new RoceGidCheck(topology(d, netdev("ens1", 9000, null, true, List.of(v6, v4))))
                .examine(DevicePort.of(d, p));
        assertEquals(Verdict.OK, r.verdict(), r.reason());
        assertEquals(2, r.numbers().get("gidIndex"));
        assertEquals("10.77.0.1", r.numbers().get("address"));
        assertEquals("fd00::1,10.77.0.1", r.numbers().get("addresses"));
        assertTrue(r.reason().startsWith("use -x 2 (RoCE v2, 10.77.0.1 on ens1)"), r.reason());
        IpAddress other = new IpAddress("10.9.9.9", "00000000000000000000ffff0a090909", true, false);
        CheckResult fail = new RoceGidCheck(topology(d, netdev("ens1", 9000, null, true, List.of(other))))
                .examine(DevicePort.of(d, p));
        assertEquals(Verdict.FAIL, fail.verdict(), fail.reason());
        assertNull(fail.numbers().get("gidIndex"));
    }

    @Test
    void roceLosslessAsksTheProbeOnlyForAPhysicalNetdev() {
        RdmaPort p = activeEth(List.of());
        SysfsRdmaDevice d = device(p, List.of("ens1"), Reading.unknown("no parent"));
        PfcProbe never = nd -> {
            throw new AssertionError("asked about " + nd);
        };
        CheckResult virt = new RoceLosslessCheck(topology(d, netdev("ens1", 9000, null, false, List.of())), never)
                .examine(DevicePort.of(d, p));
        assertEquals(Verdict.NA, virt.verdict());
        assertTrue(virt.reason().contains("is virtual (no device link)"), virt.reason());
        CheckResult ok = new RoceLosslessCheck(topology(d, netdev("ens1", 9000, null, true, List.of())),
                nd -> Reading.of(List.of(3))).examine(DevicePort.of(d, p));
        assertEquals(Verdict.OK, ok.verdict(), ok.reason());
        assertEquals("3", ok.numbers().get("pfcPriorities"));
        assertEquals("dscp", ok.numbers().get("trust"));
    }
}
