package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.perftest.vocab.Verbosity;

import static io.rdmaffm.perftest.params.Flag.*;

import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The one place where a command line becomes {@link RunParameters}: every per-tool default of perftest 4.5 and
 * every rule between flags, each with perftest's message where perftest has one. A flag's default per tool and
 * its own range rule are declared with it ({@link Flag}); the rules between flags are here. Rules run in a fixed
 * order, each flag's own where its value is first read; the first that fails is the one the user sees.
 */
public final class ParameterRules {
    /** perftest's default {@code -Q} when the plan has no reason to choose another. */
    public static final int DEFAULT_CQ_MODERATION = 100;
    /** The largest message perftest accepts ({@code -s}). */
    static final long MAX_SIZE = 0x7fffffffL;

    private static final List<String> KNOWN_CONNECTIONS = List.of("RC", "UC", "UD", "XRC", "DC", "SRD");
    private static final List<Integer> MTUS = List.of(256, 512, 1024, 2048, 4096);

    private ParameterRules() {
    }

    /**
     * The parameters of {@code tool} run with {@code o}.
     *
     * @throws InvalidParameterException naming the first rule the command line breaks
     */
    public static RunParameters check(Tool tool, ToolOptions o) {
        RunParameters.Endpoint partial = endpoint(tool, o);
        RunParameters.Workload.Builder w = RunParameters.Workload.builder();
        // perftest's --run_infinitely replaces -a's method after parsing: one size, -a without effect
        w.size(size(tool, o)).allSizes(o.on(ALL_SIZES) && !o.on(RUN_INFINITELY))
                .sizeGiven(o.given(SIZE));
        long iterations = o.longFor(ITERATIONS, tool);
        w.iterations(iterations);
        duration(tool, o, w);
        int tx = o.intFor(TX_DEPTH, tool);
        w.txDepth(tx).rxDepth(rxDepth(tool, o));
        Connection connection = connection(tool, o);
        int qps = o.intFor(QPS, tool);
        require(tool.bandwidth() || qps == 1, "Multiple QPs only available on bw tests");
        boolean bidirectional = o.on(BIDIRECTIONAL);
        w.numQps(qps).bidirectional(bidirectional);
        threads(tool, o, qps);
        require(!(bidirectional && tool.verb() == Verb.SEND && o.given(DURATION)),
                // perftest prints each side's own row here, without the report exchange of the iteration mode.
                "-b with -D for ib_send_bw is not supported yet by perftest-java");
        // perftest's messages (its typo kept: scripts may match it).
        require(!o.on(SRQ) || tool.verb() == Verb.SEND, "Using SRQ only avavilible in SEND tests.");
        require(!o.on(SRQ) || qps <= o.intFor(RX_DEPTH, tool),
                "Using SRQ depth should be greater than number of QPs.");
        boolean rdmaCm = rdmaCm(o, connection);
        crypto(tool, o, connection);
        require(!o.given(FORCE_LINK) || forcedLink(o.text(FORCE_LINK)) != null,
                "Invalid link layer value should be IB or ETHERNET (--force-link " + o.text(FORCE_LINK) + ")");
        require(!rdmaCm || o.intFor(DLID, tool) == 0, "--dlid with -R is not supported: rdma_cm resolves the route");
        // perftest ignores it there; a flag here never goes without effect.
        require(!rdmaCm || o.intFor(PKEY_INDEX, tool) == 0,
                "--pkey_index with -R is not supported: rdma_cm chooses the P_Key from the route");
        require(!o.given(SOURCE_IP) || o.text(SOURCE_IP).matches(
                "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)"),
                "invalid --source_ip '" + o.text(SOURCE_IP) + "' (an IPv4 address, e.g. 10.0.0.1)");
        require(!o.on(IPV6) || !o.given(GID_INDEX), "--ipv6 chooses the GID index: not with -x/--gid-index");
        require(!o.on(IPV6) || !rdmaCm, "--ipv6 with -R is not supported: rdma_cm takes the GID of its route to the "
                + "server's IPv4 address (perftest 4.5's rdma_cm is IPv4 only)");
        require(!o.given(TOS) || rdmaCm, "TOS only valid for rdma_cm based QP and RawEth QP (-T needs -R)");
        require(!o.given(TCLASS) || !rdmaCm,
                "--tclass with -R is not supported: rdma_cm builds the address, use -T to set its class");
        require(!o.given(COUNTERS) || counterNamesValid(o.text(COUNTERS)),
                "invalid -W/--report-counters list: comma-separated names under the port's sysfs directory, "
                        + "e.g. hw_counters/out_of_buffer,counters/port_xmit_wait");
        w.inlineSize(o.intFor(INLINE_SIZE, tool)).cqModeration(o.intFor(CQ_MODERATION, tool))
                .postList(postList(tool, o, tx, iterations));
        int mtu = mtu(tool, o);
        require(!(o.on(EVENTS) && tool == Tool.WRITE_LAT),
                "Events feature not available on WRITE verb (ib_write_lat polls memory)");
        // perftest's lines; the device's num_comp_vectors is checked when it is opened (DeviceRules).
        require(!o.given(VECTOR) || tool.verb() != Verb.WRITE, "Events feature not available on WRITE verb");
        require(!o.given(VECTOR) || o.on(EVENTS), "Events must be enabled to select a completion vector");
        require(!o.on(REPORT_PER_PORT) || (o.given(DURATION) && o.on(DUALPORT)),
                "report per port feature work only with Duration and Dualport");
        require(!o.on(ODP) || (!o.given(USE_CUDA) && !o.given(USE_CUDA_BUS_ID)),
                "--odp pages host memory: not with --use_cuda/--use_cuda_bus_id");
        bufferAndPosting(tool, o, iterations);
        if (o.given(ROCM)) {
            throw new InvalidParameterException(RocmRuntime.refusal(RocmRuntime::loadable));
        }
        ResultLimits.parse(o.text(LIMIT_BW), "Invalid Minimum BW Limit");
        ResultLimits.parse(o.text(LIMIT_MSGRATE), "Invalid Minimum msgRate Limit");
        RateLimit.check(tool, o);
        runInfinitely(tool, o, rdmaCm || o.on(COMM_RDMA_CM));
        multicast(o, qps);
        w.useEvents(o.on(EVENTS)).compareAndSwap(compareAndSwap(tool, o))
                .outstandingReads(o.intFor(OUTSTANDING_READS, tool));
        int qpTimeout = o.intFor(QP_TIMEOUT, tool);
        RunParameters.Endpoint endpoint = new RunParameters.Endpoint(partial.server(), partial.device(),
                partial.ibPort(), partial.gidIndex(), partial.tcpPort(), connection, rdmaCm,
                rdmaCm || o.on(COMM_RDMA_CM), mtu, qpTimeout, o.intFor(SERVICE_LEVEL, tool));
        // --reversed: the role is the traffic's (who sends), as perftest's machine; the host still says who connects.
        require(!o.on(REVERSED) || (!rdmaCm && !o.on(COMM_RDMA_CM)), "--reversed with -R/-z is not supported: "
                + "rdma_cm's active side is the one given a host, and perftest's reversed rdma_cm sides do not meet");
        boolean sends = (o.server() != null) != o.on(REVERSED);
        return new RunParameters(tool, sends ? Role.CLIENT : Role.SERVER, endpoint, w.build(),
                output(tool, o), limits(tool, o),
                MemoryChoice.fromFlags(tool, o.text(USE_CUDA), o.text(USE_CUDA_BUS_ID), o.on(USE_CUDA_DMABUF)),
                flagValues(tool, o));
    }

