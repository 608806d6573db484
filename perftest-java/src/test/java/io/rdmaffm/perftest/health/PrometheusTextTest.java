package io.rdmaffm.perftest.health;

import io.rdmaffm.perftest.report.PrometheusParser;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cli.Main;
import io.rdmaffm.perftest.doctor.Hosts;
import io.rdmaffm.perftest.doctor.PfcProbe;
import io.rdmaffm.perftest.validate.Measured;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code health --format prometheus} and {@code --prom-file}: the same text, every family with HELP and TYPE before
 * its samples, one gauge per HCA and check, and the text read back by Prometheus' Python client's own parser.
 */
class PrometheusTextTest {
    /** A sample line of the text format: name, optional labels, value. */
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\\\n]|\\\\[\\\\\"n])*\",?)*})? "
                    + "(-?[0-9.]+(?:[eE][-+]?[0-9]+)?|NaN|[+-]Inf)");

    @TempDir
    Path dir;

    private String text;

    private String run(int exitExpected) throws Exception {
        String root = Hosts.h100(dir.resolve("h100")).root().toString();
        Path types = Files.writeString(dir.resolve("t.conf"), "[gpu]\nhca.*.min_gbps = 300\nhca.*.pcie = Gen5 x16\n");
        Path prom = dir.resolve("rdma_health.prom");
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(new StringWriter()));
        HealthCommand cmd = cl.getSubcommands().get("health").getCommand();
        cmd.pfcProbe = PfcProbe.unavailable("not asked in tests");
        cmd.loopbacks = (s, d) -> (port, b) -> {
            if (port.device().equals("mlx5_5")) {
                throw new IllegalStateException("loopback server ended before the client connected");
            }
            return new Measured(port.device().equals("mlx5_2") ? 123.4567 : 380, null);
        };
        assertEquals(exitExpected, cl.execute("health", "--sysfs-root", root, "--node-types", types.toString(),
                "--node-type", "gpu", "--node-name", "dgx1", "--retries", "0", "--format", "prometheus",
                "--prom-file", prom.toString()));
        assertEquals(out.toString(), Files.readString(prom), "the file holds what was printed");
        try (var s = Files.list(dir)) {
            assertEquals(List.of("h100", "rdma_health.prom", "t.conf"),
                    s.map(p -> p.getFileName().toString()).sorted().toList(), "no temporary file left");
        }
        return out.toString();
    }

    @Test
    void everySampleBelongsToADeclaredGaugeAndEachHcaHasAGaugePerCheck() throws Exception {
        text = run(1);
        Set<String> helped = new HashSet<>();
        Set<String> typed = new HashSet<>();
        List<String> samples = new ArrayList<>();
        for (String line : text.lines().toList()) {
            if (line.startsWith("# HELP ")) {
                assertTrue(helped.add(line.split(" ")[2]), "one HELP per family: " + line);
            } else if (line.startsWith("# TYPE ")) {
                String[] f = line.split(" ");
                assertEquals("gauge", f[3], line);
                assertTrue(typed.add(f[2]), "one TYPE per family: " + line);
            } else {
                Matcher m = SAMPLE.matcher(line);
                assertTrue(m.matches(), "not a sample line: '" + line + "'");
                assertTrue(typed.contains(m.group(1)) && helped.contains(m.group(1)),
                        "sample before its HELP/TYPE: " + line);
                samples.add(line);
            }
        }
        assertTrue(samples.contains("rdmaffm_health_check{node_type=\"gpu\",hca=\"mlx5_2\",check=\"bandwidth\"} 0"),
                text);
        assertTrue(samples.contains("rdmaffm_health_check{node_type=\"gpu\",hca=\"mlx5_0\",check=\"bandwidth\"} 1"),
                text);
        assertTrue(samples.contains("rdmaffm_health_check{node_type=\"gpu\",hca=\"mlx5_0\",check=\"pcie\"} 1"), text);
        assertTrue(samples.contains("rdmaffm_health_check{node_type=\"gpu\",hca=\"mlx5_0\",check=\"port-state\"} 1"),
                text);
        assertTrue(samples.contains("rdmaffm_health_bandwidth_gbps{node_type=\"gpu\",hca=\"mlx5_2\"} 123.457"), text);
        assertTrue(samples.contains("rdmaffm_health_min_bandwidth_gbps{node_type=\"gpu\",hca=\"mlx5_2\"} 300.000"), text);
        assertTrue(samples.stream().noneMatch(s -> s.startsWith("rdmaffm_health_bandwidth_gbps{node_type=\"gpu\","
                + "hca=\"mlx5_5\"}")), "nothing measured, no figure (not 0): " + text);
        assertTrue(samples.contains("rdmaffm_health_check{node_type=\"gpu\",hca=\"mlx5_5\",check=\"bandwidth\"} 0"), text);
        assertTrue(samples.contains("rdmaffm_health_node_healthy{node_type=\"gpu\"} 0"), text);
        assertEquals(8, samples.stream().filter(s -> s.startsWith("rdmaffm_health_check{") && s.contains("check=\"pcie\""))
                .count(), text);
        assertTrue(text.endsWith("\n"));
        assertEquals("a\\\\b\\\"c\\nd", io.rdmaffm.perftest.report.Exposition.escape("a\\b\"c\nd"));
    }

    /** The Python client's parser (Debian's python3-prometheus-client) must read every family and sample back. */
    @Test
    void prometheusOwnParserReadsItBack() throws Exception {
        text = run(1);
        String parsed = PrometheusParser.parse(text);
        long samples = text.lines().filter(l -> !l.startsWith("#")).count();
        assertEquals(samples, parsed.lines().count(), parsed);
        assertTrue(parsed.contains("gauge rdmaffm_health_check check=bandwidth,hca=mlx5_2,node_type=gpu 0.0\n"), parsed);
        assertTrue(parsed.contains("gauge rdmaffm_health_bandwidth_gbps hca=mlx5_2,node_type=gpu 123.457\n"), parsed);
        assertTrue(parsed.contains("gauge rdmaffm_health_node_healthy node_type=gpu 0.0\n"), parsed);
    }
}
