package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recipe's worked example is the code: each line it quotes from the sources is in them. Reads files only. */
class AddingAFlagDocTest {
    private static final Path ROOT = Path.of("..");
    private static final Path MAIN = Path.of("src/main/java/io/rdmaffm/perftest");

    @Test
    void theWorkedExampleQuotesTheSources() throws IOException {
        String doc = Files.readString(ROOT.resolve("docs/adding-a-flag.md"));
        for (String[] quote : List.of(
                new String[] {"params/Flag.java", "NO_PEAK(flag("},
                new String[] {"engine/LoopSpecs.java", "p.on(Flag.NO_PEAK)"})) {
            String line = lineWith(MAIN.resolve(quote[0]), quote[1]);
            assertTrue(doc.contains(line), "docs/adding-a-flag.md does not quote " + quote[0] + ":\n" + line);
        }
    }

    private static String lineWith(Path source, String marker) throws IOException {
        for (String l : Files.readAllLines(source)) {
            if (l.contains(marker)) {
                return l.strip();
            }
        }
        throw new AssertionError(source + " has no line with " + marker);
    }
}
