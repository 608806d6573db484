package io.rdmaffm.perftest.doctor;

import static io.rdmaffm.perftest.doctor.DoctorHostsTest.assertVerdict;
import static io.rdmaffm.perftest.doctor.DoctorHostsTest.check;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Missing, half-populated, garbled, unreadable and looping sysfs trees: N/A with a reason, never a crash. */
class DoctorBadInputTest {

    @TempDir
    Path dir;

    private static DoctorReport examine(Sysfs fs) {
        return Doctor.examine(Topology.read(fs), null, PfcProbe.unavailable("not asked in tests"));
    }

    @Test
    void noDeviceIsAFailNotAPass() throws IOException {
        DoctorReport r = examine(new Sysfs(dir));
        assertTrue(r.devices().isEmpty());
        assertEquals("cannot list RDMA devices: /sys/class/infiniband: missing", r.problems().getFirst());
        assertVerdict(Verdict.NA, check(r, CheckId.FABRIC_ADVICE, null, null));
        CheckResult none = check(r, CheckId.RDMA_DEVICES, null, null);
        assertVerdict(Verdict.FAIL, none);
        assertTrue(none.reason().startsWith("cannot list RDMA devices: /sys/class/infiniband: missing: nothing was "
                + "checked"), none.reason());
        assertEquals(Verdict.FAIL, r.worst());
        assertEquals(2, r.exitCode());
        String human = ReportWriter.human(r);
        assertTrue(human.contains("note: cannot list RDMA devices"), human);
        assertTrue(human.endsWith("worst FAIL (exit 2)\n"), human);
        assertTrue(ReportWriter.json(r).contains("\"exitCode\": 2"), ReportWriter.json(r));

        Files.createDirectories(dir.resolve("sys/class/infiniband"));
        DoctorReport empty = examine(new Sysfs(dir));
        assertTrue(check(empty, CheckId.RDMA_DEVICES, null, null).reason()
                .startsWith("no RDMA devices under /sys/class/infiniband"));
        assertEquals(2, empty.exitCode());
    }

    @Test
    void allowNoDevicesMakesAnEmptyHostNotApplicable() {
        DoctorReport r = Doctor.examine(Topology.read(new Sysfs(dir)), null, PfcProbe.unavailable("tests"), true);
        CheckResult none = check(r, CheckId.RDMA_DEVICES, null, null);
        assertVerdict(Verdict.NA, none);
        assertTrue(none.reason().endsWith("(expected: --allow-no-devices)"), none.reason());
        assertEquals(0, r.exitCode());
    }

    @Test
    void aHostWithDevicesHasNoRdmaDevicesLine() {
        DoctorReport r = examine(new Sysfs(Hosts.h100(dir).root()));
        assertTrue(r.results().stream().noneMatch(c -> c.check() == CheckId.RDMA_DEVICES));
        assertTrue(r.unchecked().isEmpty());
    }

