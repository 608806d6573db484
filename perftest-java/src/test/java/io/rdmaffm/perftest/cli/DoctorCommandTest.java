package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.doctor.Hosts;
import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.doctor.SysfsFixture;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code rdma-perftest doctor} end to end: exit codes, JSON, --device, --counters, bad input. */
class DoctorCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err) {
    }

    private Run run(Consumer<DoctorCommand> setup, String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        DoctorCommand cmd = cl.getSubcommands().get("doctor").getCommand();
        setup.accept(cmd);
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private Run run(String... args) {
        return run(c -> { }, args);
    }

    @Test
    void exitCodesFollowTheWorstVerdict() {
        Path h100 = Hosts.h100(dir.resolve("h100")).root();
        Path a100 = Hosts.a100(dir.resolve("a100")).root();
        Path cx7 = Hosts.cx7InGen4Slot(dir.resolve("cx7")).root();
        Run ok = run("doctor", "--sysfs-root", h100.toString());
        assertEquals(0, ok.code(), ok.out());
        assertTrue(ok.out().contains("summary: ") && ok.out().contains("worst OK (exit 0)"), ok.out());
        assertEquals("", ok.err());
        Run warn = run("doctor", "--sysfs-root", a100.toString());
        assertEquals(1, warn.code(), warn.out());
        assertTrue(warn.out().contains("WARN  pcie-bandwidth    margin only"), warn.out());
        Run fail = run("doctor", "--sysfs-root", cx7.toString());
        assertEquals(2, fail.code(), fail.out());
        assertTrue(fail.out().contains("FAIL  pcie-bandwidth"), fail.out());
    }

    @Test
    void aHostWithoutDevicesFailsUnlessThatIsExpected() throws java.io.IOException {
        Path empty = java.nio.file.Files.createDirectories(dir.resolve("empty/sys/class/infiniband"))
                .getParent().getParent().getParent();
        Run none = run("doctor", "--sysfs-root", empty.toString());
        assertEquals(2, none.code(), none.out());
        assertTrue(none.out().contains("FAIL  rdma-devices      no RDMA devices under /sys/class/infiniband"),
                none.out());
        assertTrue(none.out().contains("worst FAIL (exit 2)"), none.out());
        Run json = run("doctor", "--json", "--sysfs-root", empty.toString());
        assertEquals(2, json.code());
        Map<?, ?> summary = (Map<?, ?>) ((Map<?, ?>) Json.parse(json.out())).get("summary");
        assertEquals(2.0, summary.get("exitCode"));
        assertEquals("FAIL", summary.get("worst"));
        Run allowed = run("doctor", "--allow-no-devices", "--sysfs-root", empty.toString());
        assertEquals(0, allowed.code(), allowed.out());
        assertTrue(allowed.out().contains("N/A   rdma-devices"), allowed.out());
    }

    @Test
    void jsonFollowsTheDocumentedSchema() {
        Path root = Hosts.dualPort100gGen3(dir).root();
        Run r = run("doctor", "--json", "--sysfs-root", root.toString());
        assertEquals(2, r.code());
        Map<?, ?> doc = assertInstanceOf(Map.class, Json.parse(r.out()));
        assertEquals(List.of("schema", "tool_version", "tool_commit", "tool_dirty", "sysfsRoot", "devices", "gpus",
                "checks", "counters", "problems", "summary"), List.copyOf(doc.keySet()));
        assertEquals("rdma-ffm.doctor/1", doc.get("schema"));
        List<?> devices = (List<?>) doc.get("devices");
        assertEquals(2, devices.size());
        Map<?, ?> d0 = (Map<?, ?>) devices.getFirst();
        assertEquals("mlx5_0", d0.get("name"));
        assertEquals(false, d0.get("virtual"));
        assertEquals("0000:3b:00.0", d0.get("pci"));
        Map<?, ?> port = (Map<?, ?>) ((List<?>) d0.get("ports")).getFirst();
        assertEquals(1.0, port.get("port"));
        assertEquals("Ethernet", port.get("linkLayer"));
        assertEquals(100.0, port.get("rateGbps"));
        assertEquals("ens1f0", port.get("netdev"));
        assertEquals(9000.0, port.get("netdevMtu"));
        Set<String> ids = Set.of("pcie-bandwidth", "pcie-downtrained", "numa", "gpu-nic-affinity", "roce-gid",
                "roce-mtu", "roce-lossless", "port-state", "fabric-advice");
        List<?> checks = (List<?>) doc.get("checks");
        assertEquals(2 * 8 + 1, checks.size());
        for (Object o : checks) {
            Map<?, ?> c = (Map<?, ?>) o;
            assertEquals(List.of("id", "device", "port", "verdict", "advisory", "reason", "numbers"),
                    List.copyOf(c.keySet()));
            assertTrue(ids.contains((String) c.get("id")), c.toString());
            assertTrue(Set.of("OK", "WARN", "FAIL", "N/A").contains((String) c.get("verdict")), c.toString());
            assertFalse(((String) c.get("reason")).contains("\n"));
            assertInstanceOf(Map.class, c.get("numbers"));
        }
        Map<?, ?> bw = checks.stream().map(o -> (Map<?, ?>) o)
                .filter(c -> c.get("id").equals("pcie-bandwidth") && c.get("device").equals("mlx5_1"))
                .findFirst().orElseThrow();
        assertEquals("FAIL", bw.get("verdict"));
        assertEquals(200.0, ((Map<?, ?>) bw.get("numbers")).get("demandGbps"));
        Map<?, ?> summary = (Map<?, ?>) doc.get("summary");
        assertEquals("FAIL", summary.get("worst"));
        assertEquals(2.0, summary.get("exitCode"));
        double total = 0;
        for (String k : List.of("OK", "WARN", "FAIL", "N/A")) {
            total += (Double) summary.get(k);
        }
        assertEquals(checks.size(), (int) total);
        assertEquals(null, doc.get("counters"));
    }

    @Test
    void deviceFilterReportsOnlyThatDevice() {
        Path root = Hosts.h100(dir).root();
        Run r = run("doctor", "--json", "--device", "mlx5_3", "--sysfs-root", root.toString());
        assertEquals(0, r.code(), r.err());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(r.out());
        assertEquals(1, ((List<?>) doc.get("devices")).size());
        for (Object o : (List<?>) doc.get("checks")) {
            Object dev = ((Map<?, ?>) o).get("device");
            assertTrue(dev == null || dev.equals("mlx5_3"), o.toString());
        }
        Run human = run("doctor", "--device", "mlx5_3", "--sysfs-root", root.toString());
        assertTrue(human.out().contains("\nmlx5_3  ") && !human.out().contains("\nmlx5_2  "), human.out());
    }

    @Test
    void unknownDeviceIsOneLineAndExitTwo() {
        Path root = Hosts.h100(dir).root();
        Run r = run("doctor", "--device", "mlx5_42", "--sysfs-root", root.toString());
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("doctor: error: no RDMA device 'mlx5_42'"), r.err());
        assertTrue(r.err().contains("found: mlx5_0, mlx5_1"), r.err());
        assertEquals("", r.out());
    }

    @Test
    void badSysfsRootIsOneLineWithoutStackTrace() {
        Run r = run("doctor", "--sysfs-root", dir.resolve("does-not-exist").toString());
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().startsWith("doctor: error: --sysfs-root ") && r.err().contains("is not a directory"),
                r.err());
        assertFalse(r.err().contains("\tat "));
        Run debug = run("doctor", "--debug", "--sysfs-root", dir.resolve("does-not-exist").toString());
        assertEquals(2, debug.code());
        assertTrue(debug.err().contains("java.lang.IllegalArgumentException") && debug.err().contains("\tat "),
                debug.err());
    }

    @Test
    void countersPrintTroubleDeltas() {
        SysfsFixture f = Hosts.rxe(dir);
        String port = "sys/devices/virtual/infiniband/rxe0/ports/1/hw_counters/";
        Run r = run(cmd -> cmd.sleeper = d -> {
            assertEquals(2, d.toSeconds());
            f.write(port + "rcvd_seq_err", "5");
            f.write(port + "sent_pkts", "900");
            f.write(port + "duplicate_request", "0");
        }, "doctor", "--counters", "2", "--json", "--sysfs-root", f.root().toString());
        assertEquals(1, r.code(), r.err());
        Map<?, ?> c = (Map<?, ?>) ((Map<?, ?>) Json.parse(r.out())).get("counters");
        assertEquals(2.0, c.get("seconds"));
        assertEquals(3.0, c.get("sampled"));
        List<?> deltas = (List<?>) c.get("deltas");
        assertEquals(1, deltas.size(), "sent_pkts moving is not trouble: " + deltas);
        assertEquals(Map.of("device", "rxe0", "counter", "1/hw_counters/rcvd_seq_err", "delta", 5.0),
                deltas.getFirst());
        Run human = run(cmd -> cmd.sleeper = d -> f.write(port + "rcvd_seq_err", "9"),
                "doctor", "--counters", "1", "--sysfs-root", f.root().toString());
        assertTrue(human.out().contains("rxe0 1/hw_counters/rcvd_seq_err +4"), human.out());
    }

    @Test
    void countersOutOfRangeIsAUsageError() {
        Run r = run("doctor", "--counters", "0", "--sysfs-root", dir.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--counters must be between 1 and 3600"), r.err());
    }
}
