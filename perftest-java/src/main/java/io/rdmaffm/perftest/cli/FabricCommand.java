package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import io.rdmaffm.perftest.cluster.HostDiscovery;
import io.rdmaffm.perftest.cluster.HostInput;
import io.rdmaffm.perftest.cluster.Launcher;
import io.rdmaffm.perftest.cluster.LocalProcessRunner;
import io.rdmaffm.perftest.cluster.MatrixInputException;
import io.rdmaffm.perftest.cluster.MatrixRequest;
import io.rdmaffm.perftest.cluster.ProcessRunner;
import io.rdmaffm.perftest.cluster.Progress;
import io.rdmaffm.perftest.fabric.SendRate;
import io.rdmaffm.perftest.fabric.driver.Expect;
import io.rdmaffm.perftest.fabric.driver.FabricJson;
import io.rdmaffm.perftest.fabric.driver.FabricOutcome;
import io.rdmaffm.perftest.fabric.driver.FabricPlan;
import io.rdmaffm.perftest.fabric.driver.FabricPlanner;
import io.rdmaffm.perftest.fabric.driver.FabricReport;
import io.rdmaffm.perftest.fabric.driver.FabricRequest;
import io.rdmaffm.perftest.fabric.driver.FabricRun;
import io.rdmaffm.perftest.fabric.driver.FabricVerdicts;
import io.rdmaffm.perftest.fabric.driver.LossOutliers;
import io.rdmaffm.perftest.fabric.driver.Pattern;
import io.rdmaffm.perftest.fabric.driver.RankResult;
import io.rdmaffm.perftest.fabric.driver.Sweep;
import io.rdmaffm.perftest.health.AtomicFiles;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.Console;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code fabric PATTERN}: every host (per NIC rail) loaded at once by one {@code rdma-perftest fabric-worker} per
 * host and rail, started by ssh or srun as the matrix's ends are (docs/fabric-design.md). The options become a
 * frozen {@link FabricRequest}; the hosts are read and the pattern's input checked before anything is launched
 * (one line, exit 2); unless {@code --device} names the devices, each host is asked for its devices and rates
 * ({@link HostDiscovery}); the {@link FabricPlan} is printed; every rank runs ({@link FabricRun}); the figures
 * and verdicts ({@link FabricVerdicts}) and the report follow. Exit status as matrix's: 0 all good, 1 something
 * flagged, 2 something failed or bad input.
 */
@Command(name = "fabric", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Load every host at once (per NIC rail) with a collective pattern over raw verbs, launched by"
                + " ssh or srun: an nccl-tests-style table (algbw, busbw, #wrong), each host's counters before and"
                + " after, and verdicts that name the host.",
                "Exit status: 0 all good, 1 something flagged, 2 something failed or bad input."})
public final class FabricCommand implements Callable<Integer> {

    CommandLine.Model.CommandSpec spec;

    /** Picocli's model of this command; the options shared with matrix take their text from this command. */
    @CommandLine.Spec
    void spec(CommandLine.Model.CommandSpec spec) {
        this.spec = spec;
        spec.resourceBundle(WORDING);
    }

    /** This command's text for the options it shares with matrix ({@link HostOptions}, {@link OutputFiles}). */
    private static final OptionWording WORDING = new OptionWording(
            "hosts", "The hosts, in ring order (bare names: ports and users belong in ~/.ssh/config); Slurm/pdsh"
                    + " ranges too: 'node[01-16,20]'.",
            "hostfile", "One host (or range) per line; '#' comments.",
            "slurm", "The hosts of the Slurm allocation (SLURM_JOB_NODELIST).",
            "device", "The same RDMA devices on every host, rail i = device i (each rail its own group). Default:"
                    + " each host's devices with an ACTIVE port 1, from its own rdma-perftest doctor.",
            "launcher", "How the workers are started. Default: ssh (BatchMode, no prompts).",
            "tool-path", "rdma-perftest on the hosts (default: on PATH).",
            "listen-timeout", "How long every worker may take to join (and a host to answer before the run)."
                    + " Default: 30.",
            "test-timeout", "How long the pattern, and each of its steps, may take once all joined. Default: 120.",
            "max-connections", "Launcher processes alive at once (one per rank: all ranks run at once). Default: 64.",
            "json", "Write every figure with its provenance and every rank's result here.",
            "csv", "Write one row per rank here.");

    /** Creates the command; picocli fills in the options. */
    public FabricCommand() {
    }

    @Parameters(index = "0", paramLabel = "PATTERN", description = "incast, alltoall, allreduce, allgather,"
            + " reducescatter or bisection.")
    String pattern;

    @CommandLine.Mixin
    HostOptions hostOptions;

