package io.rdmaffm.perftest.params;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every option of perftest 4.5-0.17 (the names in perftest-4.5-0.17-options.txt, from its parser) is declared in
 * {@link Flag}, or classed here with the reason it is not: no perftest command line meets picocli's "unknown
 * option" for a flag perftest has.
 */
class PerftestOptionsTest {
    /** Not in the table, and why. */
    private static final Map<String, String> CLASSED = Map.of(
            "-h", "picocli's standard help option (mixinStandardHelpOptions)",
            "--help", "picocli's standard help option",
            "-V", "picocli's standard version option",
            "--version", "picocli's standard version option");

    static List<String> perftestNames() throws IOException {
        try (InputStream in = PerftestOptionsTest.class.getResourceAsStream("/perftest-4.5-0.17-options.txt")) {
            assertNotNull(in, "perftest-4.5-0.17-options.txt");
            List<String> names = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    names.add(line.strip());
                }
            }
            return names;
        }
    }

    @Test
    void everyPerftestOptionIsDeclaredOrClassed() throws IOException {
        List<String> names = perftestNames();
        // The parser's 50 short options and 117 long names (--source_ip counted once): a truncated file fails.
        assertEquals(50, names.stream().filter(n -> !n.startsWith("--")).count());
        assertEquals(117, names.stream().filter(n -> n.startsWith("--")).count());
        List<String> missing = new ArrayList<>();
        for (String n : names) {
            boolean declared = false;
            for (Flag f : Flag.values()) {
                declared |= f.names().contains(n);
            }
            if (declared == CLASSED.containsKey(n)) {
                missing.add(n + (declared ? " (declared and classed)" : ""));
            }
        }
        assertTrue(missing.isEmpty(), "perftest 4.5 options neither declared in Flag.java nor classed: " + missing);
    }

    @Test
    void aShortAndALongNameOfPerftestAreOneFlag() {
        // perftest's pairs (its long_options[] vals) are one declaration here, so either spelling is the same flag.
        String[][] pairs = {{"-L", "--hop_limit"}, {"-B", "--source_mac"}, {"-E", "--dest_mac"}, {"-J", "--dest_ip"},
            {"-K", "--dest_port"}, {"-k", "--source_port"}, {"-Z", "--server"}, {"-P", "--client"},
            {"-v", "--mac_fwd"}, {"-c", "--connection"}, {"-H", "--report-histogrm"}, {"-W", "--report-counters"}};
        for (String[] p : pairs) {
            assertEquals(Flag.named(p[0]), Flag.named(p[1]), p[0]);
        }
    }
}
