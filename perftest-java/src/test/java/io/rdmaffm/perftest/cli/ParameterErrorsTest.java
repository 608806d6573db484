package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Bad command lines: one "COMMAND: error: ..." line that says what was wanted, or the nearest name. */
class ParameterErrorsTest {

    private record Result(int exit, String err) {
    }

    private static Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        cl.setOut(new PrintWriter(new StringWriter()));
        return new Result(cl.execute(args), err.toString());
    }

    @Test
    void aValueOfTheWrongTypeSaysWhatTheOptionWants() {
        Result r = run("doctor", "--counters", "abc");
        assertEquals(2, r.exit());
        assertEquals("doctor: error: option '--counters' wants a whole number, got 'abc' (see doctor --help)\n",
                r.err());
        Result effect = run("compare", "a.json", "b.json", "--min-effect", "lots");
        assertEquals("compare: error: option '--min-effect' wants a number, got 'lots' (see compare --help)\n",
                effect.err());
    }

    @Test
    void aMisspeltCommandOrOptionGetsTheNearestName() {
        Result r = run("docter");
        assertEquals(2, r.exit());
        assertEquals("rdma-perftest: error: unknown command 'docter' (did you mean doctor?) (see rdma-perftest "
                + "--help)\n", r.err());
        Result o = run("doctor", "--jsn");
        assertEquals(2, o.exit());
        assertEquals("doctor: error: unknown option '--jsn' (did you mean --json?) (see doctor --help)\n", o.err());
    }

    @Test
    void onlyCloseNamesAreSuggested() {
        assertEquals(java.util.List.of("ib_read_lat"), ParameterErrors.nearest("ib_raed_lat",
                java.util.List.of("ib_read_bw", "ib_read_lat", "ib_send_lat")));
        assertEquals(java.util.List.of(), ParameterErrors.nearest("frobnicate", java.util.List.of("doctor", "report")));
        Result far = run("frobnicate");
        assertEquals("rdma-perftest: error: unknown command 'frobnicate' (see rdma-perftest --help)\n", far.err());
    }

    @Test
    void everyBadInputLineHasTheSameErrorPrefix() {
        for (String[] args : new String[][] {{"doctor", "--counters", "0"}, {"compare", "only-one.json"},
                {"report"}, {"doctor", "--sysfs-root", "/no/such/dir"}, {"nonsense"}}) {
            Result r = run(args);
            assertEquals(2, r.exit(), String.join(" ", args));
            assertEquals(1, r.err().lines().count(), r.err());
            String command = args[0].equals("nonsense") ? "rdma-perftest" : args[0];
            assertEquals(command + ": error: ", r.err().substring(0, command.length() + 9), r.err());
        }
    }

    @Test
    void wantsNamesTypesInWords() {
        assertEquals("a whole number", ParameterErrors.wants(int.class));
        assertEquals("a number", ParameterErrors.wants(Double.class));
        assertEquals("one of NA, OK, WARN, FAIL", ParameterErrors.wants(io.rdmaffm.perftest.doctor.Verdict.class));
        assertEquals("a file name", ParameterErrors.wants(java.nio.file.Path.class));
    }
}
