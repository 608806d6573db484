package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.engine.memory.MemoryChoice;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The one place where a command line becomes {@link RunParameters}: every per-tool default of perftest 4.5 and
 * every rule between flags, each with perftest's message where perftest has one. Rules run in a fixed order;
 * the first that fails is the one the user sees.
 */
public final class ParameterRules {
    /** perftest's default {@code -Q} when the plan has no reason to choose another. */
    public static final int DEFAULT_CQ_MODERATION = 100;
    /** The largest message perftest accepts ({@code -s}). */
    static final long MAX_SIZE = 0x7fffffffL;

    private static final List<String> KNOWN_CONNECTIONS = List.of("RC", "UC", "UD", "XRC", "DC", "SRD");
    private static final List<String> NOT_ON_SOFT_ROCE = List.of("XRC", "DC", "SRD");
    private static final List<Integer> MTUS = List.of(256, 512, 1024, 2048, 4096);

    private ParameterRules() {
    }

    /**
     * The parameters of {@code tool} run with {@code o}.
     *
     * @throws InvalidParameterException naming the first rule the command line breaks
     */
    public static RunParameters check(Tool tool, ToolOptions o) {
        RunParameters.Endpoint partial = endpoint(o);
        long size = size(tool, o);
        long iterations = iterations(tool, o);
        int[] duration = duration(o);
        int tx = txDepth(tool, o);
        int rx = rxDepth(tool, o);
        Connection connection = connection(tool, o);
        int qps = numQps(tool, o);
        boolean bidirectional = o.bidirectional;
        require(!(bidirectional && tool.verb() == Verb.SEND && o.duration != null),
                // perftest prints each side's own row here, without the report exchange of the iteration mode.
                "-b with -D for ib_send_bw is not supported yet by perftest-java");
        boolean rdmaCm = rdmaCm(o, connection);
        int inline = inline(o);
        int cqMod = o.cqModeration == null ? 0 : o.cqModeration;
        require(o.cqModeration == null || cqMod >= 1 && cqMod <= 1024, "CQ moderation (-Q) must be 1..1024");
        int postList = postList(o, tx, iterations);
        int mtu = mtu(o);
        require(!(o.events && tool == Tool.WRITE_LAT),
                "Events feature not available on WRITE verb (ib_write_lat polls memory)");
        boolean cas = compareAndSwap(o);
        int outs = o.outstandingReads == null ? 0 : o.outstandingReads;
        require(o.outstandingReads == null || outs >= 1, "outstanding reads (-o) must be positive");
        int qpTimeout = orDefault(o.qpTimeout, 14);
        require(qpTimeout >= 0 && qpTimeout <= 31, "QP timeout (-u) must be 0..31");
        RunParameters.Endpoint endpoint = new RunParameters.Endpoint(partial.server(), partial.device(),
                partial.ibPort(), partial.gidIndex(), partial.tcpPort(), connection, rdmaCm, rdmaCm || o.commRdmaCm,
                mtu, qpTimeout, orDefault(o.serviceLevel, 0));
        RunParameters.Workload workload = new RunParameters.Workload(size, o.all, iterations, duration[0],
                duration[1], qps, bidirectional, tx, rx, cqMod, postList, inline, outs, o.events, cas, o.noPeak);
        return new RunParameters(tool, o.server == null ? Role.SERVER : Role.CLIENT, endpoint, workload, output(tool, o),
                limits(o), MemoryChoice.HOST);
    }

    /** Connection, ports and GID; the connection type and the rdma_cm flags are filled in later. */
    private static RunParameters.Endpoint endpoint(ToolOptions o) {
        int ibPort = orDefault(o.ibPort, 1);
        require(ibPort >= 1 && ibPort <= 255, "invalid -i/--ib-port " + ibPort + " (ports start at 1)");
        int gid = -1;
        if (o.gidIndex != null) {
            require(o.gidIndex >= 0 && o.gidIndex <= 255, "invalid -x/--gid-index " + o.gidIndex);
            gid = o.gidIndex;
        }
        int tcpPort = orDefault(o.tcpPort, 18515);
        require(tcpPort >= 1 && tcpPort <= 65535, "invalid -p/--port " + tcpPort);
        return new RunParameters.Endpoint(o.server, o.device, ibPort, gid, tcpPort, Connection.RC, false, false, 0,
                14, 0);
    }

    private static long size(Tool tool, ToolOptions o) {
        if (tool.verb() == Verb.ATOMIC) {
            require(o.size == null, "Message size cannot be changed for Atomic tests");
            require(!o.all, "-a is not available for atomic tests (the size is always 8 bytes)");
            return 8;
        }
        return o.size == null ? (tool.bandwidth() ? 65536 : 2) : parseSize(o.size);
    }

    private static long iterations(Tool tool, ToolOptions o) {
        long iterations = o.iterations != null ? o.iterations : tool == Tool.WRITE_BW ? 5000 : 1000;
        require(iterations >= 5 && iterations <= 100_000_000L,
                "iterations (-n) must be 5..100000000, not " + iterations);
        return iterations;
    }

    /** {duration, margin} in seconds; {0, 0} in iteration mode. */
    private static int[] duration(ToolOptions o) {
        if (o.duration == null) {
            require(o.margin == null, "-f/--margin needs -D");
            return new int[] {0, 0};
        }
        int d = o.duration;
        require(d > 0, "duration (-D) must be a positive number of seconds");
        require(!o.all, "-D cannot be combined with -a");
        require(!o.events, "-D cannot be combined with -e");
        int margin = o.margin == null ? d / 4 : o.margin;
        require(d > 2 * margin, "please check that DURATION > 2*MARGIN");
        return new int[] {d, margin};
    }

