package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exact command lines of ssh and srun, and the script each end runs. */
class LauncherTest {
    static final String CLIENT_SCRIPT = """
            command -v rdma-perftest >/dev/null 2>&1 || { echo "@rdma-matrix missing "rdma-perftest" on $(hostname)" >&2; exit 127; }
            f=$(mktemp "${TMPDIR:-/tmp}/rdma-matrix.XXXXXX") || exit 96
            RDMAFFM_PROGRESS=never rdma-perftest ib_write_bw -d mlx5_0 -p 18515 -s 65536 -x 3 --out_json_file "$f" node01 2>&1 &
            p=$!
            trap 'kill -TERM $p 2>/dev/null' HUP INT TERM
            echo "@rdma-matrix pid $p"
            wait $p; rc=$?
            echo "@rdma-matrix json"
            cat "$f" 2>/dev/null; rm -f "$f"
            exit $rc""";

    static final String SERVER_SCRIPT = """
            command -v rdma-perftest >/dev/null 2>&1 || { echo "@rdma-matrix missing "rdma-perftest" on $(hostname)" >&2; exit 127; }
            RDMAFFM_PROGRESS=never rdma-perftest ib_write_bw -d mlx5_0 -p 18515 --accept-timeout 151 -s 65536 -x 3 2>&1 &
            p=$!
            trap 'kill -TERM $p 2>/dev/null' HUP INT TERM
            echo "@rdma-matrix pid $p"
            wait $p; rc=$?
            exit $rc""";

    static final String C_CLIENT_SCRIPT = """
            command -v /opt/perftest/bin/ib_read_lat >/dev/null 2>&1 || { echo "@rdma-matrix missing "/opt/perftest/bin/ib_read_lat" on $(hostname)" >&2; exit 127; }
            /opt/perftest/bin/ib_read_lat -d mlx5_1 -p 18516 node02 2>&1 &
            p=$!
            trap 'kill -TERM $p 2>/dev/null' HUP INT TERM
            echo "@rdma-matrix pid $p"
            wait $p; rc=$?
            exit $rc""";

    @Test
    void scriptsForBothEndsAndBothPeers() {
        List<String> extra = List.of("-s", "65536", "-x", "3");
        assertEquals(CLIENT_SCRIPT, RemoteScript.of(MatrixRequest.Peer.JAVA, null, "ib_write_bw", "mlx5_0", 18515,
                extra, "node01", 0));
        assertEquals(SERVER_SCRIPT, RemoteScript.of(MatrixRequest.Peer.JAVA, null, "ib_write_bw", "mlx5_0", 18515,
                extra, null, 151));
        assertEquals(C_CLIENT_SCRIPT, RemoteScript.of(MatrixRequest.Peer.C, "/opt/perftest/bin/", "ib_read_lat",
                "mlx5_1", 18516, List.of(), "node02", 0));
        // No device: the tool's default device, no -d at all.
        assertTrue(RemoteScript.of(MatrixRequest.Peer.C, null, "ib_send_bw", null, 18515, List.of(), null, 0)
                .contains("\nib_send_bw -p 18515 2>&1 &\n"));
    }

    @Test
    void sshCommandLine() {
        List<String> cmd = new SshLauncher(10).command("node02", "echo 'hi'");
        assertEquals(List.of("ssh", "-n", "-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10",
                "-o", "StrictHostKeyChecking=accept-new", "-o", "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3",
                "-o", "LogLevel=ERROR", "--", "node02", "sh -c 'echo '\\''hi'\\'''"), cmd);
        assertEquals("sh -c 'kill -TERM 4242 2>/dev/null; exit 0'",
                new SshLauncher(10).killCommand("node02", 4242).getLast());
        assertTrue(new SshLauncher(5).launcherFailed(255));
        assertTrue(!new SshLauncher(5).launcherFailed(1));
    }

    @Test
    void srunCommandLine() {
        List<String> cmd = new SrunLauncher().command("gpu07", SERVER_SCRIPT);
        assertEquals(List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=gpu07", "--overlap", "--unbuffered",
                "--input=none", "--quiet", "--job-name=rdma-matrix", "sh", "-c", SERVER_SCRIPT), cmd);
        assertNull(new SrunLauncher().killCommand("gpu07", 1), "ending srun ends the step");
    }

    @Test
    void hostileHostsNeverReachALauncher() {
        for (String host : List.of("-oProxyCommand=touch /tmp/x", "a;b", "$(id)", "a b", "a:22", "")) {
            assertThrows(MatrixInputException.class, () -> new SshLauncher(10).command(host, "true"), host);
            assertThrows(MatrixInputException.class, () -> new SrunLauncher().command(host, "true"), host);
        }
    }

    @Test
    void hostileToolArgumentsAreQuoted() {
        String s = RemoteScript.of(MatrixRequest.Peer.JAVA, null, "ib_write_bw", null, 1, List.of("$(reboot)",
                "a'b", "`id`;x", "*", "~"), null, 1);
        assertTrue(s.contains(" '$(reboot)' 'a'\\''b' '`id`;x' '*' '~' 2>&1 &"), s);
        assertEquals("plain-word_1.2/x:y", Names.quote("plain-word_1.2/x:y"));
        assertEquals("''", Names.quote(""));
    }

    @Test
    void pidIsReadFromTheScriptsLine() {
        assertEquals(4242, RemoteScript.pid("banner\n@rdma-matrix pid 4242\nmore"));
        assertEquals(-1, RemoteScript.pid("no pid here"));
        assertEquals(-1, RemoteScript.pid("@rdma-matrix pid \n"));
    }
}
