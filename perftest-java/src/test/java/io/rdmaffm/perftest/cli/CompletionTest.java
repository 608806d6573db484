package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code generate-completion}: the script completes rdma-perftest and each ib_* wrapper, run in bash. */
class CompletionTest {

    private static String script() {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        cl.setOut(new PrintWriter(out));
        assertEquals(0, cl.execute("generate-completion"));
        return out.toString();
    }

    /** What bash completes for the words typed, the cursor on the last word. */
    private static String complete(Path script, String... words) throws Exception {
        String array = String.join(" ", java.util.Arrays.stream(words).map(w -> "'" + w + "'").toList());
        String cmd = "source '" + script + "'; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; f=$(complete -p \"${COMP_WORDS[0]##*/}\" | sed -E 's/.*-F ([^ ]+).*/\\1/'); \"$f\" 2>/dev/null;"
                + " echo \"${COMPREPLY[*]}\"";
        Process p = new ProcessBuilder(List.of("bash", "-c", cmd)).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return out.strip();
    }

    @Test
    void theWrappersAreCompletedAsTheirSubcommand(@TempDir Path dir) throws Exception {
        String text = script();
        for (String tool : List.of("ib_write_bw", "ib_read_lat", "ib_atomic_bw", "ib_send_lat")) {
            assertTrue(text.lines().anyMatch(l -> l.startsWith("complete -F _complete_rdma-perftest_tool")
                    && l.contains(" " + tool)), tool);
        }
        Path script = Files.writeString(dir.resolve("completion.bash"), text);
        assertEquals("--size", complete(script, "ib_write_bw", "--si"));
        assertEquals("--size", complete(script, "/opt/rdma-ffm/bin/ib_send_lat", "--si"));
        assertEquals("--size", complete(script, "rdma-perftest", "ib_write_bw", "--si"));
        assertEquals("doctor", complete(script, "rdma-perftest", "doc"));
        assertTrue(complete(script, "ib_read_bw", "--iter").contains("--iters"));
    }
}
