package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The options {@code matrix} and {@code fabric} share ({@link HostOptions}, {@link OutputFiles}) refuse the same
 * bad input with the same line in both commands, exit 2, before anything is launched.
 */
class HostOptionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"matrix", "fabric"})
    void sharedOptionsRefuseBadInputAlikeInBothCommands(String command) {
        refused(command, "--launcher must be ssh or srun, got 'pdsh'", "--launcher", "pdsh");
        refused(command, "--listen-timeout must be a positive number of seconds, got -1.0", "--listen-timeout", "-1");
        refused(command, "--test-timeout must be a positive number of seconds, got Infinity", "--test-timeout",
                "Infinity");
        refused(command, "--json " + dir.resolve("no/such/dir/x.json") + ": its directory does not exist or is not"
                + " writable", "--json", dir.resolve("no/such/dir/x.json").toString());
        refused(command, "--csv " + dir + ": is a directory", "--csv", dir.toString());
    }

    private static void refused(String command, String expected, String... options) {
        List<String> args = new ArrayList<>(List.of(command));
        if (command.equals("fabric")) {
            args.add("allreduce");
        }
        args.addAll(List.of("--hosts", "a,b"));
        args.addAll(List.of(options));
        String[] all = args.toArray(String[]::new);
        int code;
        String out;
        String err;
        List<List<String>> launched;
        if (command.equals("matrix")) {
            MatrixCommandTest.Run r = MatrixCommandTest.run(c -> { }, all);
            code = r.code();
            out = r.out();
            err = r.err();
            launched = r.launched();
        } else {
            FabricCommandTest.Run r = FabricCommandTest.run(c -> { }, all);
            code = r.code();
            out = r.out();
            err = r.err();
            launched = r.launched();
        }
        assertEquals(2, code, args + ": " + err + out);
        assertEquals(command + ": error: " + expected + "\n", err, args.toString());
        assertEquals("", out, args.toString());
        assertTrue(launched.isEmpty(), args + " launched " + launched);
    }
}
