package io.rdmaffm.perftest.cli.reports;

import io.rdmaffm.perftest.report.html.ReportPage;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code report RUN.json... -o report.html}: one self-contained HTML file with the runs' plots (bandwidth and
 * message rate against size with the port rate and PCIe model, latency percentiles, time series), each run's
 * provenance and its rows. Exit 0, or 2 with one line when a file is missing or not a run document, or no run
 * has a row.
 */
@Command(name = "report",
        mixinStandardHelpOptions = true,
        description = {"Write one self-contained HTML report (plots, provenance, rows) of run documents "
                + "written with --out_json (docs/run-json.md).",
                "Exit status: 0 written, 2 bad input."})
public final class ReportCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli fills in the options. */
    public ReportCommand() {
    }

    @Parameters(arity = "1..*", paramLabel = "RUN.json",
            description = "Run documents, or glob patterns such as 'runs/*.json'; plotted together, in this order. "
                    + "A matrix document (matrix --json) is drawn as a heat map; fabric documents (fabric --json)"
                    + " as busbw against size with each run's counters and verdicts.")
    List<String> runs;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", defaultValue = "report.html",
            description = "The HTML file to write (- for standard output). Default: ${DEFAULT-VALUE}")
    Path output;

    @Option(names = "--title", paramLabel = "TEXT", description = "The report's title (default: the tests' names).")
    String title;

    @Option(names = "--sizes", split = ",", paramLabel = "BYTES",
            description = "Message sizes of a sweep to show first in the percentile and time series plots, besides "
                    + "the smallest, a middle and the largest (the others are a click away), e.g. 4096,65536.")
    List<Long> sizes = new ArrayList<>();

    @Option(names = "--debug", description = "Print stack traces of unexpected errors.")
    boolean debug;

    @Override
    public Integer call() {
        RunFiles.Inputs in = RunFiles.readRunsAndMatrices(runs);
        List<RunDocument> docs = in.runs();
        for (Long s : sizes) {
            if (s <= 0) {
                throw new IllegalArgumentException("--sizes wants message sizes in bytes, got " + s);
            }
        }
        if (in.matrices().isEmpty() && in.fabrics().isEmpty() && docs.stream().allMatch(d -> d.rows().isEmpty())) {
            // A report of no figures would be an empty page that looks like a result.
            throw new IllegalArgumentException("nothing to report: " + (docs.size() == 1 ? "the run has" : "the runs have")
                    + " no rows (a run that failed before its first row writes none)");
        }
        String html = ReportPage.render(title, docs, new LinkedHashSet<>(sizes), in.matrices(), in.fabrics());
        PrintWriter out = spec.commandLine().getOut();
        if (RunFiles.write(output, html)) {
            String fabric = in.fabrics().size() + (in.fabrics().size() == 1 ? " fabric run" : " fabric runs");
            out.println("report: wrote " + output + " (" + (in.fabrics().isEmpty() ? what(docs.size(),
                    in.matrices().size()) : docs.isEmpty() && in.matrices().isEmpty() ? fabric
                    : what(docs.size(), in.matrices().size()) + ", " + fabric) + ")");
        } else {
            out.print(html);
        }
        out.flush();
        return 0;
    }

    private static String what(int runs, int matrices) {
        String r = runs + (runs == 1 ? " run" : " runs");
        String m = matrices + (matrices == 1 ? " matrix" : " matrices");
        return matrices == 0 ? r : runs == 0 ? m : r + ", " + m;
    }
}