    @Option(names = "-s", paramLabel = "BYTES", description = "allreduce, allgather, reducescatter: the whole"
            + " float32 array (a multiple of 4 x hosts); incast, alltoall, bisection: bytes per peer. K, M and G"
            + " suffixes. Default: 1M.")
    String size;

    @Option(names = {"-b", "--minbytes"}, paramLabel = "BYTES", description = "A size sweep as nccl-tests' (instead of"
            + " -s): from this size (default: -e's, or 1M), times -f while not above -e; ring patterns round each size down"
            + " to a multiple of 4 x hosts. One launch and one set of QPs for all sizes, a row per size.")
    String minBytes;

    @Option(names = {"-e", "--maxbytes"}, paramLabel = "BYTES", description = "The sweep's largest size (default:"
            + " -b's).")
    String maxBytes;

    @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", description = "The sweep's whole multiplier, at least"
            + " 2. Default: 2.")
    Long stepFactor;

    @Option(names = "--iters", paramLabel = "N", description = "Timed iterations. Default: 20.")
    Integer iters;

    @Option(names = "--warmup", paramLabel = "N", description = "Untimed iterations before them. Default: 2.")
    Integer warmup;

    @Option(names = "--no-reduce", description = "Ring patterns: move the data without adding it.")
    boolean noReduce;

    @Option(names = "--target", paramLabel = "HOST", description = "incast: the one host written to. Default: each"
            + " host in turn, a row each (--receiver, its older name, is still read).")
    String target;

    /** {@code --target}'s name before every host became the target in turn; kept for old command lines. */
    @Option(names = "--receiver", paramLabel = "HOST", hidden = true)
    String receiver;

    @Option(names = "--rate", paramLabel = "RATE", description = "incast, alltoall, bisection: each sender's cap,"
            + " its links and threads together, in bits per second with a decimal unit: 25G, 25Gb/s, 800Mbps."
            + " Above a port's rate: exit 2 before launch (the hosts are asked for their rates).")
    String rate;

    @Option(names = "--threads", paramLabel = "N", description = "Threads per worker, each with its own QP to every"
            + " peer, CQ and share of every link's bytes (at most -s bytes; ring patterns: a chunk's float32"
            + " elements). Default: 1.")
    Integer threads;

    @Option(names = "--expect", paramLabel = "none|pfc|dcqcn", description = "What the fabric is set up to do under"
            + " congestion, which decides the counter rules. Default: none (loss flagged, congestion counters"
            + " reported only).")
    String expect;

    @Option(names = "--priority", paramLabel = "P", description = "The lossless priority (0-7) whose pause and"
            + " discard counters are judged.")
    Integer priority;

    @Option(names = "--min-percent", paramLabel = "P", description = "Flag a busbw below P%% of the slowest NIC's"
            + " expected rate (from each host's doctor).")
    Double minPercent;

    @Option(names = "--slow-link-factor", paramLabel = "X", description = "Flag a link whose mean"
            + " write time is above X times the other links' median (docs/fabric.md). Default: 3.")
    Double slowLinkFactor;
    @Option(names = "--loss-outlier", paramLabel = "FACTOR[,MIN]", description = "Name the host whose"
            + " retransmissions per MiB sent are at least FACTOR times the other ranks' median, and at least MIN in"
            + " all (its link loses packets; every host retransmitting a little is the loss rule's). Default: 4,20.")
    String lossOutlier;

    @Option(names = "--port", paramLabel = "PORT", description = "The coordinator's TCP port on the first host (rail"
            + " i: PORT + i). Default: 18515.")
    Integer port;

    @CommandLine.Mixin
    OutputFiles outputFiles;

    /** The environment (SLURM_JOB_NODELIST); replaced by tests. */
    Map<String, String> env = System.getenv();

    /** Starts ssh, srun and scontrol; replaced by tests. */
    ProcessRunner runner = new LocalProcessRunner();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        FabricRequest o;
        FabricPlan plan;
        Launcher launch;
        try {
            o = options();
            HostInput.Hosts hs = FabricPlanner.hosts(o, runner);
            launch = FabricRun.launcher(o.hosts());
            boolean ask = o.hosts().devices().isEmpty() || !Double.isNaN(o.minPercent()) || o.rate() != null;
            DiscoveredHosts found = ask ? discover(o, hs, launch, out) : DiscoveredHosts.notAsked(hs);
            plan = FabricPlanner.plan(o, found);
        } catch (MatrixInputException e) {
            err.println(ErrorHandler.line("fabric", e));
            err.flush();
            return ErrorHandler.EXIT_FAILURE;
        }
        out.println("fabric: " + plan.n() + " hosts from " + plan.discovered().hosts().source() + ", " + launch.name());
        out.println("fabric: " + plan.summary());
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
        List<RankResult> ranks = new FabricRun(plan, launch, runner, progress).run();
        FabricOutcome outcome = FabricVerdicts.judge(plan, ranks);
        Path json = outputFiles.json;
        Path csv = outputFiles.csv;
        if (json != null) {
            AtomicFiles.write(json, FabricJson.write(outcome));
        }
        if (csv != null) {
            StringWriter w = new StringWriter();
            FabricReport.csv(outcome, w);
            AtomicFiles.write(csv, w.toString());
        }
        out.print(FabricReport.text(outcome));
        List<String> written = Stream.of(json, csv).filter(Objects::nonNull).map(Path::toString).toList();
        if (!written.isEmpty()) {
            out.println("written: " + String.join(", ", written));
        }
        out.flush();
        return outcome.exitCode();
    }

    private DiscoveredHosts discover(FabricRequest o, HostInput.Hosts hs, Launcher launch, PrintWriter out)
            throws InterruptedException {
        out.println("fabric: asking " + hs.names().size() + " hosts for their RDMA devices (rdma-perftest doctor"
                + " --json over " + launch.name() + ")");
        out.flush();
        Map<String, HostDiscovery.HostInfo> answers = HostDiscovery.discover(hs.names(), o.hosts(), launch, runner);
        for (HostDiscovery.HostInfo h : answers.values()) {
            if (h.problem() == null) {
                List<String> nics = h.nics().stream().map(HostDiscovery.Nic::describe).toList();
                out.println("  " + h.host() + " (" + h.source() + "): " + (nics.isEmpty() ? "no RDMA device"
                        : String.join("; ", nics)));
            }
        }
        DiscoveredHosts found = HostDiscovery.apply(o.hosts(), hs, answers);
        for (String note : found.notes()) {
            out.println("note: " + note);
        }
        return found;
    }

    private static long size(String option, String text) {
        try {
            return ParameterRules.parseCollectiveSize(text);
        } catch (InvalidParameterException e) {
            throw new MatrixInputException(option + ": " + e.getMessage());
        }
    }

    /** The options as the frozen request; what only the command line can get wrong is refused here. */
    FabricRequest options() {
        FabricRequest.Builder f = FabricRequest.builder();
        MatrixRequest.Builder o = f.hosts;
        f.pattern = Pattern.of(pattern);
        if (f.pattern == null) {
            throw new MatrixInputException("unknown pattern '" + io.rdmaffm.perftest.cluster.Names.printable(pattern)
                    + "' (one of " + Pattern.names() + ")");
        }
        hostOptions.applyTo(o, env);
        if (size != null) {
            f.bytes = size("-s", size);
        }
        if (minBytes != null || maxBytes != null || stepFactor != null) {
            if (size != null) {
                throw new MatrixInputException("-s is one size, -b/-e/-f a sweep: give one or the other");
            }
            long min = minBytes != null ? size("-b", minBytes) : maxBytes != null ? size("-e", maxBytes) : f.bytes;
            long max = maxBytes != null ? size("-e", maxBytes) : min;
            f.sweep = new Sweep(min, max, stepFactor == null ? 2 : stepFactor);
        }
        f.iters = iters == null ? f.iters : iters;
        f.warmup = warmup == null ? f.warmup : warmup;
        f.reduce = !noReduce;
        if (target != null && receiver != null && !target.equals(receiver)) {
            throw new MatrixInputException("--target and --receiver (its older name) name different hosts");
        }
        f.receiver = target != null ? target : receiver;
        f.threads = threads == null ? f.threads : threads;
        if (rate != null) {
            try {
                f.rate = SendRate.parse(rate);
            } catch (IllegalArgumentException e) {
                throw new MatrixInputException(e.getMessage());
            }
        }
        if (expect != null) {
            f.expect = Expect.of(expect);
            if (f.expect == null) {
                throw new MatrixInputException("--expect must be none, pfc or dcqcn, got '"
                        + io.rdmaffm.perftest.cluster.Names.printable(expect) + "'");
            }
        }
        f.priority = priority;
        f.minPercent = minPercent == null ? Double.NaN : minPercent;
        f.slowLinkFactor = slowLinkFactor == null ? f.slowLinkFactor : slowLinkFactor;
        if (lossOutlier != null) {
            try {
                f.lossOutliers = LossOutliers.Rule.parse(lossOutlier);
            } catch (IllegalArgumentException e) {
                throw new MatrixInputException("--loss-outlier: " + io.rdmaffm.perftest.cluster.Names.printable(
                        e.getMessage()));
            }
        }
        f.port = port == null ? f.port : port;
        outputFiles.check();
        f.json = outputFiles.json;
        f.csv = outputFiles.csv;
        return f.build();
    }
}