    /**
     * {@code --threads T}: each thread drives at least one QP (the QPs are spread evenly, so -q need not be a
     * multiple of T), and the loops that a single thread must own stay on one: the events' one channel, the
     * shared receive queue, the rate limiter's pacing and the endless run.
     */
    private static void threads(Tool tool, ToolOptions o, int qps) {
        int threads = o.intFor(THREADS, tool);
        if (threads == 1) {
            return;
        }
        require(threads <= qps, "--threads " + threads + " exceeds the number of QPs (-q " + qps
                + "): each thread drives at least one QP");
        require(!o.on(EVENTS), "--threads with -e is not supported: the CQs share one completion channel");
        require(!o.on(SRQ), "--threads with --use-srq is not supported: the QPs share one receive queue");
        require(!o.given(RATE_LIMIT), "--threads with --rate_limit is not supported: the limit paces one sender");
        require(!o.on(RUN_INFINITELY), "--threads with --run_infinitely is not supported: the endless run has one row clock and one stop signal");
    }

    /**
     * Every supported flag's value as given or defaulted for {@code tool}, each given value checked by its own
     * rule: a flag declared with a rule is checked even where nothing above reads it.
     */
    private static Map<Flag, Object> flagValues(Tool tool, ToolOptions o) {
        Map<Flag, Object> values = new EnumMap<>(Flag.class);
        for (Flag f : Flag.values()) {
            if (f.rawEthernet()) {
                continue;
            }
            Object v = o.valueFor(f, tool);
            if (o.given(f) && v instanceof Number n) {
                f.check(n.longValue());
            }
            if (v != null) {
                values.put(f, v);
            }
        }
        return values;
    }

