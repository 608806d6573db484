package io.rdmaffm.perftest.health;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code health} for real on Soft-RoCE (the CI VM's rxe0): the loopback bandwidth is measured through the device,
 * a threshold below what rxe carries passes and one far above it fails with the figure in the reason. Skips, with
 * the reason, where the host has no such device. {@code -D 3 --warmup 0}: the thresholds are three and four orders
 * of magnitude from what rxe carries, so a cold loop measures enough (with -D 6 --warmup 200 the two runs took
 * 99-103 s in the VM).
 */
@Tag("rdma")
class HealthRdmaTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err, double seconds) {
    }

    private Run health(String types, String... more) throws Exception {
        Path file = Files.writeString(dir.resolve("types-" + System.nanoTime() + ".conf"), types);
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        String[] base = {"health", "--node-types", file.toString(), "--node-type", "vm", "--node-name", "vm1", "--hca", device(), "-D", "3",
                "--warmup", "0", "--retries", "0"};
        String[] args = new String[base.length + more.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        long start = System.nanoTime();
        int code = cl.execute(args);
        double s = (System.nanoTime() - start) / 1e9;
        System.out.printf("health %s took %.1f s, exit %d%n%s%s", List.of(more), s, code, out, err);
        return new Run(code, out.toString(), err.toString(), s);
    }

    private static String device() {
        return Objects.requireNonNullElse(System.getenv("RDMA_DEVICE"), "rxe0");
    }

    @Test
    void aThresholdBelowWhatRxeCarriesPassesAndOneAboveFailsWithTheFigure() throws Exception {
        String name = device();
        Topology t = Topology.read(new Sysfs(Path.of("/")));
        assumeTrue(t.device(name).isPresent(), () -> "no RDMA device " + name + " on this host (found "
                + t.devices().stream().map(d -> d.name()).toList() + "); set RDMA_DEVICE");

        Path prom = dir.resolve("health.prom");
        Run pass = health("[vm]\nhca.*.min_gbps = 0.001\n", "--format", "json", "--prom-file", prom.toString());
        assertEquals(0, pass.code(), pass.out() + pass.err());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(pass.out());
        assertEquals("PASS", doc.get("verdict"));
        Map<?, ?> hca = (Map<?, ?>) ((List<?>) doc.get("hcas")).getLast();
        assertEquals(name, hca.get("hca"));
        double gbps = ((Number) hca.get("bandwidthGbps")).doubleValue();
        assertTrue(gbps > 0.001, hca.toString());
        assertTrue(Files.readString(prom).contains("rdmaffm_health_check{node_type=\"vm\",hca=\"" + name
                + "\",check=\"bandwidth\"} 1\n"), Files.readString(prom));

        // rxe on an emulated CPU carries a few Gb/s at most: 10 Tb/s is out of reach
        Run fail = health("[vm]\nhca.*.min_gbps = 10000\n", "--format", "nhc");
        assertEquals(1, fail.code(), fail.out() + fail.err());
        assertTrue(fail.out().matches("ERROR: rdma-ffm health: " + name + " bandwidth: \\d+\\.\\d+ Gb/s below min "
                + "10000\\.0 Gb/s \\(best of 1 run\\)\n"), fail.out());
    }
}
