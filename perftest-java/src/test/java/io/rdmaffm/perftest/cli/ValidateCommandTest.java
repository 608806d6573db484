package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.doctor.Hosts;
import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.doctor.SysfsFixture;
import io.rdmaffm.perftest.report.model.RunReader;
import io.rdmaffm.perftest.validate.Loopback;
import io.rdmaffm.perftest.validate.Measured;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code validate}'s verdicts on the doctor's fixture hosts, with the loopback runs replaced by given figures:
 * expectation = min(port rate, PCIe model), thresholds, virtual ports, failed runs, JSON, bad input.
 */
class ValidateCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err, List<String> asked) {
    }

    /** Runs validate with a loopback that answers {@code uni} Gb/s one way and {@code bi} both ways. */
    private Run run(Loopback loop, String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        ValidateCommand cmd = cl.getSubcommands().get("validate").getCommand();
        List<String> asked = new ArrayList<>();
        cmd.loopbacks = s -> d -> (port, bidirectional) -> {
            asked.add(port.device() + "/" + port.port() + (bidirectional ? " -b" : "") + " q" + s.qpsFor(port));
            return loop.run(port, bidirectional);
        };
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString(), asked);
    }

    private static Loopback figures(double uni, double bi) {
        return (port, bidirectional) -> new Measured(bidirectional ? bi : uni, null);
    }

    private static String root(SysfsFixture f) {
        return f.root().toString();
    }

    @Test
    void pcieBelowThePortRateSetsTheExpectationAndTheThresholdsJudge() {
        String cx7 = root(Hosts.cx7InGen4Slot(dir.resolve("cx7")));
        // 400G NDR port on Gen4 x16: the doctor models 225.6 Gb/s of payload, so that is expected.
        Run r = run(figures(215, 170), "validate", "--sysfs-root", cx7);
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("mlx5_0 port 1  InfiniBand  rate 400.0 Gb/s, PCIe 16.0 GT/s x16 modelled "
                + "225.6 Gb/s -> expected 225.6 Gb/s (PCIe)"), r.out());
        assertTrue(r.out().contains("  OK    write_bw     215.0 Gb/s, 4 QPs, 95.3% of 225.6"), r.out());
        assertTrue(r.out().contains("  WARN  write_bw -b  170.0 Gb/s, 4 QPs, 75.4% of 225.6"), r.out());
        assertTrue(r.out().contains("  verdict WARN\n"), r.out());
        assertTrue(r.out().endsWith("summary: 0 OK, 1 WARN, 0 FAIL, 0 N/A; worst WARN (exit 1)\n"), r.out());
        assertEquals(List.of("mlx5_0/1 q4", "mlx5_0/1 -b q4"), r.asked());

        // the same figures under other thresholds
        Run lenient = run(figures(215, 170), "validate", "--sysfs-root", cx7, "--ok-at", "75", "--warn-at", "50");
        assertEquals(0, lenient.code(), lenient.out());
        Run strict = run(figures(215, 170), "validate", "--sysfs-root", cx7, "--ok-at", "99", "--warn-at", "80");
        assertEquals(2, strict.code(), strict.out());
        assertTrue(strict.out().contains("  FAIL  write_bw -b  170.0 Gb/s"), strict.out());
        assertTrue(strict.out().contains("  WARN  write_bw     215.0 Gb/s"), strict.out());
    }

    @Test
    void portRateBelowPcieSetsTheExpectationPerPort() {
        String dual = root(Hosts.dualPort100gGen3(dir.resolve("dual")));
        // 100GbE ports on Gen3 x16 (112.8 Gb/s modelled): the port rate is the ceiling.
        Loopback loop = (port, bidirectional) -> new Measured(port.device().equals("mlx5_0") ? 96 : 60, null);
        Run r = run(loop, "validate", "--sysfs-root", dual);
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().contains("-> expected 100.0 Gb/s (port rate)"), r.out());
        assertTrue(r.out().contains("  OK    write_bw     96.0 Gb/s, 2 QPs, 96.0% of 100.0"), r.out());
        assertTrue(r.out().contains("  FAIL  write_bw     60.0 Gb/s, 2 QPs, 60.0% of 100.0"), r.out());
        assertTrue(r.out().contains("summary: 1 OK, 0 WARN, 1 FAIL, 0 N/A; worst FAIL (exit 2)"), r.out());

        Run one = run(loop, "validate", "--sysfs-root", dual, "--device", "mlx5_1", "-q", "3");
        assertEquals(List.of("mlx5_1/1 q3", "mlx5_1/1 -b q3"), one.asked());
        assertEquals(2, one.code(), one.out());
        assertFalse(one.out().contains("mlx5_0"), one.out());
    }

    @Test
    void jsonCarriesTheFiguresAndTheVerdicts() {
        String cx7 = root(Hosts.cx7InGen4Slot(dir.resolve("cx7")));
        Run r = run(figures(215, 100), "validate", "--sysfs-root", cx7, "--json");
        assertEquals(2, r.code(), r.out());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(r.out());
        assertEquals("rdma-ffm.validate/1", doc.get("schema"));
        Map<?, ?> settings = (Map<?, ?>) doc.get("settings");
        assertEquals(65536.0, settings.get("sizeBytes"));
        assertEquals(90.0, settings.get("okPercent"));
        assertEquals(70.0, settings.get("warnPercent"));
        Map<?, ?> port = (Map<?, ?>) ((List<?>) doc.get("ports")).getFirst();
        assertEquals("mlx5_0", port.get("device"));
        assertEquals(false, port.get("virtual"));
        assertEquals(400.0, port.get("portRateGbps"));
        assertEquals(225.6, port.get("pcieModelGbps"));
        assertEquals(225.6, port.get("expectedGbps"));
        assertEquals("PCIe", port.get("limitedBy"));
        assertEquals("FAIL", port.get("verdict"));
        List<?> tests = (List<?>) port.get("tests");
        Map<?, ?> bi = (Map<?, ?>) tests.get(1);
        assertEquals("write_bw -b", bi.get("name"));
        assertEquals(100.0, bi.get("measuredGbps"));
        assertEquals(44.33, bi.get("percentOfExpected"));
        assertEquals("FAIL", bi.get("verdict"));
        Map<?, ?> summary = (Map<?, ?>) doc.get("summary");
        assertEquals("FAIL", summary.get("worst"));
        assertEquals(2.0, summary.get("exitCode"));

        Map<?, ?> mib = (Map<?, ?>) ((Map<?, ?>) Json.parse(run(figures(215, 215), "validate", "--sysfs-root", cx7,
                "--json", "-s", "1M").out())).get("settings");
        assertEquals(1048576.0, mib.get("sizeBytes"), "perftest's size suffixes");
    }

    @Test
    void softRoceIsMeasuredAndOkFlaggedVirtualWithNothingExpected() {
        String rxe = root(Hosts.rxe(dir.resolve("rxe")));
        Run r = run(figures(0.5, 0.4), "validate", "--sysfs-root", rxe);
        assertEquals(0, r.code(), r.out() + r.err());
        assertEquals(List.of("rxe0/1 q2", "rxe0/1 -b q2"), r.asked(), "the path is tested even so");
        assertTrue(r.out().contains("virtual (Soft-RoCE over netdev veth0): no PCIe, nothing expected"), r.out());
        assertTrue(r.out().contains("  OK    write_bw     0.5 Gb/s, 2 QPs\n"), r.out());
        assertTrue(r.out().contains("  verdict OK (virtual)"), r.out());
        Map<?, ?> port = (Map<?, ?>) ((List<?>) ((Map<?, ?>) Json.parse(
                run(figures(0.5, 0.4), "validate", "--sysfs-root", rxe, "--json").out())).get("ports")).getFirst();
        assertEquals(true, port.get("virtual"));
        assertNull(port.get("expectedGbps"));
        assertEquals("OK", port.get("verdict"));
    }

    @Test
    void aFailedRunIsAFailWithItsLineAndAnInactivePortIsNotMeasured() {
        SysfsFixture f = Hosts.cx7InGen4Slot(dir.resolve("cx7"));
        Run r = run((port, bidirectional) -> {
            throw new IllegalStateException("connection refused by 127.0.0.1:1\nsecond line");
        }, "validate", "--sysfs-root", root(f));
        assertEquals(2, r.code(), r.out());
        assertTrue(r.out().contains("  FAIL  write_bw     4 QPs, failed: connection refused by 127.0.0.1:1\n"), r.out());

        SysfsFixture down = new SysfsFixture(dir.resolve("down"));
        down.rxe("rxe1", "veth9").port(1, "1: DOWN", "3: Disabled", "10 Gb/sec (1X FDR10)", "Ethernet");
        Run d = run(figures(1, 1), "validate", "--sysfs-root", down.root().toString());
        assertEquals(0, d.code(), d.out() + d.err());
        assertTrue(d.asked().isEmpty(), d.asked().toString());
        assertTrue(d.out().contains("port DOWN: not measured"), d.out());
        assertTrue(d.out().contains("0 OK, 0 WARN, 0 FAIL, 1 N/A"), d.out());
    }

    @Test
    void reportHasTheRunsOfEveryTest() throws Exception {
        String rxe = root(Hosts.rxe(dir.resolve("rxe")));
        Path fixture = Path.of("src/test/resources/report-fixtures/bw_sweep_roce.json");
        Path html = dir.resolve("v.html");
        Run r = run((port, bidirectional) -> new Measured(1, RunReader.read(fixture)), "validate",
                "--sysfs-root", rxe, "--report", html.toString());
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("report: wrote " + html), r.out());
        String page = Files.readString(html);
        assertTrue(page.startsWith("<!DOCTYPE html>") || page.startsWith("<!doctype html>"), page.substring(0, 40));
        assertTrue(page.contains("bw_sweep_roce"), "the runs are in the report");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        String rxe = root(Hosts.rxe(dir.resolve("rxe")));
        Loopback never = (port, b) -> {
            throw new AssertionError("nothing may run on bad input");
        };
        for (String[] args : List.of(
                new String[] {"validate", "--sysfs-root", rxe, "--device", "mlx9_9"},
                new String[] {"validate", "--sysfs-root", rxe, "-i", "2"},
                new String[] {"validate", "--sysfs-root", rxe, "--ok-at", "60", "--warn-at", "70"},
                new String[] {"validate", "--sysfs-root", rxe, "-D", "0"},
                new String[] {"validate", "--sysfs-root", rxe, "--size", "lots"},
                new String[] {"validate", "--sysfs-root", dir.resolve("empty").toString()},
                new String[] {"validate", "--sysfs-root", rxe, "--report", dir.resolve("no/such/r.html").toString()})) {
            Run r = run(never, args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.out() + r.err());
            assertEquals(1, r.err().lines().count(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("validate: "), r.err());
        }
        Run none = run(never, "validate", "--sysfs-root", rxe, "--device", "mlx9_9");
        assertTrue(none.err().contains("no RDMA device mlx9_9 (have: rxe0)"), none.err());
    }
}
