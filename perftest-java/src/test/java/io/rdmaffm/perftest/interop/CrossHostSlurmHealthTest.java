package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code health --drain} under a real Slurm across two VMs (scripts/test.sh, multihost stage; Slurm started by
 * scripts/vm/guest-slurm.sh): each node runs the check as a step of its own job (so the node name is Slurm's
 * SLURMD_NODENAME and scontrol reaches the controller as a HealthCheckProgram would), one against a threshold rxe
 * cannot reach and one against a threshold it passes. The first must be drained with the check's reason, the
 * second must not. The drained node is resumed afterwards.
 */
@Tag("multihost")
class CrossHostSlurmHealthTest {
    private static final Path SETUP = RemoteHost.ROOT.resolve("scripts/vm/guest-slurm.sh");
    /** Two JVM starts in parallel, each a short loopback run on the emulated CPU. */
    private static final long BOUND_S = 300;
    private static final Pattern REASON = Pattern.compile("Reason=(.*?) \\[");

    private static boolean started;

    @BeforeAll
    static void slurmUp() throws Exception {
        RemoteHost.clusterHosts();
        Assumptions.assumeTrue("1".equals(System.getenv("RDMA_IN_VM"))
                && Files.isDirectory(Path.of("/run/rdmaffm-net")),
                "starts its own Slurm as root: only in the guests of scripts/rxe-vms.sh");
        started = true;
        assertEquals(0, CrossHostSlurmRdmaTest.run(240, "bash", SETUP.toString(), "up").code(),
                "guest-slurm.sh up failed");
    }

    @AfterAll
    static void slurmDown() throws Exception {
        if (started) {
            CrossHostSlurmRdmaTest.run(120, "bash", SETUP.toString(), "down");
        }
    }

    @Test
    void aFailingNodeIsDrainedWithTheReasonAndAHealthyOneIsNot() throws Exception {
        String device = PerftestPeers.device();
        List<String> hosts = RemoteHost.clusterHosts().subList(0, 2);
        String sick = hosts.get(0);
        String healthy = hosts.get(1);
        Path dir = Files.createDirectories(RemoteHost.ROOT.resolve("perftest-java/target/slurm-vm/health-"
                + System.nanoTime()));
        Path types = Files.writeString(dir.resolve("node-types.conf"),
                "[unreachable]\nhca.*.min_gbps = 10000\n[reachable]\nhca.*.min_gbps = 0.001\n");
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<CrossHostSlurmRdmaTest.Result> onSick = ex.submit(check(sick, "unreachable", types, device));
            Future<CrossHostSlurmRdmaTest.Result> onHealthy = ex.submit(check(healthy, "reachable", types, device));
            CrossHostSlurmRdmaTest.Result s = onSick.get();
            CrossHostSlurmRdmaTest.Result h = onHealthy.get();
            assertEquals(1, s.code(), s.output());
            assertTrue(s.output().contains("ERROR: rdma-ffm health: " + device + " bandwidth: "), s.output());
            assertTrue(s.output().contains("below min 10000.0 Gb/s (best of 1 run)"), s.output());
            assertTrue(s.output().contains("health: drained " + sick + " in Slurm"), s.output());
            assertEquals(0, h.code(), h.output());
            assertTrue(h.output().contains("OK: rdma-ffm health: " + healthy + " [reachable] 1 HCA(s) passed"),
                    h.output());

            String sickNode = node(sick);
            assertTrue(sickNode.matches("(?s).*State=\\S*DRAIN.*"), sickNode);
            Matcher reason = REASON.matcher(sickNode);
            assertTrue(reason.find(), sickNode);
            assertTrue(reason.group(1).startsWith("rdma-ffm health: " + device + " bandwidth: ")
                    && reason.group(1).contains("below min 10000.0 Gb/s"), reason.group(1));
            String healthyNode = node(healthy);
            assertFalse(healthyNode.contains("DRAIN"), healthyNode);
            assertFalse(healthyNode.contains("rdma-ffm health"), healthyNode);
        } finally {
            CrossHostSlurmRdmaTest.run(60, "scontrol", "update", "NodeName=" + sick, "State=RESUME");
            for (Path f : List.of(types, dir)) {
                Files.deleteIfExists(f);
            }
        }
    }

    /** The check as a step on {@code host}: --drain, the node's name left to SLURMD_NODENAME. */
    private static Callable<CrossHostSlurmRdmaTest.Result> check(String host, String type, Path types, String device) {
        return () -> CrossHostSlurmRdmaTest.run(BOUND_S, "srun", "--nodes=1", "--nodelist=" + host,
                "--immediate=120", "--job-name=rdma-health-test", "env", "JDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1",
                RemoteHost.ROOT.resolve("bin/rdma-perftest").toString(), "health", "--node-types", types.toString(),
                "--node-type", type, "--hca", device, "-D", "3", "--warmup", "50", "--retries", "0", "--format", "nhc",
                "--drain");
    }

    private static String node(String name) throws Exception {
        CrossHostSlurmRdmaTest.Result r = CrossHostSlurmRdmaTest.run(60, "scontrol", "show", "node", name);
        assertEquals(0, r.code(), r.output());
        return r.output();
    }
}
