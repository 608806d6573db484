package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The end script run by a real /bin/sh, through both launchers' quoting: ssh's extra level (the remote login
 * shell is simulated by one more {@code sh -c}) and srun's none. A fake tool prints the arguments it received.
 */
class RemoteScriptShellTest {
    private static final List<String> HOSTILE = List.of("$(touch PWNED)", "a'b", "\"dq\"", ";touch PWNED2",
            "`touch PWNED3`", "*", "~", "with space", "back\\slash", "new\nline");

    @TempDir
    Path dir;

    private Path tool(String body) throws Exception {
        Path t = dir.resolve("rdma-perftest");
        Files.writeString(t, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
        return t;
    }

    private static final String ECHO_TOOL = """
            for a in "$@"; do printf 'ARG<%s>\\n' "$a"; done
            out=""
            while [ $# -gt 0 ]; do if [ "$1" = --out_json_file ]; then out=$2; fi; shift; done
            if [ -n "$out" ]; then printf '{"results": {"BW_average": 97.5, "BW_unit": "Gb/sec"}}' > "$out"; fi
            exit 3
            """;

    private List<String> argsSeen(String stdout) {
        List<String> args = new ArrayList<>();
        int i = 0;
        while ((i = stdout.indexOf("ARG<", i)) >= 0) {
            int end = stdout.indexOf(">\n", i);
            args.add(stdout.substring(i + 4, end));
            i = end;
        }
        return args;
    }

    @Test
    void argumentsArriveByteForByteThroughSshAndSrunQuoting() throws Exception {
        Path t = tool(ECHO_TOOL);
        String script = RemoteScript.of(MatrixRequest.Peer.JAVA, t.toString(), "ib_write_bw", "mlx5_0", 18515,
                HOSTILE, "node01", 0);
        String sshRemoteCommand = new SshLauncher(5).command("node01", script).getLast();
        List<String> srun = new SrunLauncher().command("node01", script);
        List<List<String>> ways = List.of(List.of("sh", "-c", sshRemoteCommand),
                srun.subList(srun.indexOf("sh"), srun.size()));
        for (List<String> cmd : ways) {
            ProcessRunner.Running p = new LocalProcessRunner().start(withDir(cmd));
            assertTrue(p.waitFor(Duration.ofSeconds(20)), "script ended");
            assertEquals(3, p.exitCode(), "the tool's exit status comes through");
            List<String> expected = new ArrayList<>(List.of("ib_write_bw", "-d", "mlx5_0", "-p", "18515"));
            expected.addAll(HOSTILE);
            String stdout = p.stdout();
            List<String> seen = argsSeen(stdout);
            assertEquals(expected, seen.subList(0, expected.size()));
            assertEquals("--out_json_file", seen.get(expected.size()));
            assertEquals("node01", seen.getLast());
            assertTrue(RemoteScript.pid(stdout) > 0, stdout);
            assertEquals("{\"results\": {\"BW_average\": 97.5, \"BW_unit\": \"Gb/sec\"}}", ToolOutput.json(stdout));
            ToolOutput.Figures f = ToolOutput.figures(MatrixRequest.Peer.JAVA, true, stdout);
            assertNotNull(f);
            assertEquals(97.5, f.bwGbps(), 1e-9);
        }
        try (var files = Files.list(dir)) {
            assertEquals(List.of(t), files.toList(), "no PWNED file, and the JSON temp file is not in the tool dir");
        }
    }

    /** Runs in {@code dir}, so a successful injection would leave its file where the test looks. */
    private List<String> withDir(List<String> cmd) {
        List<String> c = new ArrayList<>(cmd);
        c.set(2, "cd " + Names.quote(dir.toString()) + " && " + c.get(2));
        return c;
    }

    @Test
    void aMissingToolExits127WithItsMark() throws Exception {
        String script = RemoteScript.of(MatrixRequest.Peer.JAVA, dir.resolve("nope").toString(), "ib_write_bw",
                null, 18515, List.of(), null, 10);
        ProcessRunner.Finished f = new LocalProcessRunner().run(List.of("sh", "-c", script), Duration.ofSeconds(20));
        assertEquals(127, f.exitCode());
        assertTrue(f.stderr().startsWith(RemoteScript.MISSING_MARK + " " + dir.resolve("nope") + " on "), f.stderr());
        assertEquals(-1, RemoteScript.pid(f.stdout()));
    }

    /** Stopping an end by pid, as the ssh launcher does over a fresh connection (here: a local shell). */
    @Test
    void stopKillsTheRemoteToolByPid() throws Exception {
        tool("echo '* Waiting for client to connect... *'\nexec sleep 60\n");
        Launcher local = new Launcher() {
            @Override
            public String name() {
                return "local";
            }

            @Override
            public List<String> command(String host, String script) {
                return List.of("sh", "-c", script);
            }

            @Override
            public List<String> sessionCommand(String host, String script) {
                return command(host, script);
            }

            @Override
            public List<String> killCommand(String host, long pid) {
                return List.of("sh", "-c", "kill -TERM " + pid);
            }

            @Override
            public boolean launcherFailed(int exitCode) {
                return false;
            }
        };
        LocalProcessRunner runner = new LocalProcessRunner();
        RemoteProcesses live = new RemoteProcesses(local, runner, Duration.ofSeconds(10));
        String script = RemoteScript.of(MatrixRequest.Peer.JAVA, dir.resolve("rdma-perftest").toString(),
                "ib_write_bw", null, 18515, List.of(), null, 10);
        ProcessRunner.Running p = runner.start(local.command("h", script));
        live.add(p, "h");
        assertNotNull(p.awaitLine(l -> l.contains(RemoteScript.LISTENING), Duration.ofSeconds(20)));
        assertNotNull(p.awaitLine(l -> l.startsWith(RemoteScript.PID_MARK), Duration.ofSeconds(20)));
        long pid = RemoteScript.pid(p.stdout());
        assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "tool runs");
        live.stopAll();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "tool stopped by pid");
        assertFalse(p.alive());
        assertEquals(0, live.size());
    }
}