    /** Connection, ports and GID; the connection type and the rdma_cm flags are filled in later. */
    private static RunParameters.Endpoint endpoint(Tool tool, ToolOptions o) {
        int ibPort = o.intFor(IB_PORT, tool);
        int gid = o.intFor(GID_INDEX, tool);
        int tcpPort = o.intFor(TCP_PORT, tool);
        return new RunParameters.Endpoint(o.server(), o.text(DEVICE), ibPort, gid, tcpPort, Connection.RC, false,
                false, 0, 14, 0);
    }

    private static long size(Tool tool, ToolOptions o) {
        if (tool.verb() == Verb.ATOMIC) {
            require(!o.given(SIZE), "Message size cannot be changed for Atomic tests");
            require(!o.on(ALL_SIZES), "-a is not available for atomic tests (the size is always 8 bytes)");
            return 8;
        }
        return parseSize((String) o.valueFor(SIZE, tool));
    }

    /** -D and -f: duration and margin in seconds, both 0 in iteration mode. */
    private static void duration(Tool tool, ToolOptions o, RunParameters.Workload.Builder w) {
        if (!o.given(DURATION)) {
            require(!o.given(MARGIN), "-f/--margin needs -D");
            // perftest warns with this line and runs without the column; a flag here never goes without effect.
            require(!o.on(CPU_UTIL), "CPU Utilization works only with Duration mode (-D)");
            w.durationSeconds(0).marginSeconds(0);
            return;
        }
        int d = o.intFor(DURATION, tool);
        require(!o.on(ALL_SIZES) || o.on(RUN_INFINITELY), "-D cannot be combined with -a");
        require(!o.on(EVENTS), "-D cannot be combined with -e");
        int margin = o.given(MARGIN) ? o.intGiven(MARGIN) : d / 4;
        require(d > 2 * margin, "please check that DURATION > 2*MARGIN");
        w.durationSeconds(d).marginSeconds(margin);
    }

    /** {@code -g} and {@code -M}: perftest's lines where it has them; the group's GID read once (MulticastGid). */
    private static void multicast(ToolOptions o, int qps) {
        if (!o.on(MCG)) {
            // perftest reads -M without -g and uses it nowhere.
            require(!o.given(MGID), "-M/--MGID names the multicast group of -g/--mcg: give -g too");
            return;
        }
        require(!o.on(BIDIRECTIONAL), "Bidirectional mode not supported in multicast (-g with -b)");
        require(qps == 1, "Only 1 QP supported in multicast (-g with -q " + qps + ")");
        require(!o.on(DUALPORT), "Dual-port mode not supported in multicast feature (-g with -O)");
        if (o.given(MGID)) {
            MulticastGid.parse(o.text(MGID));
        }
    }

