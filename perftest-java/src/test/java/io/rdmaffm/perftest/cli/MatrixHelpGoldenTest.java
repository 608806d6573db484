package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code matrix --help}, byte for byte, as the tools' helps are ({@link ToolHelpGoldenTest}):
 * {@code -Dtool.help.update=true} rewrites the file.
 */
class MatrixHelpGoldenTest {

    @Test
    void helpIsTheGoldenText() throws IOException {
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> { }, "matrix", "--help");
        assertEquals(0, r.code(), r.err());
        String name = "tool-help/matrix.txt";
        if (Boolean.getBoolean("tool.help.update")) {
            Files.writeString(Path.of("src/test/resources", name), r.out());
            return;
        }
        try (InputStream golden = getClass().getClassLoader().getResourceAsStream(name)) {
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8), r.out(), name);
        }
    }
}
