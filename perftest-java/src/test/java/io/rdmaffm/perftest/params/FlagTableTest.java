package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * README's flag table is FlagTable's rendering of Flag, row for row: a flag added, renamed, moved to other tools or
 * re-described without README following fails here. {@code -Dflag.table.update=true} rewrites README's copy.
 */
class FlagTableTest {
    private static final Path README = Path.of("..", "README.md");
    private static final String BEGIN = "<!-- flag-table: generated from Flag.java by FlagTableTest -->\n";
    private static final String END = "<!-- /flag-table -->";

    @Test
    void readmesFlagTableIsFlagJavas() throws Exception {
        String readme = Files.readString(README);
        int from = readme.indexOf(BEGIN);
        int to = readme.indexOf(END);
        assertTrue(from >= 0 && to > from, "README has no flag table between its markers");
        String table = FlagTable.markdown();
        if (Boolean.getBoolean("flag.table.update")) {
            Files.writeString(README, readme.substring(0, from + BEGIN.length()) + table + readme.substring(to));
            return;
        }
        assertEquals(table, readme.substring(from + BEGIN.length(), to),
                "README's flag table differs from Flag.java (regenerate with -Dflag.table.update=true)");
    }

    @Test
    void everyFlagHasARow() {
        String table = FlagTable.markdown();
        for (Flag f : Flag.values()) {
            assertTrue(table.contains("| `" + f.names().getFirst() + "`"), f + " has no row");
        }
        assertTrue(table.contains("| `--rate_limit_type` | all | "), table);
        assertTrue(table.contains("| `--reversed` | bw | "), table);
    }
}
