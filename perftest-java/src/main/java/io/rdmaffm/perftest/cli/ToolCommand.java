package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.run.ToolRun;
import io.rdmaffm.perftest.vocab.Tool;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * One perftest tool: perftest's flags with perftest's names and meanings. Without a host argument it is the
 * server; with one, the client. The options every tool has are here; the others are in mixins the tools in
 * {@link Tools} declare. Defaults and rules are {@link ParameterRules}' business: a flag not given stays null.
 * Flags the C tool has and this one does not yet are {@link NotYetSupported}.
 */
@CommandLine.Command(mixinStandardHelpOptions = true, sortOptions = false, usageHelpAutoWidth = true,
        versionProvider = VersionProvider.class)
abstract class ToolCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "Server to connect to; without it this side is the server.")
    String server;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "RDMA device (default: the first one).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "Port of the device (default: 1).")
    Integer ibPort;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "IDX",
            description = "GID index (RoCE default: chosen as perftest does, preferring RoCE v2 IPv4-mapped).")
    Integer gidIndex;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "TCP port of the exchange (default: 18515).")
    Integer tcpPort;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", description = "Message size in bytes (K/M suffixes).")
    String size;

    @Option(names = {"-a", "--all"}, description = "Run sizes 2 B .. 8 MiB.")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "Iterations.")
    Long iterations;

    @Option(names = {"-D", "--duration"}, paramLabel = "SEC", description = "Run for SEC seconds instead of -n.")
    Integer duration;

    @Option(names = {"-f", "--margin"}, paramLabel = "SEC", description = "Warm-up/cool-down margin of -D (default: D/4).")
    Integer margin;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", description = "Send queue depth.")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N", description = "Receive queue depth (send tools).")
    Integer rxDepth;

    @Option(names = {"-c", "--connection"}, paramLabel = "TYPE", description = "RC, UC or UD (where the tool allows).")
    String connection;

    @Option(names = {"-m", "--mtu"}, paramLabel = "BYTES", description = "Path MTU: 256..4096 (default: port's active MTU).")
    Integer mtu;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "N", description = "QP ACK timeout exponent (default: 14).")
    Integer qpTimeout;

    @Option(names = {"-S", "--sl"}, paramLabel = "SL", description = "Service level (default: 0).")
    Integer serviceLevel;

    @Option(names = {"-e", "--events"}, description = "Wait for completion events instead of busy polling.")
    boolean events;

    @Option(names = {"-F", "--CPU-freq"}, description = "Accepted for compatibility (Java times with System.nanoTime).")
    boolean cpuFreq;

    @Option(names = {"--perform_warm_up"}, hidden = true,
            description = "Accepted for compatibility (perftest-java always warms up: see --warmup).")
    boolean performWarmUp;

    @Option(names = {"-R", "--rdma_cm"}, description = "Connect the QPs with rdma_cm (implies -z).")
    boolean rdmaCm;

    @Option(names = {"-z", "--comm_rdma_cm"}, description = "Exchange the control data over an rdma_cm QP instead of TCP.")
    boolean commRdmaCm;

    @Option(names = {"--report_gbits"}, description = "Report bandwidth in Gb/s.")
    boolean reportGbits;

    @Option(names = {"--out_json"}, description = "Write the results as (valid) JSON.")
    boolean outJson;

    @Option(names = {"--out_json_file"}, paramLabel = "FILE", description = "JSON file (default: perftest_out.json).")
    Path outJsonFile;

    @Option(names = {"--verify"}, description = "Fill sources with a pattern and check every byte that arrived (perftest-java on both sides).")
    boolean verify;

    @Option(names = {"--warmup"}, paramLabel = "N",
            description = "Warm-up before the run, on a QP connected to itself: at least N loop iterations in short invocations, repeated until the JIT compiles nothing more (at most 30 s) (default: 20000; 0 = off).")
    Integer warmup;

    @Option(names = {"--timeout"}, paramLabel = "SEC",
            description = "Seconds without progress before a stalled peer ends the run (default: 10).")
    Integer timeout;

    @Option(names = {"--accept-timeout"}, paramLabel = "SEC", description = "Seconds the server waits for a client (default: 300).")
    Integer acceptTimeout;

    @Option(names = {"--peer-timeout"}, paramLabel = "SEC",
            description = "Seconds the passive side waits for the peer's measured run (default: 300, plus -D).")
    Integer peerTimeout;

    @Option(names = {"--debug"}, description = "Print stack traces of errors.")
    boolean debug;

    /** The tool this command is. */
    abstract Tool tool();

    /** Adds the values of the tool's own options (its mixins) to {@code o}. */
    abstract void collect(ToolOptions o);

    /** What the command line said, typed; nothing defaulted. */
    ToolOptions options() {
        ToolOptions o = new ToolOptions().server(server).device(device).ibPort(ibPort).gidIndex(gidIndex)
                .tcpPort(tcpPort).size(size).all(all).iterations(iterations).duration(duration).margin(margin)
                .txDepth(txDepth).rxDepth(rxDepth).connection(connection).mtu(mtu).qpTimeout(qpTimeout)
                .serviceLevel(serviceLevel).events(events).rdmaCm(rdmaCm).commRdmaCm(commRdmaCm)
                .reportGbits(reportGbits).outJson(outJson).outJsonFile(outJsonFile).verify(verify).warmup(warmup)
                .timeout(timeout).acceptTimeout(acceptTimeout).peerTimeout(peerTimeout).debug(debug);
        collect(o);
        return o;
    }

    /** Bad input: one clear line, exit 2. */
    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** perftest's {@code -s}: bytes, or with a K or M suffix. */
    static long parseSize(String s) {
        return ParameterRules.parseSize(s);
    }

    @Override
    public Integer call() throws Exception {
        NotYetSupported.refuse(spec.commandLine().getParseResult());
        RunParameters p;
        try {
            p = ParameterRules.check(tool(), options());
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        try {
            return ToolRun.execute(p, spec.commandLine().getOut());
        } catch (InvalidParameterException e) {
            throw bad(e.getMessage());
        }
    }

    // ---- options only some tools have, declared in the tools' mixins ----

    /** -q, -b, -l, -Q, -N: bandwidth tools. */
    static final class BwOptions {
        @Option(names = {"-q", "--qp"}, paramLabel = "N", description = "Number of QPs (default: 1).")
        Integer qps;

        @Option(names = {"-b", "--bidirectional"}, description = "Measure both directions at once.")
        boolean bidirectional;

        @Option(names = {"-l", "--post_list"}, paramLabel = "N", description = "Post N work requests per post call.")
        Integer postList;

        @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "Signal every N-th work request (default: 100).")
        Integer cqMod;

        @Option(names = {"-N", "--noPeak"}, description = "Do not compute the peak bandwidth.")
        boolean noPeak;

        void addTo(ToolOptions o) {
            o.qps(qps).bidirectional(bidirectional).postList(postList).cqModeration(cqMod).noPeak(noPeak);
        }
    }

    /** -U, --hgrm: latency tools. */
    static final class LatOptions {
        @Option(names = {"-U", "--report-unsorted"}, description = "Print every sample, unsorted.")
        boolean unsorted;

        @Option(names = {"--hgrm"}, paramLabel = "FILE",
                description = "Write the full HdrHistogram latency distribution (.hgrm, µs) to FILE (FILE.<size> with -a).")
        Path hgrm;

        void addTo(ToolOptions o) {
            o.unsorted(unsorted).hgrm(hgrm);
        }
    }

    /** -I: send and write tools. */
    static final class InlineOption {
        @Option(names = {"-I", "--inline_size"}, paramLabel = "BYTES", description = "Max inline data size.")
        Integer inline;

        void addTo(ToolOptions o) {
            o.inline(inline);
        }
    }

    /** -o: read and atomic tools. */
    static final class OutstandingOption {
        @Option(names = {"-o", "--outs"}, paramLabel = "N", description = "Outstanding reads/atomics (default: device max).")
        Integer outs;

        void addTo(ToolOptions o) {
            o.outstandingReads(outs);
        }
    }

    /** -A: atomic tools. */
    static final class AtomicOption {
        @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", description = "CMP_AND_SWAP or FETCH_AND_ADD (default).")
        String type;

        void addTo(ToolOptions o) {
            o.atomicType(type);
        }
    }
}