    private static int txDepth(Tool tool, ToolOptions o) {
        int tx = o.txDepth != null ? o.txDepth : tool.bandwidth() ? 128 : 1;
        require(tx >= 1 && tx <= 15000, "tx depth (-t) must be 1..15000");
        return tx;
    }

    private static int rxDepth(Tool tool, ToolOptions o) {
        if (tool.verb() != Verb.SEND) {
            require(o.rxDepth == null || o.rxDepth == 1, "On RDMA verbs rx depth can be only 1");
            return 1;
        }
        int rx = orDefault(o.rxDepth, 512);
        require(rx >= 1 && rx <= 16384, "rx depth (-r) must be 1..16384");
        return rx;
    }

    private static Connection connection(Tool tool, ToolOptions o) {
        String typed = o.connection == null ? "RC" : o.connection;
        String c = typed.toUpperCase(Locale.ROOT);
        require(KNOWN_CONNECTIONS.contains(c), "unknown connection type -c " + typed + " (RC, UC or UD)");
        boolean allowed = switch (tool.verb()) {
            case SEND -> List.of("RC", "UC", "UD").contains(c);
            case WRITE -> List.of("RC", "UC").contains(c);
            default -> c.equals("RC");
        };
        require(allowed, "connection type " + c + " is not available for " + tool.perftestName()
                + (NOT_ON_SOFT_ROCE.contains(c) ? " in perftest-java (Soft-RoCE has no " + c + ")" : ""));
        return Connection.valueOf(c);
    }

    private static int numQps(Tool tool, ToolOptions o) {
        int qps = orDefault(o.qps, 1);
        require(qps >= 1 && qps <= 16384, "number of QPs (-q) must be 1..16384");
        require(tool.bandwidth() || qps == 1, "Multiple QPs only available on bw tests");
        return qps;
    }

    private static boolean rdmaCm(ToolOptions o, Connection c) {
        if (o.rdmaCm) {
            require(c != Connection.UC, "UC is not supported in librdmacm (-R)");
            require(c != Connection.UD, "-R with -c UD is not supported yet by perftest-java");
        }
        return o.rdmaCm;
    }

    private static int inline(ToolOptions o) {
        if (o.inline == null) {
            return -1;
        }
        require(o.inline >= 0 && o.inline <= 912, "inline size (-I) must be 0..912");
        return o.inline;
    }

    private static int postList(ToolOptions o, int tx, long iterations) {
        if (o.postList == null) {
            return 1;
        }
        int v = o.postList;
        require(v >= 1 && v <= tx, "post list (-l) must be 1..tx depth (" + tx + ")");
        require(iterations % v == 0, "iterations (-n) must be a multiple of the post list (-l)");
        return v;
    }

    private static int mtu(ToolOptions o) {
        if (o.mtu == null) {
            return 0;
        }
        require(MTUS.contains(o.mtu), "MTU (-m) must be 256, 512, 1024, 2048 or 4096");
        return o.mtu;
    }

    private static boolean compareAndSwap(ToolOptions o) {
        if (o.atomicType == null) {
            return false;
        }
        String v = o.atomicType.toUpperCase(Locale.ROOT);
        require(v.equals("CMP_AND_SWAP") || v.equals("FETCH_AND_ADD"),
                "atomic type (-A) must be CMP_AND_SWAP or FETCH_AND_ADD");
        return v.equals("CMP_AND_SWAP");
    }

    private static RunParameters.Output output(Tool tool, ToolOptions o) {
        // perftest refuses it too (" is Available only on Latency tests"): a bandwidth run keeps no samples.
        require(!o.unsorted || !tool.bandwidth(), "-U (--report-unsorted) is available only on latency tests");
        Path json = o.outJson || o.outJsonFile != null
                ? o.outJsonFile == null ? Path.of("perftest_out.json") : o.outJsonFile : null;
        return new RunParameters.Output(o.reportGbits ? BwUnit.GB_PER_SEC : BwUnit.MB_PER_SEC, json, o.hgrm,
                o.unsorted, o.verify);
    }

    private static RunParameters.Limits limits(ToolOptions o) {
        int warmup = orDefault(o.warmup, 4_000);
        require(warmup >= 0, "--warmup must be >= 0");
        int timeout = orDefault(o.timeout, 10);
        require(timeout >= 1, "--timeout must be at least 1 second");
        return new RunParameters.Limits(timeout, orDefault(o.acceptTimeout, 300), orDefault(o.peerTimeout, 300),
                warmup, o.debug);
    }

    /** perftest's {@code -s}: bytes, or with a K or M suffix (powers of 1024). */
    public static long parseSize(String s) {
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
            throw new InvalidParameterException("invalid size '" + s + "' (bytes, or with a K or M suffix)");
        }
        require(v >= 1 && v <= MAX_SIZE, "size must be 1 .. " + MAX_SIZE + " bytes, not " + v);
        return v;
    }

    private static int orDefault(Integer given, int perftestDefault) {
        return given == null ? perftestDefault : given;
    }

    private static void require(boolean rule, String message) {
        if (!rule) {
            throw new InvalidParameterException(message);
        }
    }
}
