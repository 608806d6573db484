package io.rdmaffm.perftest.cli.reports;

import io.rdmaffm.perftest.report.compare.CompareText;
import io.rdmaffm.perftest.report.compare.ComparePage;
import io.rdmaffm.perftest.report.compare.Comparison;
import io.rdmaffm.perftest.report.model.Metric;
import io.rdmaffm.perftest.report.model.RunDocument;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code compare A.json B.json [--html out.html]}, or {@code compare --a A1.json A2.json --b B1.json B2.json}:
 * per test, size and metric the two sides' figures, the ratio B/A and a mark where the difference is beyond the
 * sides' own spread over their repeats. Text on standard output; with {@code --html} also an HTML page with both
 * curves on one plot. Exit 0, or 2 with one line on bad input (bandwidth against latency runs, nothing in common).
 */
@Command(name = "compare",
        mixinStandardHelpOptions = true,
        description = {"Compare two runs (or two sets of repeated runs) per test, size and metric: B/A, and a mark "
                + "where the difference is beyond the runs' own noise and at least --min-effect.",
                "Exit status: 0 compared, 2 bad input."})
public final class CompareCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli fills in the options. */
    public CompareCommand() {
    }

    @Parameters(arity = "0..2", paramLabel = "RUN.json", description = "Side A's run, then side B's.")
    List<String> pair = new ArrayList<>();

    @Option(names = "--a", arity = "1..*", paramLabel = "RUN.json",
            description = "Side A's runs: repeats of one setup (files or glob patterns).")
    List<String> sideA;

    @Option(names = "--b", arity = "1..*", paramLabel = "RUN.json",
            description = "Side B's runs: repeats of the other setup.")
    List<String> sideB;

    @Option(names = "--html", paramLabel = "FILE", description = "Also write the comparison as an HTML page.")
    Path html;

    @Option(names = "--metric", split = ",", paramLabel = "KEY",
            description = "Compare only these metrics, by perftest's key: BW_average, BW_peak, MsgRate, t_typical, "
                    + "t_avg, t_min, t_max, percentile_99, percentile_99.9, tps_average.")
    List<String> metrics;

    @Option(names = "--min-effect", paramLabel = "PERCENT", defaultValue = "2",
            description = "Mark a difference only when B/A differs from 1 by at least PERCENT, besides being beyond "
                    + "the noise (0 marks every difference beyond the noise). Default: ${DEFAULT-VALUE}")
    double minEffectPercent;

    @Option(names = "--debug", description = "Print stack traces of unexpected errors.")
    boolean debug;

    @Override
    public Integer call() {
        List<String> a;
        List<String> b;
        if (sideA != null || sideB != null) {
            if (sideA == null || sideB == null || !pair.isEmpty()) {
                throw new CommandLine.ParameterException(spec.commandLine(),
                        "give both --a and --b (and no other files), or exactly two files A.json B.json");
            }
            a = sideA;
            b = sideB;
        } else if (pair.size() == 2) {
            a = List.of(pair.get(0));
            b = List.of(pair.get(1));
        } else {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "expected two files A.json B.json, or --a FILES... --b FILES...");
        }
        if (html != null && html.toString().equals("-")) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--html needs a file name (the text goes to standard output)");
        }
        if (!(minEffectPercent >= 0 && minEffectPercent < 100)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--min-effect must be a percentage from 0 up to 100, got " + minEffectPercent);
        }
        double minEffect = minEffectPercent / 100;
        Set<Metric> only = metricSet();
        List<RunDocument> runsA = RunFiles.read(a);
        List<RunDocument> runsB = RunFiles.read(b);
        List<Comparison.Line> lines = Comparison.compare(runsA, runsB, only, minEffect);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException("nothing to compare: the runs have no rows"
                    + (only.isEmpty() ? "" : " with " + String.join(", ", metrics)));
        }
        Comparison.requireComparable(runsA, runsB, lines);
        PrintWriter out = spec.commandLine().getOut();
        out.print(CompareText.render(lines, runsA, runsB, minEffect));
        if (html != null) {
            RunFiles.write(html, ComparePage.render(lines, runsA, runsB, minEffect));
            out.println();
            out.println("compare: wrote " + html);
        }
        out.flush();
        return 0;
    }

    private Set<Metric> metricSet() {
        Set<Metric> only = EnumSet.noneOf(Metric.class);
        if (metrics == null) {
            return only;
        }
        for (String key : metrics) {
            Metric found = null;
            for (Metric m : Metric.values()) {
                if (m.key().equalsIgnoreCase(key)) {
                    found = m;
                }
            }
            if (found == null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--metric " + key
                        + ": not a metric (BW_average, BW_peak, MsgRate, t_typical, t_avg, t_min, t_max, "
                        + "percentile_99, percentile_99.9, tps_average)");
            }
            only.add(found);
        }
        return only;
    }
}
