package io.rdmaffm.perftest.report;

import io.rdmaffm.perftest.counters.CounterReport;
import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.jvm.WindowActivity;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Mismatch;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.perftest.vocab.Verbosity;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything one side of a run prints, from the values the engine hands over: perftest's preamble, banner,
 * address lines, table header, rows and closing line, plus our {@code --verify} lines; it keeps the rows for
 * {@code --out_json} and writes the latency distribution ({@code --hgrm}). Every line is flushed as printed,
 * so a peer that fails later still leaves what was shown.
 */
public final class RunReporter {
    /** The longest latency the histogram holds: one hour in ns. */
    private static final long HISTOGRAM_MAX_NANOS = 3_600_000_000_000L;

    private final Tool tool;
    private final Role role;
    private final BwUnit unit;
    private final Verbosity verbosity;
    private final boolean cpuColumn;
    /** {@code --cpu_util}: this side's figure for the rows that follow (0 until it measured one, as in C). */
    private float cpuUtil;
    private final PrintWriter out;
    private final LatencyOutput latency;
    private final List<BwReport> bwRows = new ArrayList<>();
    private final List<LatencyRow> latRows = new ArrayList<>();
    /** Per row of {@link #bwRows} or {@link #latRows}: what this side measured for it (null: nothing). */
    private final List<RowExtras> extras = new ArrayList<>();
    private RowExtras durationExtras;
    private List<WindowActivity> windows;
    private JsonReport.WarmupFacts warmup;
    private BannerInfo banner;
    private DurationLatency durationResult;
    private long durationSize;
    private long durationCount;
    private Histogram histogram;
    private long mismatches;
    /** {@code -W}: the counters whose change follows each row, or null. */
    private CounterReport counters;

    /**
     * What a latency run writes beyond its row.
     *
     * @param hgrmFile      {@code --hgrm}, or null
     * @param hgrmPerSize   one file per message size ({@code FILE.<size>}, with {@code -a})
     * @param printUnsorted {@code -U}: every latency sample before the row
     * @param printSorted   {@code -H}: the samples the row is computed from, sorted, before the row (after -U's)
     * @param nanosPerCycle {@code -C}: the loops' cycle counter's period; the iteration rows, -U and -H are then in
     *                      cycles (perftest's headers keep [usec]); 0: microseconds
     */
    public record LatencyOutput(Path hgrmFile, boolean hgrmPerSize, boolean printUnsorted, boolean printSorted,
            double nanosPerCycle) {
        /** Microseconds. */
        public LatencyOutput(Path hgrmFile, boolean hgrmPerSize, boolean printUnsorted, boolean printSorted) {
            this(hgrmFile, hgrmPerSize, printUnsorted, printSorted, 0);
        }

        /** Nanoseconds per unit of the iteration rows: 1000 (µs), or one cycle's. */
        double nanosPerUnit() {
            return nanosPerCycle > 0 ? nanosPerCycle : 1000.0;
        }

        /** The unit's name in the sample lists' header, as perftest's. */
        String units() {
            return nanosPerCycle > 0 ? "cycles" : "usec";
        }
    }

    /** A reporter for one side ({@code role}) of {@code tool}, printing everything to {@code out}. */
    public RunReporter(Tool tool, Role role, BwUnit unit, PrintWriter out, LatencyOutput latency) {
        this(tool, role, unit, Verbosity.FULL, false, out, latency);
    }

    /**
     * A reporter for one side of {@code tool}, printing to {@code out} what {@code verbosity} asks for, with
     * perftest's CPU_Util column when {@code cpuColumn} ({@code --cpu_util}).
     */
    public RunReporter(Tool tool, Role role, BwUnit unit, Verbosity verbosity, boolean cpuColumn, PrintWriter out,
            LatencyOutput latency) {
        this.tool = tool;
        this.role = role;
        this.unit = unit;
        this.verbosity = verbosity;
        this.cpuColumn = cpuColumn;
        this.out = out;
        this.latency = latency;
    }

    private void print(String s) {
        out.print(s);
        out.flush();
    }

    /** Prints {@code s} only at full verbosity: {@code --output} leaves nothing but its figures. */
    private void printFull(String s) {
        if (verbosity.full()) {
            print(s);
        }
    }

    /** What the tool prints before it connects (read/atomic: a result line; the server: "Waiting for client"). */
    public void preamble() {
        print(verbosity.full() ? PerftestFormat.preamble(tool, role) : PerftestFormat.inlineDisabledLine(tool));
    }

