package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.report.html.ReportPage;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.validate.Expectation;
import io.rdmaffm.perftest.validate.Loopback;
import io.rdmaffm.perftest.validate.LoopbackOptions;
import io.rdmaffm.perftest.validate.LoopbackPair;
import io.rdmaffm.perftest.validate.PortResult;
import io.rdmaffm.perftest.validate.Settings;
import io.rdmaffm.perftest.validate.Thresholds;
import io.rdmaffm.perftest.validate.ValidateText;
import io.rdmaffm.perftest.validate.Validator;
import io.rdmaffm.verbs.topology.Sysfs;
import io.rdmaffm.verbs.topology.Topology;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * {@code validate}: a loopback {@code ib_write_bw} on each port, one direction and both, against the smaller of the
 * port rate and the doctor's PCIe model. Exit status as the doctor's: 0 all OK (or N/A), 1 worst WARN, 2 any FAIL
 * or bad input.
 */
@Command(name = "validate",
        mixinStandardHelpOptions = true,
        description = {"Measure each RDMA port with a loopback ib_write_bw (one direction and both) and compare it "
                + "with min(port rate, the doctor's modelled PCIe throughput). Soft-RoCE ports (rxe, siw) are "
                + "virtual: measured, verdict OK flagged virtual, nothing expected.",
                "Exit status: 0 all OK, 1 worst is WARN, 2 any FAIL or bad input."})
public final class ValidateCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli fills in the options. */
    public ValidateCommand() {
    }

    @Option(names = {"-d", "--device"}, paramLabel = "NAME", description = "Validate only this RDMA device.")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "Validate only this port.")
    Integer port;

    @CommandLine.Mixin
    LoopbackOptions loopback;

    @Option(names = "--ok-at", paramLabel = "PERCENT", defaultValue = "" + Thresholds.DEFAULT_OK,
            description = "OK at or above this percent of expected. Default: ${DEFAULT-VALUE}")
    double okAt;

    @Option(names = "--warn-at", paramLabel = "PERCENT", defaultValue = "" + Thresholds.DEFAULT_WARN,
            description = "WARN at or above this percent of expected, FAIL below. Default: ${DEFAULT-VALUE}")
    double warnAt;

    @Option(names = "--json", description = "Print the results as JSON (schema " + ValidateText.SCHEMA
            + ", see docs/validate.md).")
    boolean json;

    @Option(names = "--report", paramLabel = "FILE", description = "Also write the HTML report of the runs.")
    Path report;

    @Option(names = "--runs-dir", paramLabel = "DIR",
            description = "Keep the runs' JSON documents in DIR (default: a temporary directory, removed).")
    Path runsDir;

    @Option(names = "--sysfs-root", paramLabel = "DIR", defaultValue = "/", hidden = true,
            description = "Read sys/ below DIR (a captured tree, for tests).")
    Path sysfsRoot;

    @Option(names = "--debug", description = "Print stack traces of unexpected errors.")
    boolean debug;

    /** Replaced by tests: how a port is measured, given the settings and the runs' directory. */
    Function<Settings, Function<Path, Loopback>> loopbacks = s -> dir -> new LoopbackPair(s, dir);

    @Override
    public Integer call() throws Exception {
        Settings settings;
        List<Expectation> ports;
        Topology topo;
        try {
            settings = loopback.settings(new Thresholds(okAt, warnAt));
            if (!Files.isDirectory(sysfsRoot)) {
                throw new IllegalArgumentException("--sysfs-root " + sysfsRoot + " is not a directory");
            }
            if (report != null && report.toAbsolutePath().getParent() != null
                    && !Files.isDirectory(report.toAbsolutePath().getParent())) {
                throw new IllegalArgumentException("--report " + report + ": no such directory");
            }
            topo = Topology.read(new Sysfs(sysfsRoot));
            ports = Validator.ports(topo, device, port, sysfsRoot);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        boolean temporary = runsDir == null;
        Path dir = temporary ? Files.createTempDirectory("rdma-validate") : Files.createDirectories(runsDir);
        try {
            List<PortResult> results = Validator.validate(topo, ports, settings.thresholds(),
                    loopbacks.apply(settings).apply(dir));
            PrintWriter out = spec.commandLine().getOut();
            out.print(json ? ValidateText.json(settings, results) : ValidateText.human(settings, results));
            if (report != null) {
                Files.writeString(report, ReportPage.render("validate", documents(results)));
                if (!json) {
                    out.println("report: wrote " + report);
                }
            }
            out.flush();
            return Validator.worst(results).exitCode();
        } finally {
            if (temporary) {
                deleteTree(dir);
            }
        }
    }

    private static List<RunDocument> documents(List<PortResult> results) {
        List<RunDocument> docs = new ArrayList<>();
        for (PortResult r : results) {
            for (PortResult.Test t : r.tests()) {
                if (t.measured() != null && t.measured().run() != null) {
                    docs.add(t.measured().run());
                }
            }
        }
        return docs;
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
