package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.rdmaffm.perftest.vocab.Tool;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every tool's {@code --help}, byte for byte: the help is built from the flag declarations, so a change to a
 * declaration that changes what users read shows here. {@code -Dtool.help.update=true} rewrites the files.
 */
class ToolHelpGoldenTest {

    @ParameterizedTest
    @EnumSource(Tool.class)
    void helpIsTheGoldenText(Tool tool) throws IOException {
        ToolCommandLineTest.Result r = ToolCommandLineTest.run(tool.perftestName(), "--help");
        assertEquals(0, r.exit(), r.err());
        String name = "tool-help/" + tool.perftestName() + ".txt";
        if (Boolean.getBoolean("tool.help.update")) {
            Files.writeString(Path.of("src/test/resources", name), r.out());
            return;
        }
        try (InputStream golden = getClass().getClassLoader().getResourceAsStream(name)) {
            assertEquals(new String(golden.readAllBytes(), StandardCharsets.UTF_8), r.out(), name);
        }
    }
}