    /** {@code -W}: after each row, the change of these counters since the previous row (the first: since open). */
    public void reportCounters(CounterReport report) {
        counters = report;
    }

    /** C perftest prints the counters after every result row, whatever {@code --output} asks for. */
    private void printCounters() {
        if (counters != null) {
            print(counters.next());
        }
    }

    /** The banner (kept for the JSON document). */
    public void banner(BannerInfo info) {
        banner = info;
        printFull(PerftestFormat.banner(info));
    }

    /** What the {@code -R} server prints after its banner. */
    public void rdmaCmServerWaiting() {
        printFull(PerftestFormat.rdmaCmServerWaiting());
    }

    /** The address lines of one side's QPs ("local" or "remote"). */
    public void addresses(String side, PingPongDest[] dests, boolean withGid, boolean rdmaCm) {
        addresses(side, dests, withGid, rdmaCm, false);
    }

    /** As above; {@code mgid}: the GID lines are a multicast group's (-g), labelled "MGID" as perftest does. */
    public void addresses(String side, PingPongDest[] dests, boolean withGid, boolean rdmaCm, boolean mgid) {
        printFull(PerftestFormat.addresses(side, dests, tool.verb(), withGid, rdmaCm, mgid));
    }

    /** The result line and the table header. */
    public void header(boolean duration) {
        printFull(PerftestFormat.RESULT_LINE);
        printFull(withCpuColumn(tool.bandwidth() ? PerftestFormat.bwHeader(unit)
                : duration ? PerftestFormat.LAT_DURATION_HEADER : PerftestFormat.LAT_HEADER));
    }

    /** {@code --cpu_util}: the CPU utilization this side measured, in percent, for the rows that follow. */
    public void cpuUtil(float percent) {
        cpuUtil = percent;
    }

    private String withCpuColumn(String header) {
        return cpuColumn ? PerftestFormat.withCpuUtilHeader(header) : header;
    }

    private String withCpuFigure(String row) {
        return cpuColumn ? PerftestFormat.withCpuUtil(row, cpuUtil) : row;
    }

    /** A line of perftest's between the rows, at full verbosity (e.g. " Client closed connection"). */
    public void note(String text) {
        printFull(text);
    }

    /** The closing result line. */
    public void footer() {
        printFull(PerftestFormat.RESULT_LINE);
    }

    /** One bandwidth row this side did not measure (the client's, printed by a server). */
    public void bwRow(BwReport r) {
        bwRow(r, null);
    }

    /** One bandwidth row, with what this side measured for it (null: nothing). */
    public void bwRow(BwReport r, RowExtras measured) {
        bwRows.add(r);
        extras.add(measured);
        print(bwRowText(r));
        printCounters();
    }

    /**
     * {@code --report-both}, after a bidirectional row (the sum): this side's own figures and the peer's, each
     * under its own header. Not in the JSON rows; C prints these headers even with {@code --output}.
     */
    public void bothSides(BwReport local, BwReport remote) {
        print(withCpuColumn(PerftestFormat.sideHeader("Local", unit)) + bwRowText(local));
        print(withCpuColumn(PerftestFormat.sideHeader("Remote", unit)) + bwRowText(remote));
    }

    private String bwRowText(BwReport r) {
        return switch (verbosity) {
            case FULL -> withCpuFigure(PerftestFormat.bwRow(r, unit));
            case BANDWIDTH -> PerftestFormat.figure(r.bwAvg());
            case MESSAGE_RATE -> PerftestFormat.figure(r.msgRate());
            case LATENCY -> throw new IllegalStateException("--output=latency on a bandwidth tool");
        };
    }

