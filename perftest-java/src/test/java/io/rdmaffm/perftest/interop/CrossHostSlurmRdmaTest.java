package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.doctor.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rdma-perftest matrix --slurm --launcher srun} under a real Slurm across two VMs (scripts/test.sh,
 * multihost stage): munged, slurmctld and slurmd started in the guests by scripts/vm/guest-slurm.sh, the driver
 * started by {@code salloc -N 2} (so SLURM_JOB_NODELIST and the job are Slurm's own), each end started by the
 * matrix with srun. The pair must be measured (its figure what its tool printed), and each end must have run as a
 * step of that job on its own node: the tool's wrapper writes down the Slurm variables it was started with, which
 * neither ssh nor a local start would give it.
 */
@Tag("multihost")
class CrossHostSlurmRdmaTest {
    private static final Path SETUP = RemoteHost.ROOT.resolve("scripts/vm/guest-slurm.sh");
    private static final String SLURM_CONF = "/run/rdmaffm-slurm/slurm.conf";
    /** Three JVM starts one after the other (driver, server, client): 41 to 48 s measured here. */
    private static final long BOUND_S = 360;
    private static final Pattern GRANTED = Pattern.compile("Granted job allocation (\\d+)");

    private static boolean started;

    @TempDir
    Path dir;

    /** Slurm in the guests, never elsewhere: the test starts daemons as root, which only a throwaway VM allows. */
    @BeforeAll
    static void slurmUp() throws Exception {
        RemoteHost.clusterHosts();
        Assumptions.assumeTrue("1".equals(System.getenv("RDMA_IN_VM"))
                && Files.isDirectory(Path.of("/run/rdmaffm-net")),
                "starts its own Slurm as root: only in the guests of scripts/rxe-vms.sh");
        started = true;
        assertEquals(0, run(240, "bash", SETUP.toString(), "up").code(), "guest-slurm.sh up failed");
    }

    @AfterAll
    static void slurmDown() throws Exception {
        if (started) {
            run(120, "bash", SETUP.toString(), "down");
        }
    }

    @Test
    void aMatrixInsideASallocRunsEachEndAsAStepOfTheJobOnItsNode() throws Exception {
        String device = PerftestPeers.device();
        List<String> hosts = RemoteHost.clusterHosts().subList(0, 2);
        Path steps = Files.createDirectories(RemoteHost.ROOT.resolve("perftest-java/target/slurm-vm/steps-"
                + System.nanoTime()));
        Path tool = steps.resolve("rdma-perftest");
        // C1 only, as the other cross-host tests' JVMs: under the emulated CPU, C2's compiles cost more than they win.
        Files.writeString(tool, "#!/bin/sh\necho \"$(hostname) ${SLURM_JOB_ID:--} ${SLURM_STEP_ID:--}\" > "
                + steps + "/\"$1.$(hostname).$$\"\nJDK_JAVA_OPTIONS=-XX:TieredStopAtLevel=1 exec "
                + RemoteHost.ROOT.resolve("bin/rdma-perftest") + " \"$@\"\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
        try {
            matrixBySrun(hosts, device, steps, tool);
        } finally {
            // Best effort, in the shared tree: a failure here must not hide the test's own.
            try (Stream<Path> s = Files.list(steps)) {
                for (Path f : s.toList()) {
                    Files.deleteIfExists(f);
                }
                Files.deleteIfExists(steps);
            } catch (java.io.IOException e) {
                System.out.println("could not remove " + steps + ": " + e);
            }
        }
    }

    private void matrixBySrun(List<String> hosts, String device, Path steps, Path tool) throws Exception {
        Path json = dir.resolve("m.json");
        Result r = run(BOUND_S, "salloc", "--nodes=2", "--nodelist=" + String.join(",", hosts), "--immediate=120",
                "--job-name=rdma-matrix-test", tool.toString(), "matrix", "--slurm", "--launcher", "srun",
                "--device", device, "--tools", "ib_write_bw", "--tool-path", tool.toString(), "--json",
                json.toString(), "--bw-percent-of-best", "0", "--lat-factor", "0", "--no-retest",
                "--listen-timeout", "300", "--test-timeout", "300", "--", "-s", "4096", "-n", "100", "--warmup", "0");
        String out = r.output();
        assertEquals(0, r.code(), out);
        Matcher granted = GRANTED.matcher(out);
        assertTrue(granted.find(), out);
        String job = granted.group(1);
        assertTrue(out.contains("matrix: 2 hosts from SLURM_JOB_NODELIST, srun, java ib_write_bw"), out);

        Map<?, ?> doc = (Map<?, ?>) Json.parse(Files.readString(json));
        Map<?, ?> plan = (Map<?, ?>) doc.get("plan");
        assertEquals(List.of("srun", "SLURM_JOB_NODELIST", hosts), List.of(plan.get("launcher"), plan.get("source"),
                plan.get("hosts")), plan.toString());
        MatrixOnVms.Matrix m = new MatrixOnVms.Matrix(r.code(), out, "", doc, r.seconds());
        for (Object a : (List<?>) doc.get("attempts")) {
            for (Object t : (List<?>) ((Map<?, ?>) a).get("tools")) {
                System.out.println("the client's output, as the matrix kept it:\n" + ((Map<?, ?>) t).get("output"));
            }
        }
        assertEquals(1, m.pairs().size(), out);
        Map<?, ?> p = m.pairs().getFirst();
        assertEquals("OK", p.get("status"), p.toString());
        assertNull(((Map<?, ?>) p.get("first")).get("failure"), p.toString());
        assertTrue(((Number) p.get("bwGbps")).doubleValue() > 0, p.toString());
        assertEquals(1, MatrixOnVms.checkCellsAgainstTheToolsTables(m));

        // The driver: salloc's command on this node, in the job, no step. The ends: one step of the job per node,
        // the node's matrix worker, which runs that node's ends of every test (one JVM per host for the run).
        assertEquals(List.of(hosts.getFirst() + " " + job + " -"), records(steps, "matrix"));
        assertEquals(List.of(), records(steps, "ib_write_bw"), "an end launched outside its node's worker");
        List<String> ends = records(steps, "matrix-worker");
        assertEquals(2, ends.size(), ends.toString());
        List<String> nodes = new ArrayList<>();
        List<String> stepIds = new ArrayList<>();
        for (String e : ends) {
            String[] f = e.split(" ");
            assertEquals(job, f[1], "not a step of job " + job + ": " + ends);
            assertTrue(f[2].matches("\\d+"), "not a step of job " + job + ": " + ends);
            nodes.add(f[0]);
            stepIds.add(f[2]);
        }
        assertEquals(hosts, nodes.stream().sorted().toList(), ends.toString());
        assertNotEquals(stepIds.get(0), stepIds.get(1), ends.toString());
        assertTrue(r.seconds() < BOUND_S, r.seconds() + " s");
    }

    /** What the wrapper wrote for each start of {@code first} (the tool or subcommand), sorted. */
    private static List<String> records(Path steps, String first) throws Exception {
        List<String> l = new ArrayList<>();
        try (Stream<Path> s = Files.list(steps)) {
            for (Path f : s.filter(f -> f.getFileName().toString().startsWith(first + ".")).toList()) {
                l.add(Files.readString(f).strip());
            }
        }
        l.sort(null);
        return l;
    }

    /** What {@link #run} saw. */
    record Result(int code, String output, double seconds) {
    }

    /** Runs a command here with SLURM_CONF set, its output (both streams) kept; ended after {@code seconds}. */
    static Result run(long seconds, String... command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("SLURM_CONF", SLURM_CONF);
        long start = System.nanoTime();
        Process p = pb.start();
        p.getOutputStream().close();
        StringBuilder out = new StringBuilder();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes()));
            } catch (java.io.IOException e) {
                out.append("(reading its output failed: ").append(e).append(')');
            }
        });
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            p.waitFor(30, TimeUnit.SECONDS);
            p.destroyForcibly();
        }
        reader.join(30_000);
        double s = (System.nanoTime() - start) / 1e9;
        String o;
        synchronized (out) {
            o = out.toString();
        }
        System.out.printf(Locale.ROOT, "%s (%.0f s, exit %s):%n%s%n", List.of(command), s,
                p.isAlive() ? "none" : String.valueOf(p.exitValue()), o);
        return new Result(p.isAlive() ? -1 : p.exitValue(), o, s);
    }
}