    @Test
    void halfPopulatedDeviceGivesReasonsPerCheck() {
        SysfsFixture f = new SysfsFixture(dir);
        f.write("sys/class/infiniband/mlx5_0/ports/1/state", "4: ACTIVE");
        DoctorReport r = examine(new Sysfs(dir));
        CheckResult ps = check(r, CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.NA, ps);
        assertTrue(ps.reason().contains("/sys/class/infiniband/mlx5_0/ports/1/rate: missing"), ps.reason());
        CheckResult gid = check(r, CheckId.ROCE_GID, "mlx5_0", 1);
        assertVerdict(Verdict.NA, gid);
        assertTrue(gid.reason().contains("link layer unknown"), gid.reason());
        assertVerdict(Verdict.NA, check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null));
        // Every check of the only device is N/A: nothing was measured, so the summary says so and it is no pass.
        assertEquals(List.of("mlx5_0"), r.unchecked());
        assertEquals(Verdict.WARN, r.worst());
        assertEquals(1, r.exitCode());
        assertTrue(ReportWriter.human(r).contains("N/A; not checked: mlx5_0 (every check N/A); worst WARN (exit 1)"),
                ReportWriter.human(r));
        assertTrue(ReportWriter.json(r).contains("\"unchecked\": [\n      \"mlx5_0\"\n    ]"), ReportWriter.json(r));
    }

    @Test
    void garbageInFilesMakesThoseChecksNotApplicableAndLeavesTheRest() {
        SysfsFixture f = Hosts.h100(dir);
        f.write("sys/class/infiniband/mlx5_0/ports/1/state", "ACTIVE");
        f.writeBytes("sys/class/infiniband/mlx5_1/ports/1/rate", new byte[] {0, (byte) 0xff, 'x', '\n'});
        String nic2 = "sys/devices/pci0000:48/0000:48:01.0/0000:49:00.0/0000:4a:00.0/0000:4b:00.0";
        f.write(nic2 + "/current_link_speed", "fast");
        f.write(nic2 + "/current_link_width", "x16");
        f.write("sys/devices/pci0000:5a/0000:5a:01.0/0000:5b:00.0/0000:5c:00.0/0000:5d:00.0/numa_node", "zero");
        f.write("sys/bus/pci/devices/0000:19:00.0/vendor", "nvidia");
        f.write("sys/class/infiniband/mlx5_4/ports/1/gids/0", "not-a-gid");
        DoctorReport r = examine(new Sysfs(dir));

        CheckResult ps0 = check(r, CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.NA, ps0);
        assertTrue(ps0.reason().contains("unparseable state 'ACTIVE'"), ps0.reason());

        CheckResult ps1 = check(r, CheckId.PORT_STATE, "mlx5_1", 1);
        assertVerdict(Verdict.NA, ps1);
        assertTrue(ps1.reason().contains("unparseable rate '\\x00"), ps1.reason());
        assertVerdict(Verdict.NA, check(r, CheckId.PCIE_BANDWIDTH, "mlx5_1", null));

        CheckResult bw2 = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_2", null);
        assertVerdict(Verdict.OK, bw2); // the switch ports still describe the link
        assertTrue(bw2.reason().contains("link unknown at 0000:4b:00.0: unparseable link speed 'fast'"), bw2.reason());
        CheckResult dt2 = check(r, CheckId.PCIE_DOWNTRAINED, "mlx5_2", null);
        assertVerdict(Verdict.NA, dt2);

        CheckResult numa3 = check(r, CheckId.NUMA, "mlx5_3", null);
        assertVerdict(Verdict.WARN, numa3);
        assertTrue(numa3.reason().contains("not a number: 'zero'") && numa3.reason().contains("2-node host"),
                numa3.reason());

        assertEquals(7, r.gpus().size(), "the GPU with a garbled vendor is not counted");
        assertVerdict(Verdict.OK, check(r, CheckId.PORT_STATE, "mlx5_4", 1));
        for (int i = 5; i < 8; i++) {
            assertVerdict(Verdict.OK, check(r, CheckId.PCIE_BANDWIDTH, "mlx5_" + i, null));
        }
    }

    @Test
    void permissionDeniedAndEinvalAreReportedAsNotApplicableWithTheReason() {
        Hosts.roceMtu1500(dir);
        Sysfs fs = new Sysfs(dir, file -> {
            String s = file.toString();
            if (s.endsWith("ports/1/rate")) {
                throw new AccessDeniedException(s);
            }
            if (s.contains("gid_attrs/types/")) {
                throw new IOException("Invalid argument");
            }
            return Files.readAllBytes(file);
        });
        DoctorReport r = examine(fs);
        CheckResult ps = check(r, CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.NA, ps);
        assertTrue(ps.reason().endsWith("/sys/devices/pci0000:00/0000:00:02.0/0000:03:00.0/infiniband/mlx5_0/ports/1"
                + "/rate: permission denied"), ps.reason());
        CheckResult gid = check(r, CheckId.ROCE_GID, "mlx5_0", 1);
        assertVerdict(Verdict.NA, gid);
        assertTrue(gid.reason().startsWith("cannot read GID types: ") && gid.reason().endsWith(": Invalid argument"),
                gid.reason());
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.NA, bw);
        assertTrue(bw.reason().contains("rate unreadable"), bw.reason());
        assertVerdict(Verdict.WARN, check(r, CheckId.ROCE_MTU, "mlx5_0", 1)); // the rest still runs
    }

    @Test
    void einvalOnEmptyGidSlotsIsNeverTriggered() {
        SysfsFixture f = Hosts.roceMtu1500(dir);
        for (int i = 4; i < 16; i++) {
            f.write("sys/class/infiniband/mlx5_0/ports/1/gids/" + i, "0000:0000:0000:0000:0000:0000:0000:0000");
        }
        Sysfs fs = new Sysfs(dir, file -> {
            String s = file.toString();
            if (s.matches(".*gid_attrs/(types|ndevs)/([4-9]|1[0-5])$")) {
                throw new IOException("Invalid argument");
            }
            return Files.readAllBytes(file);
        });
        CheckResult gid = check(examine(fs), CheckId.ROCE_GID, "mlx5_0", 1);
        assertVerdict(Verdict.OK, gid);
        assertEquals(3, gid.numbers().get("gidIndex"));
    }

    @Test
    void unreadableFileOnDiskWhenNotRoot() throws IOException {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads mode-000 files; covered by the"
                + " injected permission test");
        SysfsFixture f = Hosts.roceMtu1500(dir);
        Path rate = dir.resolve("sys/devices/pci0000:00/0000:00:02.0/0000:03:00.0/infiniband/mlx5_0/ports/1/rate");
        Files.setPosixFilePermissions(rate, PosixFilePermissions.fromString("---------"));
        CheckResult ps = check(examine(new Sysfs(f.root())), CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.NA, ps);
        assertTrue(ps.reason().endsWith("permission denied"), ps.reason());
    }

    @Test
    void symlinkLoopsGiveNotApplicableForTheAffectedDeviceOnly() throws IOException {
        SysfsFixture f = Hosts.h100(dir);
        Path dev = dir.resolve("sys/class/infiniband/mlx5_0").toRealPath();
        Files.delete(dev.resolve("device"));
        Files.createSymbolicLink(dev.resolve("device"), Path.of("device2"));
        Files.createSymbolicLink(dev.resolve("device2"), Path.of("device"));
        Files.createSymbolicLink(dir.resolve("sys/class/infiniband/mlx5_9"), Path.of("mlx5_9"));
        Files.createSymbolicLink(dir.resolve("sys/class/net/loop0"), Path.of("loop0"));
        Files.createSymbolicLink(dir.resolve("sys/bus/pci/devices/0000:ff:00.0"), Path.of("0000:ff:00.0"));

        DoctorReport r = examine(new Sysfs(dir));
        CheckResult bw = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.NA, bw);
        assertTrue(bw.reason().endsWith("device: symbolic link loop"), bw.reason());
        CheckResult loopDev = check(r, CheckId.PORT_STATE, "mlx5_0", 1);
        assertVerdict(Verdict.OK, loopDev); // the port itself is readable
        assertTrue(r.problems().stream().anyMatch(p -> p.startsWith("mlx5_9: cannot list ports:")
                && p.endsWith("symbolic link loop")), r.problems().toString());
        CheckResult bw9 = check(r, CheckId.PCIE_BANDWIDTH, "mlx5_9", null);
        assertVerdict(Verdict.NA, bw9);
        assertTrue(bw9.reason().contains("symbolic link loop"), bw9.reason());
        for (int i = 1; i < 8; i++) {
            assertVerdict(Verdict.OK, check(r, CheckId.PCIE_BANDWIDTH, "mlx5_" + i, null));
        }
        assertEquals(8, r.gpus().size());
        assertFalse(ReportWriter.json(r).isEmpty());
    }

    @Test
    void linkLeavingTheRootIsRefused() throws IOException {
        Hosts.cx7InGen4Slot(dir);
        Path dev = dir.resolve("sys/class/infiniband/mlx5_0").toRealPath();
        Files.delete(dev.resolve("device"));
        Files.createSymbolicLink(dev.resolve("device"), Path.of("/sys/devices"));
        CheckResult bw = check(examine(new Sysfs(dir)), CheckId.PCIE_BANDWIDTH, "mlx5_0", null);
        assertVerdict(Verdict.NA, bw);
        assertTrue(bw.reason().contains("symbolic link leads outside the sysfs root"), bw.reason());
    }

    @Test
    void hugeOrBinaryFilesDoNotBreakTheReport() {
        SysfsFixture f = Hosts.rxe(dir);
        byte[] big = new byte[Sysfs.MAX_FILE_BYTES * 2];
        java.util.Arrays.fill(big, (byte) 'A');
        f.writeBytes("sys/class/infiniband/rxe0/ports/1/rate", big);
        f.writeBytes("proc/net/fib_trie", "\u0000\u0001|-- 999.1.1.1\n /32 host LOCAL\n".getBytes(StandardCharsets.UTF_8));
        DoctorReport r = examine(new Sysfs(dir));
        CheckResult ps = check(r, CheckId.PORT_STATE, "rxe0", 1);
        assertVerdict(Verdict.NA, ps);
        assertTrue(ps.reason().contains("unparseable rate 'AAAA") && ps.reason().length() < 300, ps.reason());
        // without attributable addresses the GID table still gives the index
        CheckResult gid = check(r, CheckId.ROCE_GID, "rxe0", 1);
        assertVerdict(Verdict.OK, gid);
        assertEquals(1, gid.numbers().get("gidIndex"));
    }
}