    /**
     * One latency row from the post timestamps of {@code iters} round trips; with {@code -U} every sample first,
     * with {@code -H} the kept samples sorted, then (at full verbosity) the table header again, as perftest prints
     * them; with {@code --hgrm} the distribution to its file.
     */
    public void latencyRow(long size, int iters, long[] tposted, int window) throws IOException {
        Verb verb = tool.verb();
        LatencyResult res = LatencyArithmetic.iterations(tposted, iters, verb, latency.nanosPerUnit());
        latRows.add(new LatencyRow(size, iters, res));
        if (latency.printUnsorted()) {
            print(PerftestFormat.unsortedSamples(tposted, iters, verb.latencyRttFactor(), latency.nanosPerUnit(),
                    latency.units()));
        }
        if (latency.printSorted()) {
            print(PerftestFormat.sortedSamples(tposted, iters, verb.latencyRttFactor(), latency.nanosPerUnit(),
                    latency.units()));
        }
        if (latency.printUnsorted() || latency.printSorted()) {
            printFull(PerftestFormat.RESULT_LINE + PerftestFormat.LAT_HEADER);
        }
        print(verbosity.full() ? PerftestFormat.latencyRow(size, iters, res) : PerftestFormat.figure(res.avg()));
        printCounters();
        if (histogram == null) {
            histogram = new Histogram(HISTOGRAM_MAX_NANOS, 3);
        }
        histogram.reset();
        for (int i = 0; i < iters - 1; i++) {
            histogram.recordValue(Math.max(0, (tposted[i + 1] - tposted[i]) / verb.latencyRttFactor()));
        }
        extras.add(new RowExtras(window, TimeSeries.latency(tposted, iters, verb.latencyRttFactor()),
                histogram.copy()));
        Path hgrm = latency.hgrmFile();
        if (hgrm != null) {
            HgrmWriter.write(histogram, HgrmWriter.Samples.of(tposted, iters, verb.latencyRttFactor(), res.tMax()),
                    latency.hgrmPerSize() ? Path.of(hgrm + "." + size) : hgrm);
        }
    }

    /** One duration-mode latency row: {@code count} round trips between {@code start} and {@code end} (ns). */
    public void latencyDurationRow(long size, long count, long start, long end, int window) {
        durationExtras = new RowExtras(window, null, null);
        DurationLatency d = LatencyArithmetic.duration(start, end, count, tool.verb(), 1000.0);
        durationResult = d;
        durationSize = size;
        durationCount = count;
        print(verbosity.full() ? withCpuFigure(PerftestFormat.latencyDurationRow(size, count, d.avgUsec(), d.tps()))
                : PerftestFormat.figure(d.avgUsec()));
        printCounters();
    }

    /** The lines of one {@code --verify} check: each finding, then the run's total so far. */
    public void verification(List<Mismatch> found) {
        for (Mismatch m : found) {
            mismatches += m.count();
            print(switch (m) {
                case Mismatch.Bytes b -> " verify: " + b.what() + ": " + b.differing() + " of " + b.length()
                        + " bytes differ, first at offset " + b.firstOffset() + "\n";
                case Mismatch.AtomicValue a -> " verify: atomic target of QP " + a.qp() + " holds " + a.holds()
                        + ", expected " + a.expected() + "\n";
            });
        }
        print(" verify: " + (mismatches == 0 ? "all data as expected" : mismatches + " mismatching bytes") + "\n");
    }

    /** The bandwidth rows this side printed, in order (what {@code -w/-y} judge). */
    public List<BwReport> bwRows() {
        return List.copyOf(bwRows);
    }

    /** Mismatching bytes (and atomic values) found by {@code --verify} so far. */
    public long mismatches() {
        return mismatches;
    }

    /**
     * What the JVM did in each measured window (indexed by message size number; null: not recorded), kept for
     * the JSON document; when anything happened, one line under the table says so (the table itself never
     * changes).
     */
    /** What the warm-up did, for the JSON document (the text output says nothing unless it failed). */
    public void warmup(JsonReport.WarmupFacts facts) {
        warmup = facts;
    }

    public void measuredWindows(List<WindowActivity> activity) {
        windows = activity;
        WindowActivity total = RunDocumentParts.total(activity);
        if (total != null && !total.quiet()) {
            printFull(total.summaryLine());
        }
    }

    /** Writes the {@code --out_json} document of what was printed (nothing before the banner). */
    public void writeJson(Map<String, ?> parameters, Path file, Environment environment, DeviceProvenance device)
            throws IOException {
        if (banner == null) {
            return;
        }
        JsonReport.Provenance prov = new JsonReport.Provenance(environment, device, windows, warmup,
                counters);
        String json = tool.bandwidth() ? JsonReport.bandwidth(banner, parameters, unit, bwRows, extras, prov)
                : durationResult != null ? JsonReport.latencyDuration(banner, parameters, durationSize, durationCount,
                        durationResult, durationExtras, prov)
                : JsonReport.latency(banner, parameters, latRows, extras, prov);
        Files.writeString(file, json);
    }
}
