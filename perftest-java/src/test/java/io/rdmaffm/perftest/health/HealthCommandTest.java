package io.rdmaffm.perftest.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.doctor.Hosts;
import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.doctor.PfcProbe;
import io.rdmaffm.perftest.validate.Loopback;
import io.rdmaffm.perftest.validate.Measured;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code health} on the doctor's fixture hosts with the loopback runs replaced by given figures: thresholds per HCA,
 * PCIe and rate expectations, retries, fail-closed measurement, hysteresis through the state file, NHC's line,
 * {@code --drain} through a stand-in scontrol, and bad input (one line, exit 2, nothing measured).
 */
class HealthCommandTest {
    @TempDir
    Path dir;

    record Run(int code, String out, String err, List<String> asked) {
    }

    private Run run(Loopback loop, String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        HealthCommand cmd = cl.getSubcommands().get("health").getCommand();
        cmd.pfcProbe = PfcProbe.unavailable("not asked in tests");
        List<String> asked = new ArrayList<>();
        cmd.loopbacks = (s, d) -> (port, bidirectional) -> {
            asked.add(port.device() + (bidirectional ? " -b" : ""));
            return loop.run(port, bidirectional);
        };
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString(), asked);
    }

    private Path types(String text) throws Exception {
        return Files.writeString(dir.resolve("types-" + System.nanoTime() + ".conf"), text);
    }

    private static final String H100 = """
            [gpu-h100]
            match = dgx*
            hca.*.min_gbps = 300
            hca.*.rate_gbps = 400
            hca.*.pcie = Gen5 x16
            hca.mlx5_7.min_gbps = 100
            """;

    private String h100() {
        return Hosts.h100(dir.resolve("h100")).root().toString();
    }

    private static Loopback gbps(double v) {
        return (port, b) -> new Measured(v, null);
    }

    @Test
    void aHealthyNodePassesWithEveryHcaMeasuredOnceAgainstItsOwnThreshold() throws Exception {
        // mlx5_7 is held to its own 100 Gb/s, the others to 300
        Loopback loop = (port, b) -> new Measured(port.device().equals("mlx5_7") ? 150 : 350, null);
        Run r = run(loop, "health", "--sysfs-root", h100(), "--node-types", types(H100).toString(), "--node-name",
                "dgx01");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(8, r.asked().size(), r.asked().toString());
        assertFalse(r.asked().toString().contains("-b"), "one direction only");
        assertTrue(r.out().startsWith("health: node dgx01, type gpu-h100, 8 HCAs\n"), r.out());
        assertTrue(r.out().contains("    ok    bandwidth        350.0 Gb/s, min 300.0 Gb/s (1 run)\n"), r.out());
        assertTrue(r.out().contains("    ok    bandwidth        150.0 Gb/s, min 100.0 Gb/s (1 run)\n"), r.out());
        assertTrue(r.out().contains("    ok    pcie             narrowest link Gen5 x16, expected Gen5 x16\n"), r.out());
        assertTrue(r.out().contains("    ok    rate             port 1 at 400.0 Gb/s, expected 400.0 Gb/s\n"), r.out());
        assertTrue(r.out().contains("    ok    port-state       OK port 1: "), r.out());
        assertTrue(r.out().endsWith("verdict PASS (exit 0)\n"), r.out());
    }

    @Test
    void oneSlowHcaFailsTheNodeAfterItsRetriesAndTheNhcLineNamesIt() throws Exception {
        int[] calls = {0};
        Loopback loop = (port, b) -> {
            if (port.device().equals("mlx5_3")) {
                calls[0]++;
                return new Measured(calls[0] == 2 ? 250 : 200, null);
            }
            return new Measured(380, null);
        };
        Run r = run(loop, "health", "--sysfs-root", h100(), "--node-types", types(H100).toString(), "--node-name",
                "dgx01", "--retries", "2", "--format", "nhc");
        assertEquals(1, r.code(), r.out() + r.err());
        assertEquals(3, calls[0], "1 run and 2 retries");
        assertEquals("ERROR: rdma-ffm health: mlx5_3 bandwidth: 250.0 Gb/s below min 300.0 Gb/s (best of 3 runs)\n",
                r.out());
        assertEquals(10, r.asked().size(), r.asked().toString());
    }

    @Test
    void aRetryThatReachesTheThresholdPasses() throws Exception {
        int[] calls = {0};
        Loopback loop = (port, b) -> {
            if (!port.device().equals("mlx5_0")) {
                return new Measured(380, null);
            }
            if (++calls[0] == 1) {
                throw new IllegalStateException("loopback client did not finish within 130 s");
            }
            return new Measured(390, null);
        };
        Run r = run(loop, "health", "--sysfs-root", h100(), "--node-types", types(H100).toString(), "--node-type",
                "gpu-h100", "--node-name", "n1", "--format", "nhc");
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals("OK: rdma-ffm health: n1 [gpu-h100] 8 HCA(s) passed\n", r.out());
        assertEquals(2, calls[0]);
    }

    @Test
    void aRunThatCannotMeasureIsAFailureWithItsReasonNeverAPass() throws Exception {
        Loopback broken = (port, b) -> {
            throw new IllegalStateException("measured nothing: no message completed inside the 5 s window (-D)\nmore");
        };
        Run r = run(broken, "health", "--sysfs-root", h100(), "--node-types", types(H100).toString(), "--node-name",
                "dgx01", "--retries", "0", "--hca", "mlx5_2", "--format", "json");
        assertEquals(1, r.code(), r.out() + r.err());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(r.out());
        assertEquals("FAIL", doc.get("verdict"));
        assertEquals("rdma-ffm.health/1", doc.get("schema"));
        List<?> hcas = (List<?>) doc.get("hcas");
        assertEquals(2, hcas.size(), "the node and mlx5_2");
        Map<?, ?> hca = (Map<?, ?>) hcas.get(1);
        assertEquals("mlx5_2", hca.get("hca"));
        assertEquals(null, hca.get("bandwidthGbps"));
        Map<?, ?> bw = (Map<?, ?>) ((List<?>) hca.get("checks")).getLast();
        assertEquals(Map.of("check", "bandwidth", "passed", false, "reason", "could not measure (1 run): measured "
                + "nothing: no message completed inside the 5 s window (-D)"), bw);
    }

    @Test
    void aDowntrainedLinkAndALowRateFailWithTheirFigures() throws Exception {
        String x8 = Hosts.x8InX16(dir.resolve("x8")).root().toString();
        Run r = run(gbps(150), "health", "--sysfs-root", x8, "--node-types", types("""
                [hdr]
                hca.*.min_gbps = 100
                hca.*.pcie = Gen4 x16
                hca.*.rate_gbps = 400
                """).toString(), "--node-type", "hdr", "--node-name", "n1");
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("    FAIL  pcie             narrowest link Gen4 x8 below expected Gen4 x16\n"),
                r.out());
        assertTrue(r.out().contains("    FAIL  rate             port 1 at 200.0 Gb/s below expected 400.0 Gb/s\n"),
                r.out());
        assertTrue(r.out().contains("    FAIL  pcie-bandwidth   FAIL port mlx5_0/1 needs 200 Gb/s"),
                "the doctor's own FAIL: " + r.out());
        assertTrue(r.out().contains("    ok    pcie-downtrained WARN downtrained: "), "a doctor WARN does not fail: "
                + r.out());
        assertTrue(r.out().contains("    ok    bandwidth        150.0 Gb/s"), r.out());
        assertTrue(r.out().endsWith("verdict FAIL (exit 1)\n"), r.out());
    }

    @Test
    void aVirtualHcaHasNoPcieLinkToMeetAndAnHcaTheTypeNamesMustBeThere() throws Exception {
        String rxe = Hosts.rxe(dir.resolve("rxe")).root().toString();
        Run ok = run(gbps(2.5), "health", "--sysfs-root", rxe, "--node-types", types("[vm]\nhca.rxe0.min_gbps = 1\n")
                .toString(), "--node-type", "vm", "--node-name", "vm1");
        assertEquals(0, ok.code(), ok.out() + ok.err());
        Run pcie = run(gbps(2.5), "health", "--sysfs-root", rxe, "--node-types", types("""
                [vm]
                hca.*.min_gbps = 1
                hca.rxe0.pcie = Gen3 x4
                hca.mlx5_0.min_gbps = 1
                """).toString(), "--node-type", "vm", "--node-name", "vm1", "--format", "nhc");
        assertEquals(1, pcie.code(), pcie.out() + pcie.err());
        assertEquals("ERROR: rdma-ffm health: rxe0 pcie: virtual device (Soft-RoCE over netdev veth0): no PCIe link, expected "
                + "Gen3 x4 (+1 more)\n", pcie.out());
        Run human = run(gbps(2.5), "health", "--sysfs-root", rxe, "--node-types", types(
                "[vm]\nhca.*.min_gbps = 1\nhca.mlx5_0.min_gbps = 1\n").toString(), "--node-type", "vm", "--node-name", "vm1");
        assertTrue(human.out().contains("  mlx5_0  FAIL\n    FAIL  present          not on this node (node type [vm] "
                + "names it)\n"), human.out());
        assertEquals(1, human.code());
        assertEquals("0.001 Gb/s", HealthJudge.gbps(0.001), "a small threshold is not printed as 0.0");
    }

    @Test
    void hysteresisHoldsTheVerdictUntilKRunsInARowDisagree() throws Exception {
        Path types = types(H100);
        Path state = dir.resolve("health.state");
        String[] args = {"health", "--sysfs-root", h100(), "--node-types", types.toString(), "--node-name", "dgx01",
                "--retries", "0", "--hysteresis", "2", "--state", state.toString(), "--format", "nhc"};
        // no state yet: the first run's result is the state, so a failing first run fails
        Run first = run(gbps(200), args);
        assertEquals(1, first.code(), first.out());
        assertEquals("FAIL", Hysteresis.read(state).passing() ? "PASS" : "FAIL");
        Run pass1 = run(gbps(350), args);
        assertEquals(1, pass1.code(), "one pass does not yet recover a FAILed node: " + pass1.out());
        assertTrue(pass1.out().startsWith("ERROR: rdma-ffm health: failing (hysteresis: this run passed) (this run "
                + "passed: 1 of 2 in a row before the node PASSes)"), pass1.out());
        Run pass2 = run(gbps(350), args);
        assertEquals(0, pass2.code(), pass2.out());
        Run fail1 = run(gbps(200), args);
        assertEquals(0, fail1.code(), "one failure does not yet FAIL a PASSing node: " + fail1.out());
        assertTrue(fail1.out().contains("(this run failed: 1 of 2 in a row before the node FAILs)"), fail1.out());
        assertEquals(1, run(gbps(200), args).code());
    }

    @Test
    void drainRunsScontrolWithTheReasonOnlyWhenTheNodeFails() throws Exception {
        Path log = dir.resolve("scontrol.log");
        Path scontrol = dir.resolve("scontrol");
        Files.writeString(scontrol, "#!/bin/sh\nfor a in \"$@\"; do printf '%s|' \"$a\"; done >> " + log
                + "\necho >> " + log + "\n");
        Files.setPosixFilePermissions(scontrol, PosixFilePermissions.fromString("rwx------"));
        String[] common = {"health", "--sysfs-root", h100(), "--node-types", types(H100).toString(), "--node-name",
                "dgx01", "--retries", "0", "--drain", "--scontrol", scontrol.toString(), "--hca", "mlx5_1"};
        Run healthy = run(gbps(350), common);
        assertEquals(0, healthy.code(), healthy.out() + healthy.err());
        assertFalse(Files.exists(log), "a healthy node is not touched");
        Run sick = run(gbps(12.5), common);
        assertEquals(1, sick.code(), sick.out() + sick.err());
        assertEquals("update|NodeName=dgx01|State=DRAIN|Reason=rdma-ffm health: mlx5_1 bandwidth: 12.5 Gb/s below "
                + "min 300.0 Gb/s (best of 1 run)|\n", Files.readString(log));
        assertEquals("health: drained dgx01 in Slurm\n", sick.err());
        Run noScontrol = run(gbps(12.5), common[0], common[1], common[2], common[3], common[4], common[5], common[6],
                "--drain", "--scontrol", dir.resolve("absent").toString(), "--hca", "mlx5_1");
        assertEquals(1, noScontrol.code(), "still FAIL when the drain could not be made");
        assertTrue(noScontrol.err().startsWith("health: could not drain dgx01: cannot run "), noScontrol.err());
    }

    @Test
    void badInputIsOneLineAndExit2BeforeAnythingIsMeasured() throws Exception {
        String h100 = h100();
        Path good = types(H100);
        Path unwritable = dir.resolve("no-such-dir").resolve("health.prom");
        assertBad("node type 'cpu' is not in " + good + " (has: gpu-h100)", "--sysfs-root", h100, "--node-types",
                good.toString(), "--node-type", "cpu");
        assertBad("no node type in " + good + " matches host 'cpu7' (no 'match' glob does); give --node-type",
                "--sysfs-root", h100, "--node-types", good.toString(), "--node-name", "cpu7");
        Path unknown = types("[gpu-h100]\nhca.*.min_gbps = 300\nhca.*.max_gbps = 400\n");
        assertBad(unknown + ":3: unknown key 'hca.*.max_gbps' in [gpu-h100] (known: match, hca.NAME.min_gbps, "
                + "hca.NAME.rate_gbps, hca.NAME.pcie (NAME an HCA or *))", "--sysfs-root", h100, "--node-types",
                unknown.toString(), "--node-type", "gpu-h100");
        assertBad("--hca mlx5_9: no such RDMA device on this node (have: mlx5_0, mlx5_1, mlx5_2, mlx5_3, mlx5_4, "
                + "mlx5_5, mlx5_6, mlx5_7)", "--sysfs-root", h100, "--node-types", good.toString(), "--node-name",
                "dgx1", "--hca", "mlx5_9");
        assertBad("--prom-file " + unwritable + ": no such directory " + unwritable.getParent(), "--sysfs-root",
                h100, "--node-types", good.toString(), "--node-name", "dgx1", "--prom-file", unwritable.toString());
        assertBad("node type [t] sets no min_gbps for mlx5_0 (hca.mlx5_0.min_gbps or hca.*.min_gbps): nothing to "
                + "pass it by", "--sysfs-root", h100, "--node-types", types("[t]\nhca.*.pcie = Gen5 x16\n").toString(),
                "--node-type", "t");
        assertBad("--hysteresis 3 needs --state FILE to count runs in", "--sysfs-root", h100, "--node-types",
                good.toString(), "--hysteresis", "3");
        assertBad("cannot read node types " + dir.resolve("absent.conf") + ": " + dir.resolve("absent.conf"),
                "--sysfs-root", h100, "--node-types", dir.resolve("absent.conf").toString());
    }

    private void assertBad(String line, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "health";
        System.arraycopy(args, 0, all, 1, args.length);
        Run r = run((port, b) -> {
            throw new AssertionError("measured despite bad input");
        }, all);
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("", r.out());
        assertEquals(line, r.err().strip().replaceFirst("^health: (error: )?", "").replace(" (see health --help)", ""), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.asked().isEmpty());
    }
}
