package io.rdmaffm.perftest.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own reader of the text exposition, for the tests of what {@link Exposition} writes (health, matrix):
 * the Python client's parser (Debian's python3-prometheus-client), one line per sample back.
 */
public final class PrometheusParser {
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    private PrometheusParser() {
    }

    /**
     * Parses {@code text}; skips the calling test (with the package to install) where the parser is missing, fails
     * it where the parser refuses the text.
     *
     * @return one line per sample: {@code TYPE NAME LABEL=VALUE,... VALUE}, labels sorted by name
     */
    public static String parse(String text) throws Exception {
        assumeTrue(Files.isExecutable(PYTHON) && new ProcessBuilder(PYTHON.toString(), "-c",
                "import prometheus_client.parser").start().waitFor() == 0,
                "needs /usr/bin/python3 with prometheus_client (apt-get install python3-prometheus-client)");
        Process p = new ProcessBuilder(PYTHON.toString(), "-c", """
                import sys
                from prometheus_client.parser import text_string_to_metric_families
                for f in text_string_to_metric_families(sys.stdin.read()):
                    for s in f.samples:
                        labels = ",".join(k + "=" + v for k, v in sorted(s.labels.items()))
                        print(f.type, s.name, labels, s.value)
                """).redirectErrorStream(true).start();
        p.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        String parsed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), parsed);
        return parsed;
    }
}
