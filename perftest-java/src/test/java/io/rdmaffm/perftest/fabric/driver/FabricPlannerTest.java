package io.rdmaffm.perftest.fabric.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import io.rdmaffm.perftest.cluster.HostDiscovery;
import io.rdmaffm.perftest.cluster.HostInput;
import io.rdmaffm.perftest.cluster.MatrixInputException;
import io.rdmaffm.perftest.fabric.SendRate;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The plan: ranks per host and rail, the workers' command lines as the contract fixes them, the refusals. */
class FabricPlannerTest {

    @Test
    void threeHostsTwoRailsAreSixRanksEachRailItsOwnCoordinator() {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = "h1,h2,h3";
        b.hosts.devices = List.of("mlx5_0", "mlx5_1");
        b.pattern = Pattern.ALLREDUCE;
        b.bytes = 12288;
        b.iters = 3;
        FabricPlan p = FabricPlanner.plan(b.build(), io.rdmaffm.perftest.cluster.DiscoveredHosts.notAsked(
                io.rdmaffm.perftest.cluster.HostInput.fromList("h1,h2,h3")));
        assertEquals(2, p.rails());
        assertEquals(6, p.ranks().size());
        assertEquals(new FabricPlan.Rank(1, 2, "h3", "mlx5_1"), p.ranks().get(5));
        assertEquals("h1:18516", p.coordinator(1));
        assertEquals(4, p.steps());
        assertEquals(List.of("fabric-worker", "--pattern", "allreduce", "--rank", "2", "--ranks", "3", "--coordinator",
                "h1:18516", "-d", "mlx5_1", "-s", "12288", "--iters", "3", "--warmup", "2", "--join-timeout", "30",
                "--step-timeout", "120", "--threads", "1"), p.workerArgv(p.ranks().get(5)));
        assertEquals("allreduce over 3 hosts x 2 rails = 6 ranks, all at once; S = 12288 B of float32 (chunk 4096 B),"
                + " 4 steps per rank; 3 iterations after 2 warm-up; coordinator h1:18515 (port + rail); results within"
                + " 175 s", p.summary());
        assertEquals(Duration.ofSeconds(10 + 30 + 120 + 15), p.deadline());
    }

    /**
     * {@code --rate} against the port rates the hosts told of, before launch; the workers get it exactly, and the plan
     * line says it.
     */
    @Test
    void aRateAboveAPortTheHostsToldOfIsRefusedBeforeLaunch() {
        Map<String, HostDiscovery.HostInfo> answers = new java.util.LinkedHashMap<>();
        answers.put("a", new HostDiscovery.HostInfo("a", "doctor", List.of(new HostDiscovery.Nic("rxe0", "ACTIVE",
                100.0, null, null, null)), null));
        answers.put("b", new HostDiscovery.HostInfo("b", "sysfs", List.of(new HostDiscovery.Nic("rxe0", "ACTIVE",
                2.5, null, null, null)), null));
        DiscoveredHosts found = new DiscoveredHosts(HostInput.fromList("a,b"), Map.of(), Map.of(), answers, List.of());
        MatrixInputException e = assertThrows(MatrixInputException.class,
                () -> FabricPlanner.plan(rated("10G"), found));
        assertEquals("--rate 10 Gb/s is above the port rate of b rxe0 port 1 (2.5 Gb/s)", e.getMessage());
        FabricPlan p = FabricPlanner.plan(rated("2.5Gbps"), found);
        List<String> argv = p.workerArgv(p.ranks().get(1));
        assertEquals(List.of("--rate", "2.5Gb/s"), argv.subList(argv.size() - 2, argv.size()));
        assertTrue(p.summary().contains("1 senders to a, each sender at most 2.5 Gb/s;"), p.summary());
        // The receiver sends nothing: its slower port is what an incast is for.
        DiscoveredHosts slowTarget = new DiscoveredHosts(HostInput.fromList("a,b"), Map.of(), Map.of(),
                Map.of("a", answers.get("b"), "b", answers.get("a")), List.of());
        FabricPlanner.plan(rated("10G"), slowTarget);
        // Rotating (no --target), every host sends in some case: the slower port is a sender's too.
        assertEquals("--rate 10 Gb/s is above the port rate of a rxe0 port 1 (2.5 Gb/s)", assertThrows(
                MatrixInputException.class, () -> FabricPlanner.plan(rated("10G", null), slowTarget)).getMessage());
        // A host that did not tell its rate is its worker's to check.
        FabricPlanner.plan(rated("10G"), new DiscoveredHosts(HostInput.fromList("a,b"), Map.of(), Map.of(),
                Map.of("a", answers.get("a")), List.of()));
    }

