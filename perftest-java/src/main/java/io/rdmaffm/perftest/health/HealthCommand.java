package io.rdmaffm.perftest.health;

import io.rdmaffm.perftest.doctor.DcbPfcProbe;
import io.rdmaffm.perftest.doctor.Doctor;
import io.rdmaffm.perftest.doctor.DoctorReport;
import io.rdmaffm.perftest.doctor.PfcProbe;
import io.rdmaffm.perftest.validate.Loopback;
import io.rdmaffm.perftest.validate.LoopbackPair;
import io.rdmaffm.perftest.validate.LoopbackOptions;
import io.rdmaffm.perftest.validate.Settings;
import io.rdmaffm.perftest.validate.Thresholds;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.stream.Stream;

/**
 * {@code health}: the node check for Slurm's HealthCheckProgram, NHC and node_exporter. Parse (options, node-types
 * file, state file, output paths: any problem is one line and exit 2, before anything is measured), then the
 * doctor and the loopback runs ({@link HealthJudge}), hysteresis ({@link Hysteresis}), the outputs, and
 * {@code --drain}. Exit 0 PASS, 1 FAIL, 2 bad input.
 */
@Command(name = "health",
        mixinStandardHelpOptions = true,
        description = {"Node health check: the doctor's checks and a loopback ib_write_bw per HCA against the "
                + "thresholds of a node type (see docs/health.md), with retries and hysteresis. Fail-closed: a "
                + "check that could not measure fails.",
                "Exit status: 0 PASS, 1 FAIL, 2 bad input (a node-types problem, an unknown node type or HCA, an "
                        + "unwritable output)."})
public final class HealthCommand implements Callable<Integer> {
    /** Output formats on standard output. */
    public enum Format { human, json, prometheus, nhc }

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli fills in the options. */
    public HealthCommand() {
    }

    @Option(names = "--node-types", paramLabel = "FILE", required = true,
            description = "The node types and their thresholds ([type] sections; docs/health.md).")
    Path nodeTypes;

    @Option(names = "--node-type", paramLabel = "NAME",
            description = "The node type to judge by (default: the first whose 'match' globs match the node name).")
    String nodeType;

    @Option(names = "--node-name", paramLabel = "NAME",
            description = "This node's name, for matching, output and --drain (default: $SLURMD_NODENAME, else the "
                    + "short host name).")
    String nodeName;

    @Option(names = "--hca", paramLabel = "NAME", description = "Check only this HCA.")
    String hca;

    @Option(names = "--retries", paramLabel = "N", defaultValue = "1",
            description = "Loopback runs made again (0..10) after one below the threshold or failed. Default: ${DEFAULT-VALUE}")
    int retries;

    @Option(names = "--hysteresis", paramLabel = "K", defaultValue = "1",
            description = "The node FAILs only after K failing runs in a row, and PASSes again only after K passing "
                    + "runs (1..100; above 1 needs --state). Default: ${DEFAULT-VALUE}")
    int hysteresis;

