package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.doctor.Hosts;
import io.rdmaffm.perftest.doctor.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code matrix --slurm --launcher srun} end to end through the command line, with a fake Slurm on PATH (a real
 * one, two nodes, runs in CI's multihost stage: CrossHostSlurmRdmaTest). The fakes are plain shell
 * scripts run as real processes: {@code scontrol show hostnames} expands the allocation; {@code srun} records its
 * command line and runs the step here, as the node its {@code --nodelist} names; the tool stand-in answers
 * {@code doctor --json} with a real doctor report (of a dual-port 100 GbE card on PCIe Gen3 x16, captured from a
 * sysfs fixture) and plays server and client, node03 giving a tenth of the others' bandwidth.
 */
class MatrixSlurmCommandTest {
    private static final String NODELIST = "node[01-03]";

    @TempDir
    Path dir;
    private FakeCluster cluster;

    @BeforeEach
    void fakeSlurm() throws IOException {
        cluster = new FakeCluster(dir);
        cluster.bin("scontrol", """
                #!/bin/sh
                echo "scontrol $*" >> "@DIR@/calls.log"
                [ "$1 $2 $3" = "show hostnames node[01-03]" ] || { echo "scontrol: unexpected $*" >&2; exit 1; }
                printf 'node01\\nnode02\\nnode03\\n'
                """);
        cluster.bin("srun", """
                #!/bin/sh
                # Records the options (the step's script, after "sh -c", is left out), then runs the step here.
                line=srun
                while [ $# -gt 0 ] && [ "$1" != sh ]; do
                  case "$1" in --nodelist=*) FAKE_NODE=${1#--nodelist=} ;; esac
                  line="$line $1"; shift
                done
                echo "$line $1 $2" >> "@DIR@/calls.log"
                export FAKE_NODE
                exec "$@"
                """);
        cluster.mark("bw-node03", "5.0");
        Path sysfs = Hosts.dualPort100gGen3(dir.resolve("sysfs")).root();
        StringWriter doctor = new StringWriter();
        CommandLine cl = Main.commandLine();
        cl.setOut(new PrintWriter(doctor));
        cl.execute("doctor", "--json", "--sysfs-root", sysfs.toString());
        cluster.mark("doctor.json", doctor.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker", "per-test"})
    void slurmAllocationBySrunWithDevicesAndRatesFromEachNodesDoctor(String launch) throws Exception {
        boolean workers = launch.equals("worker");
        Path json = dir.resolve("m.json");
        Path csv = dir.resolve("m.csv");
        MatrixCommandTest.Run r = MatrixCommandTest.run(c -> {
            c.env = Map.of("SLURM_JOB_NODELIST", NODELIST);
            c.runner = cluster.firstOnPath();
        }, "matrix", "--slurm", "--launcher", "srun", "--tool-path", cluster.tool().toString(),
                "--min-percent-of-link", "80", "--listen-timeout", "20", "--test-timeout", "20", "--json",
                json.toString(), "--csv", csv.toString(), "--launch", launch, "--", "-n", "5");
        String out = r.out();
        List<String> calls = cluster.calls();
        assertEquals(1, r.code(), "node03's pairs are flagged: exit 1\n" + out + r.err() + calls);
        assertEquals("", r.err());

        // The allocation, expanded by scontrol once: the hosts read before anything runs are the ones planned.
        assertEquals(List.of("scontrol show hostnames " + NODELIST),
                calls.stream().filter(l -> l.startsWith("scontrol")).toList());
        // Every step, the doctors' included, is one task on the named node, in exactly this form.
        List<String> steps = calls.stream().filter(l -> l.startsWith("srun")).toList();
        // A worker's step keeps srun's stdin (its orders); the doctors' and per-test ends' do not.
        for (String s : steps) {
            assertTrue(s.matches("srun --nodes=1 --ntasks=1 --nodelist=node0[123] --overlap --unbuffered"
                    + "( --input=none)? --quiet --job-name=rdma-matrix sh -c"), s);
        }
        assertEquals(workers ? 3 : steps.size(), steps.stream().filter(s -> s.contains("--input=none")).count(),
                String.join("\n", calls));
        for (String node : List.of("node01", "node02", "node03")) {
            assertTrue(calls.contains(node + ": doctor --json"), node + " was asked for its devices: " + calls);
        }
        // Per test: 3 pairs x 2 rails x 2 tools x 2 ends, the two flagged pairs again (2 x 2 x 2 x 2), and 3
        // doctors. With workers: one step per host and rail for the whole run, retests included, and the doctors.
        assertEquals(workers ? 3 * 2 + 3 : 24 + 16 + 3, steps.size(), String.join("\n", calls));
        assertEquals(workers ? 6 : 0, cluster.workerStarts());
        // Round 2 of 3 (node03 serves node01) on the second block of ports; the server ends by itself after the
        // listen and test timeouts; the client writes its JSON for the driver and names the server last.
        assertTrue(calls.contains("node03: ib_write_bw -d mlx5_1 -p 18518 --accept-timeout 41 -n 5"),
                String.join("\n", calls));
        // (A worker adds its own --out_json_file, in the JVM: not on the fake's line.)
        assertTrue(calls.stream().anyMatch(l -> l.matches("node01: ib_write_bw -d mlx5_1 -p 18518 -n 5"
                + (workers ? "" : " --out_json_file \\S+/rdma-matrix\\.\\w+") + " node03")), String.join("\n", calls));

        // Both ports are active; they share the Gen3 x16 link, so each expects its share of the PCIe model.
        assertTrue(out.contains("  node01 (doctor): mlx5_0 ACTIVE, port 100 Gb/s, PCIe 56.4 Gb/s: expect 56.4 Gb/s;"
                + " mlx5_1 ACTIVE, port 100 Gb/s, PCIe 56.4 Gb/s: expect 56.4 Gb/s"), out);
        assertTrue(out.contains("matrix: 3 hosts from SLURM_JOB_NODELIST, srun, java ib_write_bw+ib_write_lat -n 5"),
                out);
        assertTrue(out.contains("matrix: 3 rounds of 1 pair (2 rails each: up to 2 tests per round), one host idle"
                + " per round, about 36 s at 12 s per test (plus retests of flagged pairs)"), out);
        assertTrue(out.contains("node03/mlx5_0: NODE - bad with 2 of 2 peers"), out);
        assertTrue(out.contains("node01/mlx5_1: SOME_PAIRS - bad with 1 of 2 peers"), out);
        assertTrue(out.contains("bw 5.00 Gb/s < 93% of best 50.00; bw 5.00 Gb/s < 80% of link 56.4 Gb/s (also on"
                + " retest) [cause: node node03]"), out);
        assertTrue(out.contains("6 rail tests: 2 ok, 0 ok on retest, 4 flagged, 0 failed; best 50.00 Gb/s, 2.50 us;"
                + " exit 1"), out);

        List<String> rows = Files.readAllLines(csv);
        assertEquals(7, rows.size(), rows.toString());
        assertTrue(rows.stream().anyMatch(l -> l.matches("node0[12],mlx5_0,node0[12],mlx5_0,0,OK,50.000,2.500,56.4,"
                + "1,.*")), rows.toString());
        Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(json));
        Map<?, ?> plan = (Map<?, ?>) doc.get("plan");
        assertEquals("srun", plan.get("launcher"));
        Map<?, ?> node03 = (Map<?, ?>) ((Map<?, ?>) plan.get("hostInfo")).get("node03");
        assertEquals("doctor", node03.get("source"));
        Map<?, ?> nic = (Map<?, ?>) ((List<?>) node03.get("nics")).get(1);
        assertEquals("mlx5_1", nic.get("device"));
        assertEquals("0000:3b:00.1", nic.get("pci"));
        assertEquals(100.0, nic.get("portGbps"));
        assertEquals(10, ((List<?>) doc.get("attempts")).size(), "6 first attempts, 4 retests");
    }
}