    /**
     * {@code --run_infinitely}: perftest's rules (its lines, said plainly), then perftest-java's own. perftest takes
     * -a (--run_infinitely replaces the method: one size) and --cpu_util (it prints a column nothing sampled).
     */
    private static void runInfinitely(Tool tool, ToolOptions o, boolean rdmaCmExchange) {
        if (!o.on(RUN_INFINITELY)) {
            return;
        }
        require(!o.on(EVENTS), "run_infinitely does not support events feature yet (-e)");
        require(!(o.on(BIDIRECTIONAL) && tool.verb() == Verb.SEND),
                "run_infinitely mode is not supported in SEND Bidirectional BW test (ib_send_bw -b)");
        require(!o.given(RATE_LIMIT), "run_infinitely does not support rate limit feature yet (--rate_limit)");
        require(!o.on(VERIFY), "--verify is incompatible with --run_infinitely");
        require(!o.on(CPU_UTIL), "--cpu_util measures a -D run's sample window: not with --run_infinitely "
                + "(perftest prints the column there with nothing sampled)");
        // Where both sides loop, the exchange connection's close is the end (perftest has no message for it).
        require(!rdmaCmExchange || (tool.verb() != Verb.SEND && !o.on(BIDIRECTIONAL)),
                "--run_infinitely on ib_send_bw or with -b takes the TCP exchange (not -R/--rdma_cm): its end is "
                        + "the connection's close");
    }

    /**
     * perftest's reading of {@code --force-link}: "IB" or "Ethernet" as a prefix, in any case ("ib", "ETHERNET");
     * null for anything else.
     */
    public static String forcedLink(String value) {
        if (value == null) {
            return null;
        }
        if (value.regionMatches(true, 0, "IB", 0, 2)) {
            return "IB";
        }
        return value.regionMatches(true, 0, "Ethernet", 0, 8) ? "Ethernet" : null;
    }

    private static int rxDepth(Tool tool, ToolOptions o) {
        if (tool.verb() != Verb.SEND) {
            Integer given = o.intGiven(RX_DEPTH);
            require(given == null || given == 1, "On RDMA verbs rx depth can be only 1");
            return 1;
        }
        return o.intFor(RX_DEPTH, tool);
    }

    private static Connection connection(Tool tool, ToolOptions o) {
        if (o.on(MCG)) {
            // perftest turns any -c into UD with -g; a flag here never goes without effect, so an explicit other
            // type is refused rather than replaced.
            String typed = o.given(CONNECTION) ? o.text(CONNECTION).toUpperCase(Locale.ROOT) : "UD";
            require(typed.equals("UD"), "-g/--mcg runs on UD: not with -c " + o.text(CONNECTION)
                    + " (leave -c out or give -c UD)");
        }
        String typed = o.on(MCG) ? "UD" : (String) o.valueFor(CONNECTION, tool);
        String c = typed.toUpperCase(Locale.ROOT);
        require(!c.equals("RAWETH"), "-c RawEth is the transport of perftest's raw Ethernet tools (raw packet QPs), "
                + "which perftest-java has not; " + tool.perftestName() + " runs RC, UC or UD");
        require(KNOWN_CONNECTIONS.contains(c), "unknown connection type -c " + typed + " (RC, UC, UD, XRC, DC or SRD)");
        // perftest's change_conn_type: XRC and DC on every verb, SRD on send and read. Whether the device has
        // them is DeviceRules' (the run's device is not open yet).
        boolean allowed = switch (c) {
            case "UC" -> tool.verb() == Verb.SEND || tool.verb() == Verb.WRITE;
            case "UD" -> tool.verb() == Verb.SEND;
            case "SRD" -> tool.verb() == Verb.SEND || tool.verb() == Verb.READ;
            default -> true;
        };
        require(allowed, "connection type " + c + " is not available for " + tool.perftestName());
        Connection conn = Connection.valueOf(c);
        if (!conn.runsHere()) {
            // perftest's rules for them, with its messages; the device's refusal follows where these pass.
            require(!o.on(RDMA_CM), c + " does not support RDMA_CM (-R)");
            require(conn != Connection.SRD || !o.on(EVENTS), "SRD does not support events (-e)");
        }
        require(conn == Connection.DC || !(o.given(LOG_DCI_STREAMS) || o.given(LOG_ACTIVE_DCI_STREAMS)),
                (o.given(LOG_DCI_STREAMS) ? "log_dci_streams" : "log_active_dci_streams")
                        + " supported only on DC (-c DC)");
        return conn;
    }

