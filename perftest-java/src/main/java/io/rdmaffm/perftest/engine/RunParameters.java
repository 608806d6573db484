package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A perftest run's parameters after the command line has been parsed, defaulted per tool and validated:
 * plain values handed from the CLI to the engine.
 */
public final class RunParameters {
    public Tool tool;
    public Role role;
    /** Server address (client only). */
    public String server;
    public String device;
    public int ibPort = 1;
    /** -x; -1 = choose (RoCE) or none (InfiniBand). */
    public int gidIndex = -1;
    public boolean gidIndexGiven;
    public int tcpPort = 18515;
    public long size;
    /** -a: every power of two from 2 to 8 MiB. */
    public boolean allSizes;
    public long iterations;
    /** -D seconds, 0 = iteration mode. */
    public int durationSeconds;
    public int marginSeconds;
    public int txDepth;
    public int rxDepth;
    public int numQps = 1;
    public String connection = "RC";
    public boolean bidirectional;
    public boolean rdmaCm;
    /** {@code -z} or {@code -R}: the control messages go over an rdma_cm QP. */
    public boolean rdmaCmExchange;
    public int inlineSize;
    public boolean inlineGiven;
    public int cqModeration;
    public boolean cqModerationGiven;
    public int postList = 1;
    /** -m in bytes, 0 = the port's active MTU. */
    public int mtuBytes;
    public boolean useEvents;
    public boolean compareAndSwap;
    /** -o, 0 = the device's max_qp_rd_atom. */
    public int outstandingReads;
    public int qpTimeout = 14;
    public int serviceLevel;
    public boolean noPeak;
    public BwUnit unit = BwUnit.MB_PER_SEC;
    public boolean outJson;
    public Path outJsonFile;
    public boolean verify;
    public Path hgrmFile;
    public boolean printUnsorted;
    /** Untimed iterations on a self-connected QP before the run, to compile the loop (0 = off). */
    public int warmupIterations;
    public int timeoutSeconds = 10;
    public boolean debug;

    public boolean isClient() {
        return role == Role.CLIENT;
    }

    /** The sizes this run measures. */
    public long[] sizes() {
        if (!allSizes) {
            return new long[] {size};
        }
        long[] s = new long[23];
        for (int i = 0; i < 23; i++) {
            s[i] = 2L << i;
        }
        return s;
    }

    /** Every parameter, for --out_json. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool.perftestName());
        m.put("role", role.name().toLowerCase(java.util.Locale.ROOT));
        if (server != null) {
            m.put("server", server);
        }
        m.put("device", device);
        m.put("ib_port", ibPort);
        m.put("gid_index", gidIndex);
        m.put("tcp_port", tcpPort);
        m.put("size", allSizes ? "all" : (Object) size);
        m.put("iterations", iterations);
        m.put("duration_s", durationSeconds);
        m.put("margin_s", marginSeconds);
        m.put("tx_depth", txDepth);
        m.put("rx_depth", rxDepth);
        m.put("num_qps", numQps);
        m.put("connection", connection);
        m.put("bidirectional", bidirectional);
        m.put("rdma_cm", rdmaCm);
        m.put("rdma_cm_exchange", rdmaCmExchange);
        m.put("inline_size", inlineSize);
        m.put("cq_moderation", cqModeration);
        m.put("post_list", postList);
        m.put("mtu", mtuBytes);
        m.put("events", useEvents);
        m.put("atomic_type", compareAndSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD");
        m.put("outstanding_reads", outstandingReads);
        m.put("qp_timeout", qpTimeout);
        m.put("sl", serviceLevel);
        m.put("report_gbits", unit == BwUnit.GB_PER_SEC);
        m.put("verify", verify);
        m.put("warmup_iterations", warmupIterations);
        m.put("clock", "System.nanoTime (ns)");
        return m;
    }
}
