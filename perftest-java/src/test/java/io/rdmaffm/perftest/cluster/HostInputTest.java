package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Host input from a list, a hostfile and Slurm; the one-line errors of bad input. */
class HostInputTest {

    private static String message(Runnable r) {
        return assertThrows(MatrixInputException.class, r::run).getMessage();
    }

    @Test
    void readsAList() {
        HostInput.Hosts h = HostInput.fromList("a, b.example.org,10.0.0.3,gpu_07");
        assertEquals(List.of("a", "b.example.org", "10.0.0.3", "gpu_07"), h.names());
        assertEquals("--hosts", h.source());
    }

    @Test
    void readsAHostfileWithCommentsAndIgnoredSlots() throws IOException {
        String text = new String(getClass().getResourceAsStream("/cluster/hostfile.txt").readAllBytes());
        HostInput.Hosts h = HostInput.fromHostfile(text, "hostfile.txt");
        assertEquals(List.of("node01", "node02", "node04", "node05"), h.names());
        assertEquals(List.of("hostfile hostfile.txt: ignored what follows the host name (line 2 'slots=8',"
                + " line 3 'slots=8 max_slots=8'): the matrix runs one test per NIC"), h.notes());
    }

    @Test
    void refusesBadHosts() {
        assertEquals("--hosts: host 'a:22' has a port (or an MPI slot count); give the bare name and set ports in"
                + " ~/.ssh/config", message(() -> HostInput.fromList("a:22,b")));
        assertEquals("--hosts: host 'b' is given twice", message(() -> HostInput.fromList("a,b,c,b")));
        assertEquals("--hosts: host 'A' is given twice", message(() -> HostInput.fromList("a,A")));
        assertEquals("--hosts: at least two hosts are needed (matrix, fabric), got 1 (a)", message(() -> HostInput.fromList("a")));
        assertEquals("--hosts: empty host name", message(() -> HostInput.fromList("a,,b")));
        assertEquals("--hosts: empty host name", message(() -> HostInput.fromList("")));
        assertEquals("--hosts: host 'root@a' has a user name; set users in ~/.ssh/config",
                message(() -> HostInput.fromList("root@a,b")));
        assertEquals("--hosts: host 'fe80::1': IPv6 literals are not accepted; give a host name",
                message(() -> HostInput.fromList("fe80::1,b")));
        for (String hostile : List.of("-oProxyCommand=x", "a;reboot", "$(id)", "a b", "a'b", "`x`", "a/b", "a..b",
                "a-", ".a", "x\ny")) {
            String m = message(() -> HostInput.fromList(hostile + ",b"));
            assertTrue(m.startsWith("--hosts: '") && m.endsWith("' is not a host name (letters, digits, '-', '_'"
                    + " and dots; no label may start or end with '-')"), m);
            assertTrue(!m.contains("\n"), "one line: " + m);
        }
        assertEquals("hostfile h: no hosts in it", message(() -> HostInput.fromHostfile("# only\n\n  \n", "h")));
        assertEquals("hostfile h line 2: host 'b:4' has a port (or an MPI slot count); give the bare name and set"
                + " ports in ~/.ssh/config", message(() -> HostInput.fromHostfile("a\nb:4\n", "h")));
    }

    @Test
    void listsAndHostfilesTakeBracketRanges() {
        assertEquals(List.of("node01", "node02", "node03", "node04"), HostInput.fromList("node[01-04]").names());
        assertEquals(List.of("n08", "n09", "n10", "n12", "login"), HostInput.fromList("n[08-10,12], login").names());
        assertEquals(List.of("r1n1", "r1n2", "r2n1", "r2n2", "gpu-a1-ib", "gpu-a2-ib"),
                HostInput.fromList("r[1-2]n[1-2],gpu-a[1-2]-ib").names(), "several groups, a suffix");
        assertEquals("--hosts", HostInput.fromList("node[1-2]").source());
        HostInput.Hosts f = HostInput.fromHostfile("# rack 1\nnode[01-03] slots=8\nlogin\n", "h");
        assertEquals(List.of("node01", "node02", "node03", "login"), f.names());
        assertEquals(List.of("hostfile h: ignored what follows the host name (line 2 'slots=8'): the matrix runs"
                + " one test per NIC"), f.notes());
    }