    /** Incast from b into a ({@code --target a}) at {@code rate} per sender. */
    private static FabricRequest rated(String rate) {
        return rated(rate, "a");
    }

    /** Incast at {@code rate} per sender into {@code target}, or into every host in turn (null). */
    private static FabricRequest rated(String rate, String target) {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = "a,b";
        b.hosts.devices = List.of("rxe0");
        b.pattern = Pattern.INCAST;
        b.bytes = 4096;
        b.receiver = target;
        b.rate = SendRate.parse(rate);
        return b.build();
    }

    @Test
    void incastNamesItsReceiverByRankAndDefaultDeviceLeavesOutDashD() {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = "h1,h2,h3,h4";
        b.pattern = Pattern.INCAST;
        b.receiver = "h3";
        b.reduce = false;
        FabricPlan p = FabricPlanner.plan(b.build(), io.rdmaffm.perftest.cluster.DiscoveredHosts.notAsked(
                io.rdmaffm.perftest.cluster.HostInput.fromList("h1,h2,h3,h4")));
        assertEquals(1, p.rails());
        assertNull(p.ranks().getFirst().device());
        assertEquals(2, p.receiver());
        assertEquals(List.of("fabric-worker", "--pattern", "incast", "--rank", "0", "--ranks", "4", "--coordinator",
                "h1:18515", "-s", "1048576", "--iters", "20", "--warmup", "2", "--no-reduce", "--receiver", "2",
                "--join-timeout", "30", "--step-timeout", "120", "--threads", "1"), p.workerArgv(p.ranks().getFirst()));
        assertEquals("incast over 4 hosts x 1 rail = 4 ranks, all at once; m = 1048576 B per peer, 3 senders to h3;"
                + " 20 iterations after 2 warm-up, no reduction; coordinator h1:18515; results within 175 s",
                p.summary());
    }

