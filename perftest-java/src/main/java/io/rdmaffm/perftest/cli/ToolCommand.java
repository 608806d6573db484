package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.engine.PerftestEngine;
import io.rdmaffm.perftest.engine.RunParameters;
import io.rdmaffm.perftest.exchange.ExchangeChannel;
import io.rdmaffm.perftest.exchange.ExchangeListener;
import io.rdmaffm.perftest.exchange.ExchangeTimeouts;
import io.rdmaffm.perftest.exchange.HandshakeScript;
import io.rdmaffm.perftest.exchange.PerftestExchange;
import io.rdmaffm.perftest.exchange.RdmaCmControlChannel;
import io.rdmaffm.perftest.exchange.ScriptRunner;
import io.rdmaffm.perftest.exchange.TcpExchangeChannel;
import io.rdmaffm.perftest.report.PerftestFormat;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.RdmaDevice;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * One perftest tool: perftest's flags with perftest's names, meanings and per-tool defaults. Without a host
 * argument it is the server; with one, the client. Flags the C tool has and this one does not yet are
 * accepted by the parser only to be refused with a clear message, never silently ignored.
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
    int ibPort = 1;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "IDX",
            description = "GID index (RoCE default: chosen as perftest does, preferring RoCE v2 IPv4-mapped).")
    Integer gidIndex;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "TCP port of the exchange (default: 18515).")
    int tcpPort = 18515;

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
    String connection = "RC";

    @Option(names = {"-m", "--mtu"}, paramLabel = "BYTES", description = "Path MTU: 256..4096 (default: port's active MTU).")
    Integer mtu;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "N", description = "QP ACK timeout exponent (default: 14).")
    int qpTimeout = 14;

    @Option(names = {"-S", "--sl"}, paramLabel = "SL", description = "Service level (default: 0).")
    int serviceLevel;

    @Option(names = {"-e", "--events"}, description = "Wait for completion events instead of busy polling.")
    boolean events;

    @Option(names = {"-F", "--CPU-freq"}, description = "Accepted for compatibility (Java times with System.nanoTime).")
    boolean cpuFreq;

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
            description = "Untimed iterations on a QP connected to itself before the run, so the JIT has compiled the loop (default: 20000; 0 = off).")
    int warmup = 20_000;

    @Option(names = {"--timeout"}, paramLabel = "SEC",
            description = "Seconds without progress before a stalled peer ends the run (default: 10).")
    int timeout = 10;

    @Option(names = {"--accept-timeout"}, paramLabel = "SEC", description = "Seconds the server waits for a client (default: 300).")
    int acceptTimeout = 300;

    @Option(names = {"--peer-timeout"}, paramLabel = "SEC",
            description = "Seconds the passive side waits for the peer's measured run (default: 300, plus -D).")
    int peerTimeout = 300;

    @Option(names = {"--debug"}, description = "Print stack traces of errors.")
    boolean debug;

    // ---- perftest flags not supported yet: parsed so they can be refused clearly ----
    @Option(names = {"-O", "--dualport"}, hidden = true) boolean dualPort;
    @Option(names = {"-g", "--mcg"}, hidden = true) boolean multicast;
    @Option(names = {"-M", "--MGID"}, hidden = true) String mgid;
    @Option(names = {"-H", "--report-histogrm", "--report-histogram"}, hidden = true) boolean histogram;
    @Option(names = {"-C", "--report-cycles"}, hidden = true) boolean cycles;
    @Option(names = {"-X", "--vector"}, hidden = true) String vector;
    @Option(names = {"-w", "--limit_bw"}, hidden = true) String limitBw;
    @Option(names = {"-y", "--limit_msgrate"}, hidden = true) String limitMsgRate;
    @Option(names = {"-W", "--report-counters"}, hidden = true) String counters;
    @Option(names = {"-T", "--tos"}, hidden = true) String tos;
    @Option(names = {"--use-srq"}, hidden = true) boolean srq;
    @Option(names = {"--run_infinitely"}, hidden = true) boolean infinitely;
    @Option(names = {"--report-both"}, hidden = true) boolean reportBoth;
    @Option(names = {"--report-per-port"}, hidden = true) boolean perPort;
    @Option(names = {"--cpu_util"}, hidden = true) boolean cpuUtil;
    @Option(names = {"--latency_gap"}, hidden = true) String latencyGap;
    @Option(names = {"--output"}, hidden = true) String output;
    @Option(names = {"--mmap"}, hidden = true) String mmap;
    @Option(names = {"--mmap-offset"}, hidden = true) String mmapOffset;
    @Option(names = {"--odp"}, hidden = true) boolean odp;
    @Option(names = {"--use_hugepages"}, hidden = true) boolean hugepages;
    @Option(names = {"--mr_per_qp"}, hidden = true) boolean mrPerQp;
    @Option(names = {"--source_ip"}, hidden = true) String sourceIp;
    @Option(names = {"--dlid"}, hidden = true) String dlid;
    @Option(names = {"--force-link"}, hidden = true) String forceLink;
    @Option(names = {"--ipv6"}, hidden = true) boolean ipv6;
    @Option(names = {"--tclass"}, hidden = true) String tclass;
    @Option(names = {"--pkey_index"}, hidden = true) String pkeyIndex;
    @Option(names = {"--retry_count"}, hidden = true) String retryCount;
    @Option(names = {"--use_old_post_send"}, hidden = true) boolean oldPostSend;
    @Option(names = {"--reversed"}, hidden = true) boolean reversed;
    @Option(names = {"--wait_destroy"}, hidden = true) String waitDestroy;
    @Option(names = {"--inline_recv"}, hidden = true) String inlineRecv;
    @Option(names = {"--recv_post_list"}, hidden = true) String recvPostList;
    @Option(names = {"--dont_xchg_versions"}, hidden = true) boolean noVersions;
    @Option(names = {"--rate_limit"}, hidden = true) String rateLimit;
    @Option(names = {"--rate_units"}, hidden = true) String rateUnits;
    @Option(names = {"--rate_limit_type"}, hidden = true) String rateLimitType;
    @Option(names = {"--burst_size"}, hidden = true) String burstSize;
    @Option(names = {"--typical_pkt_size"}, hidden = true) String typicalPktSize;
    @Option(names = {"--disable_pcie_relaxed"}, hidden = true) boolean noRelaxed;
    @Option(names = {"--perform_warm_up"}, hidden = true) boolean performWarmUp;
    @Option(names = {"--use_cuda"}, hidden = true) String cuda;
    @Option(names = {"--use_rocm"}, hidden = true) String rocm;

    private static final List<String> NOT_YET = List.of("--dualport", "--mcg", "--MGID",
            "--report-histogrm", "--report-cycles", "--vector", "--limit_bw", "--limit_msgrate", "--report-counters",
            "--tos", "--use-srq", "--run_infinitely", "--report-both", "--report-per-port", "--cpu_util",
            "--latency_gap", "--output", "--mmap", "--mmap-offset", "--odp", "--use_hugepages", "--mr_per_qp",
            "--source_ip", "--dlid", "--force-link", "--ipv6", "--tclass", "--pkey_index", "--retry_count",
            "--use_old_post_send", "--reversed", "--wait_destroy", "--inline_recv", "--recv_post_list",
            "--dont_xchg_versions", "--rate_limit", "--rate_units", "--rate_limit_type", "--burst_size",
            "--typical_pkt_size", "--disable_pcie_relaxed", "--use_cuda", "--use_rocm");

    /** The tool this command is. */
    abstract Tool tool();

    /** Whether the tool accepts {@code -c}'s value. */
    boolean allows(String connectionType) {
        return switch (tool().verb()) {
            case SEND -> List.of("RC", "UC", "UD").contains(connectionType);
            case WRITE -> List.of("RC", "UC").contains(connectionType);
            default -> connectionType.equals("RC");
        };
    }

    /** Bad input: one clear line, exit 2. */
    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    RunParameters parameters() {
        CommandLine.ParseResult pr = spec.commandLine().getParseResult();
        for (String name : NOT_YET) {
            if (pr.hasMatchedOption(name)) {
                throw bad("option " + name + " is not supported yet by perftest-java");
            }
        }
        Tool tool = tool();
        Verb verb = tool.verb();
        boolean bw = tool.bandwidth();
        RunParameters p = new RunParameters();
        p.tool = tool;
        p.role = server == null ? Role.SERVER : Role.CLIENT;
        p.server = server;
        if (device == null) {
            List<RdmaDevice> all = RdmaDevice.list();
            if (all.isEmpty()) {
                throw bad("no RDMA device found (for Soft-RoCE: scripts/softroce-up.sh, or run under scripts/rdma-env.sh)");
            }
            device = all.get(0).name();
        }
        p.device = device;
        if (ibPort < 1 || ibPort > 255) {
            throw bad("invalid -i/--ib-port " + ibPort + " (ports start at 1)");
        }
        p.ibPort = ibPort;
        if (gidIndex != null) {
            if (gidIndex < 0 || gidIndex > 255) {
                throw bad("invalid -x/--gid-index " + gidIndex);
            }
            p.gidIndex = gidIndex;
            p.gidIndexGiven = true;
        }
        if (tcpPort < 1 || tcpPort > 65535) {
            throw bad("invalid -p/--port " + tcpPort);
        }
        p.tcpPort = tcpPort;
        if (verb == Verb.ATOMIC) {
            if (size != null) {
                throw bad("Message size cannot be changed for Atomic tests");
            }
            if (all) {
                throw bad("-a is not available for atomic tests (the size is always 8 bytes)");
            }
            p.size = 8;
        } else {
            p.size = size == null ? (bw ? 65536 : 2) : parseSize(size);
        }
        p.allSizes = all;
        long defaultIters = bw && tool == Tool.WRITE_BW ? 5000 : 1000;
        p.iterations = iterations == null ? defaultIters : iterations;
        if (p.iterations < 5 || p.iterations > 100_000_000L) {
            throw bad("iterations (-n) must be 5..100000000, not " + p.iterations);
        }
        if (duration != null) {
            if (duration <= 0) {
                throw bad("duration (-D) must be a positive number of seconds");
            }
            if (all) {
                throw bad("-D cannot be combined with -a");
            }
            if (events) {
                throw bad("-D cannot be combined with -e");
            }
            p.durationSeconds = duration;
            p.marginSeconds = margin == null ? duration / 4 : margin;
            if (duration <= 2 * p.marginSeconds) {
                throw bad("please check that DURATION > 2*MARGIN");
            }
        } else if (margin != null) {
            throw bad("-f/--margin needs -D");
        }
        int tx = txDepth == null ? (bw ? 128 : 1) : txDepth;
        if (tx < 1 || tx > 15000) {
            throw bad("tx depth (-t) must be 1..15000");
        }
        p.txDepth = tx;
        if (verb == Verb.SEND) {
            int rx = rxDepth == null ? 512 : rxDepth;
            if (rx < 1 || rx > 16384) {
                throw bad("rx depth (-r) must be 1..16384");
            }
            p.rxDepth = rx;
        } else {
            if (rxDepth != null && rxDepth != 1) {
                throw bad("On RDMA verbs rx depth can be only 1");
            }
            p.rxDepth = 1;
        }
        String c = connection.toUpperCase(Locale.ROOT);
        if (!List.of("RC", "UC", "UD", "XRC", "DC", "SRD").contains(c)) {
            throw bad("unknown connection type -c " + connection + " (RC, UC or UD)");
        }
        if (!allows(c)) {
            throw bad("connection type " + c + " is not available for " + tool.perftestName()
                    + (List.of("XRC", "DC", "SRD").contains(c) ? " in perftest-java (Soft-RoCE has no " + c + ")" : ""));
        }
        p.connection = c;
        CommandLine.Model.OptionSpec q = spec.findOption("-q");
        int qps = q == null ? 1 : q.getValue();
        if (qps < 1 || qps > 16384) {
            throw bad("number of QPs (-q) must be 1..16384");
        }
        if (!bw && qps > 1) {
            throw bad("Multiple QPs only available on bw tests");
        }
        p.numQps = qps;
        CommandLine.Model.OptionSpec b = spec.findOption("-b");
        p.bidirectional = b != null && (Boolean) b.getValue();
        if (p.bidirectional && verb == Verb.SEND && duration != null) {
            // perftest prints each side's own row here, without the report exchange of the iteration mode.
            throw bad("-b with -D for ib_send_bw is not supported yet by perftest-java");
        }
        if (rdmaCm) {
            if (c.equals("UC")) {
                throw bad("UC is not supported in librdmacm (-R)");
            }
            if (c.equals("UD")) {
                throw bad("-R with -c UD is not supported yet by perftest-java");
            }
            p.rdmaCm = true;
        }
        p.rdmaCmExchange = rdmaCm || commRdmaCm;
        CommandLine.Model.OptionSpec inl = spec.findOption("-I");
        if (inl != null && inl.getValue() != null) {
            int v = inl.getValue();
            if (v < 0 || v > 912) {
                throw bad("inline size (-I) must be 0..912");
            }
            p.inlineSize = v;
            p.inlineGiven = true;
        }
        CommandLine.Model.OptionSpec cq = spec.findOption("-Q");
        if (cq != null && cq.getValue() != null) {
            int v = cq.getValue();
            if (v < 1 || v > 1024) {
                throw bad("CQ moderation (-Q) must be 1..1024");
            }
            p.cqModeration = v;
            p.cqModerationGiven = true;
        } else {
            p.cqModeration = 100;
        }
        CommandLine.Model.OptionSpec pl = spec.findOption("-l");
        if (pl != null && pl.getValue() != null) {
            int v = pl.getValue();
            if (v < 1 || v > tx) {
                throw bad("post list (-l) must be 1..tx depth (" + tx + ")");
            }
            if (p.iterations % v != 0) {
                throw bad("iterations (-n) must be a multiple of the post list (-l)");
            }
            p.postList = v;
        }
        if (mtu != null) {
            if (!List.of(256, 512, 1024, 2048, 4096).contains(mtu)) {
                throw bad("MTU (-m) must be 256, 512, 1024, 2048 or 4096");
            }
            p.mtuBytes = mtu;
        }
        if (events && tool == Tool.WRITE_LAT) {
            throw bad("Events feature not available on WRITE verb (ib_write_lat polls memory)");
        }
        p.useEvents = events;
        CommandLine.Model.OptionSpec at = spec.findOption("-A");
        if (at != null && at.getValue() != null) {
            String v = ((String) at.getValue()).toUpperCase(Locale.ROOT);
            if (!v.equals("CMP_AND_SWAP") && !v.equals("FETCH_AND_ADD")) {
                throw bad("atomic type (-A) must be CMP_AND_SWAP or FETCH_AND_ADD");
            }
            p.compareAndSwap = v.equals("CMP_AND_SWAP");
        }
        CommandLine.Model.OptionSpec outs = spec.findOption("-o");
        if (outs != null && outs.getValue() != null) {
            int v = outs.getValue();
            if (v < 1) {
                throw bad("outstanding reads (-o) must be positive");
            }
            p.outstandingReads = v;
        }
        if (qpTimeout < 0 || qpTimeout > 31) {
            throw bad("QP timeout (-u) must be 0..31");
        }
        p.qpTimeout = qpTimeout;
        p.serviceLevel = serviceLevel;
        CommandLine.Model.OptionSpec np = spec.findOption("-N");
        p.noPeak = np != null && (Boolean) np.getValue();
        p.unit = reportGbits ? BwUnit.GB_PER_SEC : BwUnit.MB_PER_SEC;
        p.outJson = outJson || outJsonFile != null;
        p.outJsonFile = outJsonFile == null ? Path.of("perftest_out.json") : outJsonFile;
        p.verify = verify;
        CommandLine.Model.OptionSpec hg = spec.findOption("--hgrm");
        if (hg != null && hg.getValue() != null) {
            p.hgrmFile = hg.getValue();
        }
        CommandLine.Model.OptionSpec un = spec.findOption("-U");
        p.printUnsorted = un != null && (Boolean) un.getValue();
        if (warmup < 0) {
            throw bad("--warmup must be >= 0");
        }
        p.warmupIterations = warmup;
        if (timeout < 1) {
            throw bad("--timeout must be at least 1 second");
        }
        p.timeoutSeconds = timeout;
        p.debug = debug;
        return p;
    }

    static long parseSize(String s) {
        String t = s.trim();
        long mult = 1;
        if (t.endsWith("K") || t.endsWith("k")) {
            mult = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("M") || t.endsWith("m")) {
            mult = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = Long.parseLong(t) * mult;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("invalid size '" + s + "' (bytes, or with a K or M suffix)");
        }
        if (v < 1 || v > 0x7fffffffL) {
            throw new IllegalArgumentException("size must be 1 .. " + 0x7fffffffL + " bytes, not " + v);
        }
        return v;
    }

    @Override
    public Integer call() throws Exception {
        RunParameters p;
        try {
            p = parameters();
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        PrintWriter out = spec.commandLine().getOut();
        Duration peerRun = Duration.ofSeconds(peerTimeout + (p.durationSeconds > 0 ? p.durationSeconds : 0));
        ExchangeTimeouts timeouts = new ExchangeTimeouts(Duration.ofSeconds(timeout), Duration.ofSeconds(acceptTimeout),
                Duration.ofSeconds(timeout), peerRun);
        try (PerftestEngine engine = new PerftestEngine(p, out)) {
            ExchangeChannel channel;
            if (p.role == Role.CLIENT) {
                engine.warmUp();
                out.print(PerftestFormat.preamble(p.tool, p.role));
                out.flush();
                channel = p.rdmaCmExchange ? RdmaCmControlChannel.connect(p.server, p.tcpPort, timeouts.connect())
                        : TcpExchangeChannel.connect(p.server, p.tcpPort, timeouts.connect(), false);
            } else if (p.rdmaCmExchange) {
                try (RdmaCmControlChannel.Listener listener = RdmaCmControlChannel.listen(p.tcpPort)) {
                    engine.warmUp();
                    out.print(PerftestFormat.preamble(p.tool, p.role));
                    out.flush();
                    channel = listener.accept(timeouts.accept());
                }
            } else {
                // Listen before the warm-up: a client that connects meanwhile waits in the backlog.
                try (ExchangeListener listener = ExchangeListener.listen(null, p.tcpPort, false)) {
                    engine.warmUp();
                    out.print(PerftestFormat.preamble(p.tool, p.role));
                    out.flush();
                    channel = listener.accept(timeouts.accept());
                }
            }
            try (PerftestExchange exchange = new PerftestExchange(channel, timeouts, engine.withGid())) {
                exchange.binaryKeyGidIndex(engine.gidIndex());
                HandshakeScript script = HandshakeScript.of(p.tool, p.role, p.allSizes, p.bidirectional, p.rdmaCm);
                ScriptRunner.run(script, exchange, engine.sizes().length, engine);
            }
            engine.writeJson();
            return engine.verifyMismatches() == 0 ? 0 : 1;
        }
    }

    // ---- options only some tools have, declared in the subclasses' mixins ----

    /** -q, -b, -l, -Q, -N: bandwidth tools. */
    static final class BwOptions {
        @Option(names = {"-q", "--qp"}, paramLabel = "N", description = "Number of QPs (default: 1).")
        int qps = 1;

        @Option(names = {"-b", "--bidirectional"}, description = "Measure both directions at once.")
        boolean bidirectional;

        @Option(names = {"-l", "--post_list"}, paramLabel = "N", description = "Post N work requests per post call.")
        Integer postList;

        @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "Signal every N-th work request (default: 100).")
        Integer cqMod;

        @Option(names = {"-N", "--noPeak"}, description = "Do not compute the peak bandwidth.")
        boolean noPeak;
    }

    /** -U, --hgrm: latency tools. */
    static final class LatOptions {
        @Option(names = {"-U", "--report-unsorted"}, description = "Print every sample, unsorted.")
        boolean unsorted;

        @Option(names = {"--hgrm"}, paramLabel = "FILE",
                description = "Write the full HdrHistogram latency distribution (.hgrm, µs) to FILE (FILE.<size> with -a).")
        Path hgrm;
    }

    /** -I: send and write tools. */
    static final class InlineOption {
        @Option(names = {"-I", "--inline_size"}, paramLabel = "BYTES", description = "Max inline data size.")
        Integer inline;
    }

    /** -o: read and atomic tools. */
    static final class OutstandingOption {
        @Option(names = {"-o", "--outs"}, paramLabel = "N", description = "Outstanding reads/atomics (default: device max).")
        Integer outs;
    }

    /** -A: atomic tools. */
    static final class AtomicOption {
        @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", description = "CMP_AND_SWAP or FETCH_AND_ADD (default).")
        String type;
    }
}
