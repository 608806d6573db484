package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.rdmaffm.perftest.doctor.Json;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
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
 * {@code validate} for real on Soft-RoCE (the CI VM's rxe0): both loopback runs of perftest-java's engine go
 * through the device, the port is virtual so the verdict is OK flagged virtual, and the report holds both runs.
 * Skips, with the reason, where the host has no such device. A short warm-up (one round of the default at 64 KiB
 * took a minute on the emulated CPU; none at all left the first run's 2 s window without a completion on a busy
 * host) and {@code -D 6}, whose 1 s margins keep the cold start out of the window: the test is about the path.
 */
@Tag("rdma")
class ValidateRdmaTest {

    @TempDir
    Path dir;

    @Test
    void validateMeasuresSoftRoceBothWaysAndMarksItVirtual() throws Exception {
        String name = Objects.requireNonNullElse(System.getenv("RDMA_DEVICE"), "rxe0");
        Topology t = Topology.read(new Sysfs(Path.of("/")));
        assumeTrue(t.device(name).isPresent(), () -> "no RDMA device " + name + " on this host (found "
                + t.devices().stream().map(d -> d.name()).toList() + "); set RDMA_DEVICE");
        Path html = dir.resolve("validate.html");
        Path runs = dir.resolve("runs");
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        long start = System.nanoTime();
        int code = cl.execute("validate", "-d", name, "-D", "6", "--warmup", "200", "--json", "--report",
                html.toString(), "--runs-dir", runs.toString());
        System.out.printf("validate took %.1f s%n%s", (System.nanoTime() - start) / 1e9, out);
        assertEquals(0, code, out + "\n" + err);

        Map<?, ?> doc = (Map<?, ?>) Json.parse(out.toString());
        List<?> ports = (List<?>) doc.get("ports");
        assertEquals(1, ports.size(), out.toString());
        Map<?, ?> port = (Map<?, ?>) ports.getFirst();
        assertEquals(name, port.get("device"));
        assertEquals(true, port.get("virtual"));
        assertEquals(null, port.get("expectedGbps"));
        assertEquals("OK", port.get("verdict"));
        List<?> tests = (List<?>) port.get("tests");
        assertEquals(2, tests.size());
        for (Object o : tests) {
            Map<?, ?> test = (Map<?, ?>) o;
            assertEquals("OK", test.get("verdict"), test.toString());
            assertTrue(((Double) test.get("measuredGbps")) > 0, test.toString());
        }

        // the run documents the figures came from, and the report of them
        RunDocument uni = RunReader.read(runs.resolve(name + "-1-write_bw.json"));
        RunDocument bi = RunReader.read(runs.resolve(name + "-1-write_bw-b.json"));
        assertEquals(name, uni.deviceName());
        assertTrue(uni.device().virtual());
        assertEquals(Boolean.TRUE, bi.parameters().entries().get("bidirectional"), "the second run is -b");
        assertEquals(Boolean.FALSE, uni.parameters().entries().get("bidirectional"));
        String page = Files.readString(html);
        assertTrue(page.contains(name + "-1-write_bw") && page.contains(name + "-1-write_bw-b"),
                "both runs are in the report");
    }
}
