package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import io.rdmaffm.perftest.cluster.FileSink;
import io.rdmaffm.perftest.cluster.HostDiscovery;
import io.rdmaffm.perftest.cluster.HostInput;
import io.rdmaffm.perftest.cluster.Launcher;
import io.rdmaffm.perftest.cluster.LocalProcessRunner;
import io.rdmaffm.perftest.cluster.MatrixInputException;
import io.rdmaffm.perftest.cluster.MatrixNhc;
import io.rdmaffm.perftest.cluster.MatrixOutcome;
import io.rdmaffm.perftest.cluster.MatrixPlan;
import io.rdmaffm.perftest.cluster.MatrixPlanner;
import io.rdmaffm.perftest.cluster.MatrixPrometheus;
import io.rdmaffm.perftest.cluster.MatrixReport;
import io.rdmaffm.perftest.cluster.MatrixRequest;
import io.rdmaffm.perftest.cluster.MatrixRun;
import io.rdmaffm.perftest.cluster.ProcessRunner;
import io.rdmaffm.perftest.cluster.Progress;
import io.rdmaffm.perftest.health.AtomicFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code matrix}: every pair of hosts (per NIC rail) measured with the same perftest tool on both ends, launched
 * by ssh or srun. One way through the stages: the options become a frozen {@link MatrixRequest}; its hosts are
 * read once ({@link MatrixPlanner#hosts}); unless {@code --device} names the devices, each host is asked for its
 * own devices and their expected rates ({@link HostDiscovery}, giving {@link DiscoveredHosts}); the
 * {@link MatrixPlan} is made and its rounds and estimate printed; the matrix runs ({@link MatrixRun}, verdicts
 * and sinks); the report follows. Bad input is found before any test is launched (one line, exit 2). Exit status
 * as doctor's: 0 all good, 1 a pair flagged, 2 a pair failed or bad input.
 */
@Command(name = "matrix", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure every pair of hosts (per NIC rail) with the same perftest tool on both ends,"
                + " launched by ssh or srun; report outliers and which host or link is to blame.",
                "Exit status: 0 all pairs good, 1 a pair flagged, 2 a pair failed or bad input."})
public final class MatrixCommand implements Callable<Integer> {

    CommandLine.Model.CommandSpec spec;

    /** Picocli's model of this command; the options shared with fabric take their text from this command. */
    @CommandLine.Spec
    void spec(CommandLine.Model.CommandSpec spec) {
        this.spec = spec;
        spec.resourceBundle(WORDING);
    }

    /** This command's text for the options it shares with fabric ({@link HostOptions}, {@link OutputFiles}). */
    private static final OptionWording WORDING = new OptionWording(
            "hosts", "The hosts (bare names: ports and users belong in ~/.ssh/config); Slurm/pdsh ranges too:"
                    + " 'node[01-16,20]'.",
            "hostfile", "One host (or range, node[01-16]) per line; '#' comments; what follows the name (MPI's"
                    + " slots=8) is ignored.",
            "slurm", "The hosts of the Slurm allocation (SLURM_JOB_NODELIST, expanded with scontrol show"
                    + " hostnames).",
            "device", "The same RDMA devices on every host, rail i = device i. Default: each host's devices with an"
                    + " ACTIVE port 1, from its own rdma-perftest doctor.",
            "launcher", "How the ends are started. Default: ssh (BatchMode, no prompts); srun inside an allocation.",
            "tool-path", "rdma-perftest on the hosts (default: on PATH), or with --peer c the directory of the C"
                    + " binaries.",
            "listen-timeout", "How long a server may take to listen (and a host to answer before the run)."
                    + " Default: 30.",
            "test-timeout", "How long one tool run may take before the pair counts as stalled. Default: 120.",
            "max-connections", "Launcher processes alive at once (two per rail test). Default: 64.",
            "json", "Write every pair's full result and the hosts' devices here.",
            "csv", "Write one row per rail test here.");

    /** Creates the command; picocli fills in the options. */
    public MatrixCommand() {
    }

    @CommandLine.Mixin
    HostOptions hostOptions;

    @Option(names = "--quick", description = "One round in which every host is tested once (two for an odd count).")
    boolean quick;

    @Option(names = "--pairs", paramLabel = "FILE", description = "Test these pairs only: 'server client' per line.")
    Path pairs;

    @Option(names = "--launch", paramLabel = "worker|per-test", description = "worker (default): one rdma-perftest"
            + " per host and rail for the whole run, taking its tests over the launcher's session; per-test: one"
            + " launch per end and tool (hosts with an older rdma-perftest). --peer c is always per test.")
    String launch;

    @Option(names = "--peer", paramLabel = "java|c", description = "What runs on both ends: perftest-java"
            + " (rdma-perftest, default) or the hosts' C perftest.")
    String peer;

    @Option(names = "--tools", paramLabel = "TOOL,...", description = "At most one bandwidth and one latency tool."
            + " Default: ib_write_bw,ib_write_lat.")
    String tools;

    @Option(names = "--base-port", paramLabel = "PORT", description = "First TCP port of the tools' exchange (two"
            + " blocks of one port per rail are used). Default: 18515.")
    Integer basePort;

    @Option(names = "--per-test", paramLabel = "SEC", description = "How long one rail's tools take, for the"
            + " estimate printed up front. Default: 12.")
    Double perTest;

    @Option(names = "--bw-percent-of-best", paramLabel = "P", description = "Flag a bandwidth below P%% of the best"
            + " pair's; 0 switches the rule off. Default: 93.")
    Double bwPercentOfBest;

    @Option(names = "--lat-factor", paramLabel = "F", description = "Flag a latency above F times the best pair's;"
            + " 0 switches the rule off. Default: 2.1.")
    Double latFactor;

    @Option(names = "--min-percent-of-link", paramLabel = "P", description = "Flag a bandwidth below P%% of what the"
            + " slower end's NIC should carry (port rate, capped by its PCIe model; from each host's doctor).")
    Double minPercentOfLink;

    @Option(names = "--no-retest", description = "Do not retest flagged and failed pairs.")
    boolean noRetest;

    @CommandLine.Mixin
    OutputFiles outputFiles;

    /** What goes to standard output; with prometheus or nhc the report for people goes to standard error. */
    public enum Format { human, prometheus, nhc }

    @Option(names = "--format", paramLabel = "FORMAT", defaultValue = "human", description = "Standard output:"
            + " ${COMPLETION-CANDIDATES} (Prometheus text exposition per host end and pair; NHC's one line, with the"
            + " exit status). Default: human.")
    Format format;

    @Option(names = "--prom-file", paramLabel = "FILE", description = "Also write the Prometheus text here, whole"
            + " (a temporary file renamed over it), e.g. node_exporter's textfile directory/rdma_matrix.prom.")
    Path promFile;

    @Parameters(paramLabel = "TOOL-ARG", description = "After --: arguments for every tool, e.g. -- -s 65536 -n 1000.")
    List<String> toolArgs = new ArrayList<>();

    /** The environment (SLURM_JOB_NODELIST); replaced by tests. */
    Map<String, String> env = System.getenv();

    /** Starts ssh, srun and scontrol; replaced by tests (e.g. with a fake srun on PATH). */
    ProcessRunner runner = new LocalProcessRunner();

    @Override
    public Integer call() throws Exception {
        PrintWriter stdout = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        // Standard output carries only the machine format when one is asked for; the text for people still goes out.
        PrintWriter out = format == Format.human ? stdout : err;
        MatrixRequest o;
        MatrixPlan plan;
        Launcher launch;
        try {
            o = options();
            HostInput.Hosts hosts = MatrixPlanner.hosts(o, runner);
            launch = MatrixRun.launcher(o);
            DiscoveredHosts found = o.asksHosts() ? discover(o, hosts, launch, out) : DiscoveredHosts.notAsked(hosts);
            plan = MatrixPlanner.plan(o, found);
        } catch (MatrixInputException e) {
            err.println(ErrorHandler.line("matrix", e));
            err.flush();
            return ErrorHandler.EXIT_FAILURE;
        }
        out.println("matrix: " + plan.hosts().names().size() + " hosts from " + plan.hosts().source() + ", "
                + launch.name() + ", " + o.peer().name().toLowerCase(java.util.Locale.ROOT) + " " + String.join("+",
                o.tools()) + (o.toolArgs().isEmpty() ? "" : " " + String.join(" ", o.toolArgs())));
        out.println("matrix: " + plan.summary());
        for (String note : plan.notes()) {
            out.println("note: " + note);
        }
        out.println();
        out.flush();
        Console console = System.console();
        boolean terminal = console != null && console.isTerminal();
        Progress progress = terminal ? line -> {
            err.println(line);
            err.flush();
        } : Progress.none();
        MatrixOutcome outcome = new MatrixRun(plan, launch, runner,
                new FileSink(outputFiles.json, outputFiles.csv), progress).run();
        out.print(MatrixReport.text(outcome));
        String prom = format == Format.prometheus || promFile != null
                ? MatrixPrometheus.render(outcome, System.currentTimeMillis() / 1000) : null;
        if (promFile != null) {
            AtomicFiles.write(promFile, prom);
        }
        List<String> written = Stream.of(outputFiles.json, outputFiles.csv, promFile).filter(Objects::nonNull)
                .map(Path::toString).toList();
        if (!written.isEmpty()) {
            out.println("written: " + String.join(", ", written));
        }
        out.flush();
        if (format != Format.human) {
            stdout.print(format == Format.prometheus ? prom : MatrixNhc.line(outcome));
            stdout.flush();
        }
        return outcome.exitCode();
    }

    /** Asks every host for its devices and their expected rates, prints what each said and what follows. */
    private DiscoveredHosts discover(MatrixRequest o, HostInput.Hosts hosts, Launcher launch, PrintWriter out)
            throws InterruptedException {
        out.println("matrix: asking " + hosts.names().size() + " hosts for their RDMA devices (rdma-perftest doctor"
                + " --json over " + launch.name() + ")");
        out.flush();
        Map<String, HostDiscovery.HostInfo> answers = HostDiscovery.discover(hosts.names(), o, launch, runner);
        for (HostDiscovery.HostInfo h : answers.values()) {
            if (h.problem() == null) {
                List<String> nics = h.nics().stream().map(HostDiscovery.Nic::describe).toList();
                out.println("  " + h.host() + " (" + h.source() + "): " + (nics.isEmpty() ? "no RDMA device"
                        : String.join("; ", nics)));
            }
        }
        DiscoveredHosts found = HostDiscovery.apply(o, hosts, answers);
        for (String note : found.notes()) {
            out.println("note: " + note);
        }
        return found;
    }

    /** The options as the frozen {@link MatrixRequest}; what only the command line can get wrong is refused here. */
    MatrixRequest options() {
        MatrixRequest.Builder o = MatrixRequest.builder();
        List<String> original = spec.commandLine().getParseResult().originalArgs();
        if (!toolArgs.isEmpty() && !original.contains("--")) {
            throw new MatrixInputException("unexpected argument '" + toolArgs.getFirst()
                    + "': tool arguments go after --");
        }
        if (quick && pairs != null) {
            throw new MatrixInputException("give only one of --quick and --pairs");
        }
        hostOptions.applyTo(o, env);
        o.mode = quick ? MatrixRequest.Mode.QUICK : pairs != null ? MatrixRequest.Mode.PAIRS : MatrixRequest.Mode.ALL;
        o.pairsFile = pairs;
        o.launch = launch == null ? o.launch : switch (launch) {
            case "worker" -> MatrixRequest.Launch.WORKER;
            case "per-test" -> MatrixRequest.Launch.PER_TEST;
            default -> throw new MatrixInputException("--launch must be worker or per-test, got '" + launch + "'");
        };
        o.peer = peer == null ? o.peer : switch (peer) {
            case "java" -> MatrixRequest.Peer.JAVA;
            case "c" -> MatrixRequest.Peer.C;
            default -> throw new MatrixInputException("--peer must be java or c, got '" + peer + "'");
        };
        if (tools != null) {
            o.tools = List.of(tools.split(",", -1)).stream().map(String::strip).toList();
        }
        o.toolArgs = List.copyOf(toolArgs);
        o.basePort = basePort == null ? o.basePort : basePort;
        o.perTest = ClusterArguments.seconds(perTest, o.perTest, "--per-test");
        o.bwFractionOfBest = bwPercentOfBest == null ? o.bwFractionOfBest : bwPercentOfBest / 100;
        o.latFactorOfBest = latFactor == null ? o.latFactorOfBest : latFactor;
        o.minPercentOfLink = minPercentOfLink == null ? Double.NaN : minPercentOfLink;
        o.retest = !noRetest;
        outputFiles.check();
        ClusterArguments.writable(promFile, "--prom-file");
        return o.build();
    }
}