    /**
     * perftest's rules between the mlx5 crypto flags (its HAVE_AES_XTS build), with its messages and the flags
     * named; what passes them meets the device (DeviceRules), which refuses them all.
     */
    private static void crypto(Tool tool, ToolOptions o, Connection c) {
        if (!o.on(AES_XTS)) {
            for (Flag f : new Flag[] {ENCRYPT_ON_TX, SIG_BEFORE, CREDENTIALS_PATH, KEK_PATH, DATA_ENC_KEY_APP_PATH}) {
                require(!o.given(f), f.longName() + " supported only with enc/dec traffic (--aes_xts)");
            }
            return;
        }
        require(c == Connection.RC, "aes_xts supported only on RC (--aes_xts with -c " + c + ")");
        require(o.given(KEK_PATH), "Please provide key encryption key file path (--aes_xts needs --kek_path)");
        require(o.given(DATA_ENC_KEY_APP_PATH),
                "Please provide data encryption key app path (--aes_xts needs --data_enc_key_app_path)");
        require(o.given(CREDENTIALS_PATH), "Please provide credentials file path (--aes_xts needs --credentials_path)");
        require(!o.on(RDMA_CM), "rdma_cm doesn't support aes_xts (--aes_xts with -R)");
        require(tool != Tool.WRITE_LAT, "aes_xts isn't supported on write_lat");
    }

    private static boolean rdmaCm(ToolOptions o, Connection c) {
        if (o.on(RDMA_CM)) {
            require(!o.on(MCG), "Perftest still doesn't support Multicast with rdma_cm (-g with -R)");
            require(c != Connection.UC, "UC is not supported in librdmacm (-R)");
            require(c != Connection.UD, "-R with -c UD is not supported yet by perftest-java");
        }
        return o.on(RDMA_CM);
    }

    /** Each name a path below the port's directory: no empty name, no {@code ..}, no absolute path. */
    private static boolean counterNamesValid(String list) {
        for (String n : list.split(",", -1)) {
            if (!n.matches("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*") || List.of(n.split("/")).contains("..")) {
                return false;
            }
        }
        return true;
    }

    private static int postList(Tool tool, ToolOptions o, int tx, long iterations) {
        if (!o.given(POST_LIST)) {
            return o.intFor(POST_LIST, tool);
        }
        int v = o.intGiven(POST_LIST);
        require(v >= 1 && v <= tx, "post list (-l) must be 1..tx depth (" + tx + ")");
        require(iterations % v == 0, "iterations (-n) must be a multiple of the post list (-l)");
        return v;
    }

    /**
     * Where the buffer lives ({@code --use_hugepages}, {@code --mmap}) and how receives are posted
     * ({@code --recv_post_list}): perftest lets one buffer choice silently win over another and accepts a receive
     * list where nothing receives; here each is one line.
     */
    private static void bufferAndPosting(Tool tool, ToolOptions o, long iterations) {
        boolean cuda = o.given(USE_CUDA) || o.given(USE_CUDA_BUS_ID);
        require(!o.given(MMAP_OFFSET) || o.given(MMAP), "--mmap-offset needs --mmap FILE");
        require(!o.given(MMAP) || !cuda, "You cannot use CUDA and an mmap'd file at the same time (--mmap with "
                + "--use_cuda)");
        require(!o.on(HUGEPAGES) || !o.given(MMAP), "--use_hugepages and --mmap both choose the buffer: give one");
        require(!o.on(HUGEPAGES) || !cuda, "--use_hugepages puts the buffer in host memory: not with --use_cuda");
        require(!o.on(MR_PER_QP) || !cuda, "--mr_per_qp registers host memory once per QP: not with --use_cuda");
        if (!o.given(RECV_POST_LIST) || o.intGiven(RECV_POST_LIST) == 1) {
            return;
        }
        int n = o.intGiven(RECV_POST_LIST);
        RECV_POST_LIST.check(n);
        require(tool.verb() == Verb.SEND, "--recv_post_list posts receives: only ib_send_bw receives ("
                + tool.perftestName() + " posts none)");
        require(o.given(DURATION) || iterations % n == 0,
                "Number of iterations must be a multiple of receive post list size (-n, --recv_post_list)");
        require(o.intFor(RX_DEPTH, tool) % n == 0, "rx depth (-r " + o.intFor(RX_DEPTH, tool)
                + ") must be a multiple of the receive post list (--recv_post_list " + n + ")");
    }

