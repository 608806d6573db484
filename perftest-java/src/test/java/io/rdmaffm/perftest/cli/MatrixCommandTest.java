package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.ProcessRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code rdma-perftest matrix} bad input: one line on stderr, exit 2, nothing launched (the runner refuses and
 * records every start). The runs themselves are tested with a fake Slurm (MatrixSlurmCommandTest) and on three
 * VMs (CrossHostMatrixTest).
 */
class MatrixCommandTest {

    @TempDir
    Path dir;

    record Run(int code, String out, String err, List<List<String>> launched) {
    }

    static Run run(Consumer<MatrixCommand> setup, String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        MatrixCommand cmd = cl.getSubcommands().get("matrix").getCommand();
        List<List<String>> launched = Collections.synchronizedList(new ArrayList<>());
        cmd.runner = command -> {
            launched.add(command);
            throw new IOException("this test launches nothing");
        };
        cmd.env = Map.of();
        setup.accept(cmd);
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString(), launched);
    }

    private void refused(String expected, String... args) {
        refused(c -> { }, expected, args);
    }

    private void refused(Consumer<MatrixCommand> setup, String expected, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "matrix";
        System.arraycopy(args, 0, all, 1, args.length);
        Run r = run(setup, all);
        assertEquals(2, r.code(), List.of(args) + ": " + r.err() + r.out());
        assertEquals("matrix: error: " + expected + "\n", r.err(), List.of(args).toString());
        assertEquals("", r.out(), List.of(args).toString());
        assertTrue(r.launched().isEmpty(), List.of(args) + " launched " + r.launched());
    }

    @Test
    void hostsThatCannotMakeAMatrix() throws IOException {
        refused("no hosts: give --hosts, --hostfile or --slurm");
        refused("--hosts: at least two hosts are needed (matrix, fabric), got 1 (node1)", "--hosts", "node1");
        refused("--hosts: host 'node1' is given twice", "--hosts", "node1,node2,node1");
        refused("--hosts: host 'Node1' is given twice", "--hosts", "node1,Node1");
        refused("--hosts: host 'node1:2222' has a port (or an MPI slot count); give the bare name and set ports in"
                + " ~/.ssh/config", "--hosts", "node1:2222,node2");
        refused("--hosts: host 'root@node1' has a user name; set users in ~/.ssh/config", "--hosts",
                "root@node1,node2");
        refused("--hosts: '-oProxyCommand=x' is not a host name (letters, digits, '-', '_' and dots; no label may"
                + " start or end with '-')", "--hosts", "-oProxyCommand=x,node2");
        refused("--hosts: empty host name", "--hosts", "node1,,node2");
        refused("--hosts 'node[04-01]': range 04-01 runs backwards", "--hosts", "node[04-01]");
        refused("--hosts: host 'node02' is given twice", "--hosts", "node[01-03],node02");
        refused("give only one of --hosts, --hostfile and --slurm", "--hosts", "a,b", "--slurm");
        Path empty = Files.writeString(dir.resolve("empty"), "# no hosts yet\n\n");
        refused("hostfile " + empty + ": no hosts in it", "--hostfile", empty.toString());
        Path missing = dir.resolve("missing");
        refused("--hostfile " + missing + ": cannot read it (NoSuchFileException: " + missing + ")", "--hostfile",
                missing.toString());
        refused("SLURM_JOB_NODELIST is not set: run inside an allocation (salloc/sbatch) or give --hosts or"
                + " --hostfile", "--slurm");
    }

    @Test
    void optionsTheCommandLineGetsWrong() throws IOException {
        refused("give only one of --quick and --pairs", "--hosts", "a,b", "--quick", "--pairs", "p.txt");
        refused("unexpected argument 'ib_write_bw': tool arguments go after --", "--hosts", "a,b", "ib_write_bw");
        refused("--launcher must be ssh or srun, got 'pdsh'", "--hosts", "a,b", "--launcher", "pdsh");
        refused("--launch must be worker or per-test, got 'daemon'", "--hosts", "a,b", "--launch", "daemon");
        refused("--peer must be java or c, got 'python'", "--hosts", "a,b", "--peer", "python");
        refused("--per-test must be a positive number of seconds, got 0.0", "--hosts", "a,b", "--per-test", "0");
        refused("--test-timeout must be a positive number of seconds, got Infinity", "--hosts", "a,b",
                "--test-timeout", "Infinity");
        refused("--listen-timeout must be a positive number of seconds, got -1.0", "--hosts", "a,b",
                "--listen-timeout", "-1");
        refused("--json " + dir.resolve("no/such/dir/m.json") + ": its directory does not exist or is not writable",
                "--hosts", "a,b", "--json", dir.resolve("no/such/dir/m.json").toString());
        refused("--csv " + dir + ": is a directory", "--hosts", "a,b", "--csv", dir.toString());
        refused("unknown tool 'ib_write' (one of ib_write_bw, ib_write_lat, ib_read_bw, ib_read_lat, ib_send_bw,"
                + " ib_send_lat, ib_atomic_bw, ib_atomic_lat)", "--hosts", "a,b", "--tools", "ib_write");
        refused("tool argument -p is set by the matrix for each end", "--hosts", "a,b", "--", "-s", "4096", "-p",
                "1");
        refused("--device: device 'mlx5_0' is given twice", "--hosts", "a,b", "--device", "mlx5_0,mlx5_0");
        refused("--device: 'mlx5_0;reboot' is not an RDMA device name (letters, digits, '_', '-', '.')", "--hosts",
                "a,b", "--device", "mlx5_0;reboot");
        refused("the bandwidth share of the best pair must be within 0..100%", "--hosts", "a,b",
                "--bw-percent-of-best", "120");
        refused("the latency factor of the best pair must be at least 1", "--hosts", "a,b", "--lat-factor", "0.5");
        refused("--min-percent-of-link must be within 0..100, got 150.0", "--hosts", "a,b", "--device", "mlx5_0",
                "--min-percent-of-link", "150");
        refused("--max-connections must be at least 2 (a server and a client)", "--hosts", "a,b",
                "--max-connections", "1");
        refused("--connect-timeout must be at least 1 s", "--hosts", "a,b", "--connect-timeout", "0");
        refused("invalid --base-port 70000", "--hosts", "a,b", "--base-port", "70000");
        Path pairs = Files.writeString(dir.resolve("pairs"), "a c\n");
        String bad = run(c -> { }, "matrix", "--hosts", "a,b", "--pairs", pairs.toString()).err();
        assertTrue(bad.startsWith("matrix: error: pairs file " + pairs) && bad.contains("'c'") && bad.endsWith("\n")
                && bad.indexOf('\n') == bad.length() - 1, bad);
    }

    @Test
    void picocliConversionErrorsAreOneLineToo() {
        Run r = run(c -> { }, "matrix", "--hosts", "a,b", "--base-port", "many");
        assertEquals(2, r.code());
        assertEquals("matrix: error: option '--base-port' wants a whole number, got 'many' (see matrix --help)\n",
                r.err());
        assertTrue(r.launched().isEmpty());
    }

    /** A host that cannot be asked for its devices is not an input error: its row will say what fails there. */
    @Test
    void anUnreachableHostIsReportedInItsRowNotRefused() {
        ProcessRunner unreachable = command -> {
            String host = command.get(command.indexOf("--") + 1);
            return new ExitedRunning(255, "", "ssh: Could not resolve hostname " + host
                    + ": Name or service not known\n");
        };
        Run r = run(c -> c.runner = unreachable, "matrix", "--hosts", "nosuch1,nosuch2", "--tools", "ib_write_lat",
                "--no-retest", "--launch", "per-test");
        assertEquals(2, r.code(), r.out() + r.err());
        assertEquals("", r.err());
        assertTrue(r.out().contains("note: nosuch1: ssh to nosuch1 failed (exit 255): ssh: Could not resolve"
                + " hostname nosuch1: Name or service not known; its tests will say what fails there"), r.out());
        assertTrue(r.out().contains("!UNREACHABLE"), r.out());
        assertTrue(r.out().contains("nosuch1: HOST_FAILED - unreachable: ssh to nosuch1 failed (exit 255)"), r.out());
        assertFalse(r.out().contains("Exception"), r.out());
    }

    /** The hosts are read once, whether or not they are then asked for their devices: scontrol runs once. */
    @Test
    void theSlurmAllocationIsExpandedOnce() {
        for (boolean ask : new boolean[] {true, false}) {
            List<List<String>> scontrol = Collections.synchronizedList(new ArrayList<>());
            List<List<String>> asked = Collections.synchronizedList(new ArrayList<>());
            ProcessRunner cluster = command -> {
                if (command.getFirst().equals("scontrol")) {
                    scontrol.add(command);
                    return new ExitedRunning(0, "node1\nnode2\n", "");
                }
                if (command.getLast().contains("doctor --json")) {
                    asked.add(command);
                }
                return new ExitedRunning(255, "", "ssh: connect to host: No route to host\n");
            };
            List<String> args = new ArrayList<>(List.of("matrix", "--slurm", "--tools", "ib_write_lat",
                    "--no-retest", "--launch", "per-test"));
            if (!ask) {
                args.addAll(List.of("--device", "mlx5_0"));
            }
            Run r = run(c -> {
                c.runner = cluster;
                c.env = Map.of("SLURM_JOB_NODELIST", "node[1-2]");
            }, args.toArray(String[]::new));
            assertEquals(2, r.code(), r.out() + r.err());
            assertTrue(r.out().startsWith((ask ? "matrix: asking 2 hosts" : "matrix: 2 hosts from SLURM_JOB_NODELIST")),
                    r.out());
            assertEquals(List.of(List.of("scontrol", "show", "hostnames", "node[1-2]")), scontrol, "asked: " + ask);
            assertEquals(ask ? 2 : 0, asked.size(), "each host asked once for its devices, or none with --device");
        }
    }

    /** A process that has already ended. */
    record ExitedRunning(int exitCode, String stdout, String stderr) implements ProcessRunner.Running {
        @Override
        public String awaitLine(java.util.function.Predicate<String> match, java.time.Duration timeout) {
            return stdout.lines().filter(match).findFirst().orElse(null);
        }

        @Override
        public boolean waitFor(java.time.Duration timeout) {
            return true;
        }

        @Override
        public boolean alive() {
            return false;
        }

        @Override
        public void destroy() {
        }
    }
}
