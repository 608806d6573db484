package io.rdmaffm.perftest.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/** The planner: checks, rails, ports, the estimate printed up front. */
class PlannerTest {
    private static final ProcessRunner NO_PROCESSES = command -> {
        throw new AssertionError("the planner started " + command);
    };

    @TempDir
    Path dir;

    static MatrixRequest.Builder hosts(int n) {
        MatrixRequest.Builder o = MatrixRequest.builder();
        o.hosts = String.join(",", ScheduleTest.hosts(n));
        return o;
    }

    private static MatrixPlan plan(MatrixRequest.Builder o) {
        return MatrixPlanner.plan(o.build(), NO_PROCESSES);
    }

    /** The plan on hosts that answered with these devices and expected rates. */
    private static MatrixPlan plan(MatrixRequest.Builder o, Map<String, List<String>> devices,
            Map<String, Double> rates) {
        MatrixRequest r = o.build();
        return MatrixPlanner.plan(r, new DiscoveredHosts(MatrixPlanner.hosts(r, NO_PROCESSES), devices, rates,
                Map.of(), List.of()));
    }

    private static String error(Executable plan) {
        return assertThrows(MatrixInputException.class, plan).getMessage();
    }

    private static String error(Consumer<MatrixRequest.Builder> change) {
        MatrixRequest.Builder o = hosts(3);
        change.accept(o);
        return error(() -> plan(o));
    }

    @Test
    void summarySaysRoundsPairsAndTime() {
        assertEquals("7 rounds of 4 pairs, about 84 s at 12 s per test (plus retests of flagged pairs)",
                plan(hosts(8)).summary());
        MatrixRequest.Builder odd = hosts(9);
        odd.retest = false;
        assertEquals("9 rounds of 4 pairs, one host idle per round, about 2 min at 12 s per test",
                plan(odd).summary());
        MatrixRequest.Builder quick = hosts(5);
        quick.mode = MatrixRequest.Mode.QUICK;
        MatrixPlan q = plan(quick);
        assertTrue(q.summary().startsWith("2 rounds of up to 2 pairs, about 24 s"), q.summary());
        assertEquals(List.of("--quick with an odd number of hosts: h4 is tested with h0 in a second round"),
                q.notes());
    }

    @Test
    void railsRunInParallelWithinTheLauncherLimit() {
        MatrixRequest.Builder o = hosts(128);
        o.devices = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6", "mlx5_7");
        o.maxConnections = 256;
        MatrixPlan p = plan(o);
        // 64 pairs x 8 rails = 512 tests per round, 128 at once: 4 waves of 12 s per round, 127 rounds.
        assertEquals(Duration.ofSeconds(127 * 4 * 12), p.estimate());
        assertEquals("127 rounds of 64 pairs (8 rails each: up to 512 tests per round), rounds split in up to 4 waves"
                + " by --max-connections 256, about 1.7 h at 12 s per test (plus retests of flagged pairs)",
                p.summary());
    }

    @Test
    void railTestsPairDeviceIWithDeviceIOnDistinctPorts() {
        MatrixRequest.Builder o = hosts(4);
        o.devices = List.of("mlx5_0", "mlx5_1");
        MatrixPlan p = plan(o, Map.of("h3", List.of("mlx5_0", "mlx5_1", "mlx5_2")), Map.of());
        assertEquals(List.of("hosts have 2 to 3 devices: a pair tests the rails both have (device i with device i);"
                + " the extra NICs are not tested"), p.notes());
        List<RailTest> r0 = p.railTests(0, p.rounds().get(0));
        assertEquals(4, r0.size());
        assertEquals(new RailTest(0, "h0", "h3", 1, "mlx5_1", "mlx5_1", 18516), r0.get(1));
        // Odd rounds use the next block of ports: base + maxRails(3) + rail.
        List<RailTest> r1 = p.railTests(1, p.rounds().get(1));
        assertEquals(18518, r1.get(0).port());
        assertEquals(18519, r1.get(1).port());
        MatrixRequest.Builder dflt = hosts(2);
        RailTest only = plan(dflt).railTests(0, List.of(new Schedule.HostPair("h0", "h1")))
                .getFirst();
        assertEquals(new RailTest(0, "h0", "h1", 0, null, null, 18515), only, "no --device: the tool's default");
    }