    private static int mtu(Tool tool, ToolOptions o) {
        int mtu = o.intFor(MTU, tool);
        require(!o.given(MTU) || MTUS.contains(mtu), "MTU (-m) must be 256, 512, 1024, 2048 or 4096");
        return mtu;
    }

    private static boolean compareAndSwap(Tool tool, ToolOptions o) {
        String v = ((String) o.valueFor(ATOMIC_TYPE, tool)).toUpperCase(Locale.ROOT);
        require(v.equals("CMP_AND_SWAP") || v.equals("FETCH_AND_ADD"),
                "atomic type (-A) must be CMP_AND_SWAP or FETCH_AND_ADD");
        return v.equals("CMP_AND_SWAP");
    }

    private static RunParameters.Output output(Tool tool, ToolOptions o) {
        // perftest refuses it too (" is Available only on Latency tests"): a bandwidth run keeps no samples.
        require(!o.on(REPORT_UNSORTED) || !tool.bandwidth(),
                "-U (--report-unsorted) is available only on latency tests");
        Path json = o.on(OUT_JSON) || o.given(OUT_JSON_FILE) ? (Path) o.valueFor(OUT_JSON_FILE, tool) : null;
        return new RunParameters.Output(o.on(REPORT_GBITS) ? BwUnit.GB_PER_SEC : BwUnit.MB_PER_SEC, json,
                o.path(HGRM), o.on(REPORT_UNSORTED), o.on(VERIFY), verbosity(tool, o));
    }

    /** {@code --output}: perftest's values, each only on the tools that print that figure (its messages). */
    private static Verbosity verbosity(Tool tool, ToolOptions o) {
        if (!o.given(OUTPUT)) {
            return Verbosity.FULL;
        }
        Verbosity v = Verbosity.ofOutput(o.text(OUTPUT));
        require(v != null, "Invalid verbosity level output flag. Please use bandwidth, latency, message_rate");
        require(!tool.bandwidth() || v != Verbosity.LATENCY,
                "Output verbosity level for BW can be: bandwidth, message_rate");
        require(tool.bandwidth() || v == Verbosity.LATENCY, "Output verbosity level for LAT can be: latency");
        return v;
    }

    private static RunParameters.Limits limits(Tool tool, ToolOptions o) {
        int warmup = o.intFor(WARMUP, tool);
        int timeout = o.intFor(TIMEOUT, tool);
        return new RunParameters.Limits(timeout, o.intFor(ACCEPT_TIMEOUT, tool), o.intFor(PEER_TIMEOUT, tool), warmup,
                o.on(DEBUG));
    }

    /** perftest's {@code -s}: bytes, or with a K or M suffix (powers of 1024). */
    public static long parseSize(String s) {
        return parseSize(s, false);
    }

    /**
     * {@code fabric}'s and {@code fabric-worker}'s {@code -s}: perftest's sizes plus G (nccl-tests sweep to
     * {@code -e 1G}); the one parser the driver and its workers share, so both read a size the same way.
     */
    public static long parseCollectiveSize(String s) {
        return parseSize(s, true);
    }

    private static long parseSize(String s, boolean giga) {
        String t = s.trim();
        long mult = 1;
        if (t.endsWith("K") || t.endsWith("k")) {
            mult = 1024;
            t = t.substring(0, t.length() - 1);
        } else if (t.endsWith("M") || t.endsWith("m")) {
            mult = 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        } else if (giga && (t.endsWith("G") || t.endsWith("g"))) {
            mult = 1024 * 1024 * 1024;
            t = t.substring(0, t.length() - 1);
        }
        long v;
        try {
            v = Math.multiplyExact(Long.parseLong(t), mult);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new InvalidParameterException("invalid size '" + s + "' (bytes, or with a K" + (giga ? ", M or G"
                    : " or M") + " suffix)");
        }
        require(v >= 1 && v <= MAX_SIZE, "size must be 1 .. " + MAX_SIZE + " bytes, not " + v);
        return v;
    }

    private static void require(boolean rule, String message) {
        if (!rule) {
            throw new InvalidParameterException(message);
        }
    }
}