    @Test
    void badInputIsOneLineBeforeAnythingRuns() {
        // Every pattern needs two hosts, as the matrix does: its host input says so first.
        assertEquals("--hosts: at least two hosts are needed (matrix, fabric), got 1 (h1)",
                refused("h1", b -> b.pattern = Pattern.ALLREDUCE));
        assertEquals("--hosts: at least two hosts are needed (matrix, fabric), got 1 (h1)",
                refused("h1", b -> b.pattern = Pattern.BISECTION));
        assertEquals("-s 1000 is not a multiple of 4n = 12 (allgather splits the float32 array into 3 equal chunks)",
                refused("a,b,c", b -> {
                    b.pattern = Pattern.ALLGATHER;
                    b.bytes = 1000;
                }));
        assertEquals("--target 'zz' is not among the hosts", refused("a,b,c", b -> {
            b.pattern = Pattern.INCAST;
            b.receiver = "zz";
        }));
        assertEquals("--target is for incast only", refused("a,b,c", b -> {
            b.pattern = Pattern.ALLTOALL;
            b.receiver = "a";
        }));
        assertEquals("--expect must be none, pfc or dcqcn", refused("a,b", b -> {
            b.pattern = Pattern.ALLTOALL;
            b.expect = null;
        }));
        assertEquals("--threads 3: each thread takes a share of every chunk's float32 elements, and -s 24 over 3"
                + " ranks has 2 per chunk", refused("a,b,c", b -> {
                    b.pattern = Pattern.ALLREDUCE;
                    b.bytes = 24;
                    b.threads = 3;
                }));
        assertEquals("--threads must be at least 1, not 0", refused("a,b,c", b -> {
            b.pattern = Pattern.ALLTOALL;
            b.threads = 0;
        }));
        // Two threads on 2 bytes per link: accepted, and every worker is told.
        FabricPlan two = FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.BISECTION;
            b.bytes = 2;
            b.threads = 2;
        }, Map.of());
        List<String> argv = two.workerArgv(two.ranks().getFirst());
        assertEquals("2", argv.get(argv.indexOf("--threads") + 1));
        // Not a multiple for ring patterns only: alltoall's m is per peer.
        FabricFixtures.plan("a,b,c", b -> {
            b.pattern = Pattern.ALLTOALL;
            b.bytes = 1000;
        }, Map.of());
    }

    private static String refused(String hosts, java.util.function.Consumer<FabricRequest.Builder> options) {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = hosts;
        options.accept(b);
        FabricRequest o = b.build();
        return assertThrows(MatrixInputException.class, () -> FabricPlanner.hosts(o, command -> {
            throw new java.io.IOException("runs nothing");
        })).getMessage();
    }

    private static FabricRequest req(String hosts, java.util.function.Consumer<FabricRequest.Builder> options) {
        FabricRequest.Builder b = FabricRequest.builder();
        b.hosts.hosts = hosts;
        options.accept(b);
        return b.build();
    }

    private static io.rdmaffm.perftest.cluster.DiscoveredHosts found(String hosts) {
        return io.rdmaffm.perftest.cluster.DiscoveredHosts.notAsked(io.rdmaffm.perftest.cluster.HostInput.fromList(
                hosts));
    }

    @Test
    void aSweepIsNcclTestsSizesRoundedForThePattern() {
        Sweep s = new Sweep(8, 1 << 10, 4);
        assertEquals(java.util.List.of(8L, 32L, 128L, 512L), s.raw(), "from -b, times -f, not above -e");
        assertEquals(java.util.List.of(8L, 32L, 128L, 512L), s.sizes(Pattern.ALLTOALL, 3), "bytes per peer: as is");
        // allreduce on 3 hosts: multiples of 12, rounded down as nccl-tests rounds its counts; 8 rounds to nothing.
        assertEquals("-b/-e: size 8 rounds to 0 for allreduce on 3 hosts (at least 4n = 12 bytes: one float32"
                + " element per chunk)", assertThrows(MatrixInputException.class,
                () -> s.sizes(Pattern.ALLREDUCE, 3)).getMessage());
        assertEquals(java.util.List.of(24L, 120L), new Sweep(30, 400, 4).sizes(Pattern.ALLREDUCE, 3), "30, 120 rounded");
        assertEquals(java.util.List.of(12L, 24L), new Sweep(12, 24, 2).sizes(Pattern.ALLGATHER, 3));
        // sizes that round to the same are run once
        assertEquals(java.util.List.of(12L), new Sweep(13, 23, 2).sizes(Pattern.ALLREDUCE, 3));
        assertEquals(java.util.List.of(1L << 30), new Sweep(1L << 30, 1L << 30, 2).raw(), "-b = -e: one size");
        assertEquals(java.util.List.of(1L << 62), new Sweep(1L << 62, Long.MAX_VALUE, 2).raw(), "no overflow");
        assertThrows(MatrixInputException.class, () -> new Sweep(16, 8, 2));
        assertThrows(MatrixInputException.class, () -> new Sweep(8, 16, 1));
        assertThrows(MatrixInputException.class, () -> new Sweep(0, 16, 2));
    }

    @Test
    void incastRotatesUnlessATargetIsGivenAndEveryCaseIsASizeAndATarget() {
        FabricPlan p = FabricPlanner.plan(req("a,b,c", b -> {
            b.pattern = Pattern.INCAST;
            b.sweep = new Sweep(4096, 8192, 2);
        }), found("a,b,c"));
        assertTrue(p.rotates());
        assertEquals(java.util.List.of(new FabricPlan.Case(4096, 0), new FabricPlan.Case(4096, 1),
                new FabricPlan.Case(4096, 2), new FabricPlan.Case(8192, 0), new FabricPlan.Case(8192, 1),
                new FabricPlan.Case(8192, 2)), p.cases());
        assertTrue(p.workerArgv(p.ranks().get(1)).containsAll(java.util.List.of("--sizes", "4096,8192", "--rotate")));
        assertTrue(p.receives(1) && p.sends(1), "rotating: every rank both");
        FabricPlan fixed = FabricPlanner.plan(req("a,b,c", b -> {
            b.pattern = Pattern.INCAST;
            b.receiver = "b";
        }), found("a,b,c"));
        assertEquals(java.util.List.of(new FabricPlan.Case(1 << 20, 1)), fixed.cases());
        assertTrue(fixed.receives(1) && !fixed.sends(1) && fixed.sends(0) && !fixed.receives(0));
        assertEquals(java.util.List.of(new FabricPlan.Case(1 << 20, -1)), FabricPlanner.plan(req("a,b,c",
                b -> b.pattern = Pattern.ALLTOALL), found("a,b,c")).cases());
    }
}
