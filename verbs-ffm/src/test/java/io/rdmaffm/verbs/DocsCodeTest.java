package io.rdmaffm.verbs;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The code the documents show is the code the rdma tests run: each marked region of a test source must appear, line
 * for line (indentation aside), in its document. Host test: it reads files only.
 */
class DocsCodeTest {
    private static final Path ROOT = Path.of("..");
    private static final Path TESTS = Path.of("src/test/java/io/rdmaffm/verbs");

    @Test
    void theWalkthroughAndTheReadmeShowTheTestedServersAndClients() throws IOException {
        String[][] pairs = {{"cm/CmWalkthroughRdmaTest.java", "docs/rdma-cm-walkthrough.md"},
            {"connect/ReadmeConnectionRdmaTest.java", "README.md"}};
        for (String[] pair : pairs) {
            for (String side : new String[] {"server", "client"}) {
                assertContains(ROOT.resolve(pair[1]), region(TESTS.resolve(pair[0]), side), side);
            }
        }
    }

    static void assertContains(Path doc, String code, String what) throws IOException {
        String text = normalized(Files.readAllLines(doc));
        assertTrue(text.contains(code), doc + " does not show the tested " + what + " code:\n" + code);
    }

    /** The lines between "// --- NAME start ---" and "// --- NAME end ---", each stripped. */
    static String region(Path source, String name) throws IOException {
        List<String> lines = Files.readAllLines(source);
        int from = indexOf(lines, "// --- " + name + " start ---", source);
        int to = indexOf(lines, "// --- " + name + " end ---", source);
        return normalized(lines.subList(from + 1, to));
    }

    private static int indexOf(List<String> lines, String marker, Path source) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(marker)) {
                return i;
            }
        }
        throw new AssertionError(source + " has no line " + marker);
    }

    private static String normalized(List<String> lines) {
        return lines.stream().map(String::strip).filter(l -> !l.isEmpty()).collect(Collectors.joining("\n"));
    }
}