    @Test
    void refusesBadBracketRangesInOneLine() {
        assertEquals("--hosts 'node[04-01]': range 04-01 runs backwards", message(() -> HostInput.fromList(
                "node[04-01]")));
        assertEquals("--hosts 'node[1-3,a': unbalanced brackets in 'node[1-3,a'", message(() -> HostInput.fromList(
                "node[1-3,a")));
        assertEquals("--hosts 'n[x-2]': 'x-2' is not a number or a range like 01-04", message(() -> HostInput.fromList(
                "a,n[x-2]")));
        assertEquals("--hosts 'n1]': ']' without '['", message(() -> HostInput.fromList("n1],b")));
        assertEquals("--hosts: host 'n1' is given twice", message(() -> HostInput.fromList("n1,n[1-2]")));
        assertEquals("--hosts: 'n1-' is not a host name (letters, digits, '-', '_' and dots; no label may start or"
                + " end with '-')", message(() -> HostInput.fromList("n[1-2]-,b")));
        assertEquals("--hosts: at least two hosts are needed (matrix, fabric), got 1 (n1)", message(() -> HostInput.fromList(
                "n[1-1]")));
        assertEquals("hostfile h line 2 'b[2-1]': range 2-1 runs backwards",
                message(() -> HostInput.fromHostfile("a\nb[2-1]\n", "h")));
        for (String bad : List.of("node[04-01]", "n[", "n[]", "n[1[2]]", "n[1-99999999]")) {
            assertTrue(!message(() -> HostInput.fromList(bad)).contains("\n"), bad);
        }
    }

    @Test
    void slurmUsesScontrolThroughTheRunner() {
        FakeRunner runner = new FakeRunner(cmd -> FakeRunner.Reply.ok("gpu01\ngpu02\ngpu03\n"));
        HostInput.Hosts h = HostInput.fromSlurm("gpu[01-03]", runner, Duration.ofSeconds(1));
        assertEquals(List.of("gpu01", "gpu02", "gpu03"), h.names());
        assertEquals(List.of(List.of("scontrol", "show", "hostnames", "gpu[01-03]")), runner.commands());
        assertEquals(List.of(), h.notes());
    }

    @Test
    void slurmFallsBackToTheJavaExpanderWhenScontrolIsMissingOrFails() {
        ProcessRunner missing = command -> {
            throw new IOException("Cannot run program \"scontrol\": error=2, No such file or directory");
        };
        HostInput.Hosts h = HostInput.fromSlurm("node[1-2],login", missing, Duration.ofSeconds(1));
        assertEquals(List.of("node1", "node2", "login"), h.names());
        assertEquals(List.of("scontrol not available (Cannot run program \"scontrol\": error=2, No such file or"
                + " directory): expanded SLURM_JOB_NODELIST 'node[1-2],login' here"), h.notes());
        FakeRunner failing = new FakeRunner(cmd -> new FakeRunner.Reply("", "scontrol: error: bad\n", 1, false));
        assertEquals(List.of("scontrol exit 1: scontrol: error: bad: expanded SLURM_JOB_NODELIST 'n[1-2]' here"),
                HostInput.fromSlurm("n[1-2]", failing, Duration.ofSeconds(1)).notes());
        assertEquals("SLURM_JOB_NODELIST is not set: run inside an allocation (salloc/sbatch) or give --hosts or"
                + " --hostfile", message(() -> HostInput.fromSlurm(null, failing, Duration.ofSeconds(1))));
        assertEquals("SLURM_JOB_NODELIST: at least two hosts are needed (matrix, fabric), got 1 (n1)",
                message(() -> HostInput.fromSlurm("n[1-1]", failing, Duration.ofSeconds(1))));
    }
}