    @Option(names = "--state", paramLabel = "FILE",
            description = "Where hysteresis keeps the node's state between runs (e.g. /var/lib/rdma-ffm/health.state).")
    Path state;

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "human",
            description = "Standard output: ${COMPLETION-CANDIDATES}. Default: ${DEFAULT-VALUE}")
    Format format;

    @Option(names = "--prom-file", paramLabel = "FILE",
            description = "Also write the Prometheus text to FILE, atomically (node_exporter's textfile collector).")
    Path promFile;

    @Option(names = "--drain",
            description = "On FAIL, drain this node in Slurm with the reason (scontrol update State=DRAIN).")
    boolean drain;

    @Option(names = "--scontrol", paramLabel = "PATH", defaultValue = "scontrol", hidden = true,
            description = "The scontrol to run (tests).")
    String scontrol;

    @CommandLine.Mixin
    LoopbackOptions loopback;

    @Option(names = "--sysfs-root", paramLabel = "DIR", defaultValue = "/", hidden = true,
            description = "Read sys/ below DIR (a captured tree, for tests).")
    Path sysfsRoot;

    @Option(names = "--debug", description = "Print stack traces of unexpected errors.")
    boolean debug;

    /** Replaced by tests: how a port is measured, given the settings and a directory for the runs. */
    BiFunction<Settings, Path, Loopback> loopbacks = LoopbackPair::new;

    /** Replaced by tests; by default dcb is asked only about the live host. */
    PfcProbe pfcProbe;

    @Override
    public Integer call() throws Exception {
        Settings settings;
        NodeType type;
        Topology topo;
        List<String> hcas;
        Hysteresis before;
        String node;
        try {
            if (retries < 0 || retries > 10) {
                throw new IllegalArgumentException("--retries must be 0..10, got " + retries);
            }
            if (hysteresis < 1 || hysteresis > 100) {
                throw new IllegalArgumentException("--hysteresis must be 1..100, got " + hysteresis);
            }
            if (hysteresis > 1 && state == null) {
                throw new IllegalArgumentException("--hysteresis " + hysteresis + " needs --state FILE to count runs in");
            }
            settings = loopback.settings(Thresholds.DEFAULTS);
            if (!Files.isDirectory(sysfsRoot)) {
                throw new IllegalArgumentException("--sysfs-root " + sysfsRoot + " is not a directory");
            }
            if (promFile != null) {
                AtomicFiles.requireWritable("--prom-file", promFile);
            }
            before = null;
            if (state != null) {
                before = Hysteresis.read(state);
                AtomicFiles.requireWritable("--state", state);
            }
            node = nodeName != null ? nodeName : NodeName.local();
            type = NodeTypes.read(nodeTypes).select(nodeType, node);
            topo = Topology.read(new Sysfs(sysfsRoot));
            hcas = HealthJudge.hcas(topo, type, hca);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path runs = Files.createTempDirectory("rdma-health");
        List<HcaResult> results;
        try {
            DoctorReport doctor = Doctor.examine(topo, null, pfc());
            results = new HealthJudge(topo, doctor, type, loopbacks.apply(settings, runs), retries, sysfsRoot)
                    .judge(hcas);
        } finally {
            removeRuns(runs);
        }
        boolean raw = results.stream().allMatch(HcaResult::passed);
        Hysteresis after = before == null ? new Hysteresis(raw, 0) : before.next(raw, hysteresis);
        HealthReport report = new HealthReport(node, type.name(), results, after, hysteresis,
                System.currentTimeMillis() / 1000);
        if (state != null) {
            after.write(state);
        }
        if (promFile != null) {
            AtomicFiles.write(promFile, PrometheusText.render(report));
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(switch (format) {
            case human -> HealthText.human(report);
            case json -> HealthText.json(report);
            case prometheus -> PrometheusText.render(report);
            case nhc -> HealthText.nhc(report);
        });
        out.flush();
        if (drain && !report.passed()) {
            String problem = new SlurmDrain(scontrol).drain(node, HealthText.reason(report));
            PrintWriter err = spec.commandLine().getErr();
            err.println(problem == null ? "health: drained " + node + " in Slurm" : "health: could not drain " + node
                    + ": " + problem);
            err.flush();
        }
        return report.exitCode();
    }

    private PfcProbe pfc() throws IOException {
        return pfcProbe != null ? pfcProbe : DcbPfcProbe.forSysfsRoot(sysfsRoot);
    }

    /** The loopback runs leave their JSON documents in {@code dir}, flat: nothing of them is kept. */
    private static void removeRuns(Path dir) throws IOException {
        try (Stream<Path> docs = Files.list(dir)) {
            for (Path doc : docs.toList()) {
                Files.deleteIfExists(doc);
            }
        }
        Files.deleteIfExists(dir);
    }
}
