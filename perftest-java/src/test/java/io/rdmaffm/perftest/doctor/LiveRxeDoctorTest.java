package io.rdmaffm.perftest.doctor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmaffm.verbs.topology.SysfsRdmaDevice;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import java.nio.file.Path;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The doctor on the live host's sysfs. In the Soft-RoCE VM (RDMA_DEVICE=rxe0 over veth0 with
 * 10.77.0.1) it must see the rxe device as virtual, its port ACTIVE and GID index 1 for that address.
 * Skips, with the reason, where the host has no RDMA device.
 */
@Tag("rdma")
class LiveRxeDoctorTest {

    @Test
    void liveRxeDeviceIsVirtualActiveAndHasItsIpv4Gid() {
        Topology t = Topology.read(new Sysfs(Path.of("/")));
        assumeTrue(!t.devices().isEmpty(), () -> "no RDMA device on this host ("
                + Objects.requireNonNullElse(t.devicesProblem(), "/sys/class/infiniband is empty") + ")");
        String name = Objects.requireNonNullElse(System.getenv("RDMA_DEVICE"), "rxe0");
        SysfsRdmaDevice rxe = t.device(name).orElse(null);
        assumeTrue(rxe != null && rxe.parentNetdev().known(), () -> "no Soft-RoCE device " + name + " here (found "
                + t.devices().stream().map(SysfsRdmaDevice::name).toList() + "); set RDMA_DEVICE to an rxe device");

        DoctorReport r = Doctor.examine(t, name, DcbPfcProbe.forLiveHost());
        String text = ReportWriter.human(r);
        assertTrue(r.devices().getFirst().virtual(), text);
        assertEquals(Verdict.OK, DoctorHostsTest.check(r, CheckId.PORT_STATE, name, 1).verdict(), text);
        CheckResult gid = DoctorHostsTest.check(r, CheckId.ROCE_GID, name, 1);
        assertEquals(Verdict.OK, gid.verdict(), text);
        assertEquals(1, gid.numbers().get("gidIndex"), text);
        assertEquals("10.77.0.1", gid.numbers().get("address"), text);
        assertEquals(Verdict.NA, DoctorHostsTest.check(r, CheckId.PCIE_BANDWIDTH, name, null).verdict(), text);
        System.out.print(text);
    }
}