    @Test
    void badInputIsOneLineBeforeAnyLaunch() throws Exception {
        assertEquals("no hosts: give --hosts, --hostfile or --slurm", error(() -> plan(MatrixRequest.builder())));
        assertEquals("give only one of --hosts, --hostfile and --slurm", error(o -> o.slurm = true));
        assertEquals("--device: empty device name", error(o -> o.devices = List.of("mlx5_0", "")));
        assertEquals("--device: device 'mlx5_0' is given twice", error(o -> o.devices = List.of("mlx5_0", "mlx5_0")));
        assertEquals("--device: 'mlx5_0;id' is not an RDMA device name (letters, digits, '_', '-', '.')",
                error(o -> o.devices = List.of("mlx5_0;id")));
        assertEquals("devices given for 'zz', which is not among the hosts",
                error(() -> plan(hosts(3), Map.of("zz", List.of("mlx5_0")), Map.of())));
        assertEquals("unknown tool 'ib_write' (one of ib_write_bw, ib_write_lat, ib_read_bw, ib_read_lat, ib_send_bw,"
                + " ib_send_lat, ib_atomic_bw, ib_atomic_lat)", error(o -> o.tools = List.of("ib_write")));
        assertEquals("at most one bandwidth and one latency tool, got [ib_write_bw, ib_read_bw]",
                error(o -> o.tools = List.of("ib_write_bw", "ib_read_bw")));
        assertEquals("tool argument --out_json_file is set by the matrix for each end",
                error(o -> o.toolArgs = List.of("--out_json_file=/tmp/x")));
        assertEquals("tool argument -d is set by the matrix for each end", error(o -> o.toolArgs = List.of("-d")));
        assertEquals("--tool-path '-x' is not a plain path (letters, digits, '_', '.', '+', '-', '/'; not starting"
                + " with '-')", error(o -> o.toolPath = "-x"));
        assertEquals("--tool-path 'a b' is not a plain path (letters, digits, '_', '.', '+', '-', '/'; not starting"
                + " with '-')", error(o -> o.toolPath = "a b"));
        assertEquals("--min-percent-of-link needs each NIC's expected rate", error(o -> o.minPercentOfLink = 90));
        assertEquals("--min-percent-of-link must be within 0..100, got 120.0", error(o -> o.minPercentOfLink = 120));
        assertEquals("expected rate of h0/mlx5_0 must be > 0", error(() -> {
            MatrixRequest.Builder o = hosts(3);
            o.minPercentOfLink = 90;
            plan(o, Map.of(), Map.of("h0/mlx5_0", 0.0));
        }));
        assertEquals("--max-connections must be at least 2 (a server and a client)",
                error(o -> o.maxConnections = 1));
        assertEquals("--base-port 65535 leaves no room for 2 ports (2 per rail)", error(o -> o.basePort = 65535));
        assertEquals("timeouts and --per-test must be positive", error(o -> o.testTimeout = Duration.ZERO));
        Path missing = dir.resolve("missing.txt");
        assertEquals("--hostfile " + missing + ": cannot read it (NoSuchFileException: " + missing + ")",
                error(o -> {
                    o.hosts = null;
                    o.hostfile = missing;
                }));
        Path empty = Files.writeString(dir.resolve("empty"), "# nobody\n");
        assertEquals("hostfile " + empty + ": no hosts in it", error(o -> {
            o.hosts = null;
            o.hostfile = empty;
        }));
        Path pairs = Files.writeString(dir.resolve("pairs"), "h0 h1\nh1 h9\n");
        assertEquals("pairs file " + pairs + " line 2: host 'h9' is not among the hosts of the run", error(o -> {
            o.mode = MatrixRequest.Mode.PAIRS;
            o.pairsFile = pairs;
        }));
    }

    @Test
    void scaleFiguresInTheDocsAreWhatThePlannerSays() throws Exception {
        String doc = Files.readString(Path.of("../docs/matrix-scale.md"));
        for (int n : new int[] {8, 128, 2048}) {
            for (boolean rails : new boolean[] {false, true}) {
                MatrixRequest.Builder o = hosts(n);
                o.retest = false;
                o.maxConnections = 256;
                if (rails) {
                    o.devices = List.of("mlx5_0", "mlx5_1", "mlx5_2", "mlx5_3", "mlx5_4", "mlx5_5", "mlx5_6",
                            "mlx5_7");
                }
                String s = plan(o).summary();
                assertTrue(doc.contains(s), "docs/matrix-scale.md should quote: " + s);
                o.mode = MatrixRequest.Mode.QUICK;
                String quick = plan(o).summary();
                assertTrue(doc.contains(quick), "docs/matrix-scale.md should quote: " + quick);
            }
        }
        MatrixRequest.Builder unlimited = hosts(2048);
        unlimited.retest = false;
        unlimited.maxConnections = 2048;
        String s = plan(unlimited).summary();
        assertTrue(doc.contains("`" + s + "`"), "docs/matrix-scale.md should quote: " + s);
    }
}
