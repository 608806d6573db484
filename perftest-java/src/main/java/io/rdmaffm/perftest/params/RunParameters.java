package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.engine.memory.MemoryChoice;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A perftest run's parameters after every default and rule ({@link ParameterRules#check}): plain, immutable
 * values handed from the CLI to the rest. What depends on the device as well is the {@link RunPlan}.
 *
 * @param tool     the tool
 * @param role     client (given a host) or server
 * @param endpoint where and how the two sides meet
 * @param workload what is measured
 * @param output   how results are shown and kept
 * @param limits   time limits and the warm-up
 * @param memory   where the buffer lives: host memory, or a GPU's ({@code --use_cuda})
 */
public record RunParameters(Tool tool, Role role, Endpoint endpoint, Workload workload, Output output,
        Limits limits, MemoryChoice memory) {

    /**
     * @param server         the server's host (client only), else null
     * @param device         {@code -d}; null until resolved to the first device ({@link #withDevice})
     * @param ibPort         {@code -i}
     * @param gidIndex       {@code -x}, or -1: chosen as perftest does on RoCE, none on InfiniBand
     * @param tcpPort        {@code -p}
     * @param connection     {@code -c}
     * @param rdmaCm         {@code -R}: the test QPs are connected through rdma_cm
     * @param rdmaCmExchange {@code -R} or {@code -z}: the control messages go over an rdma_cm QP
     * @param mtuBytes       {@code -m}, or 0: the port's active MTU
     * @param qpTimeout      {@code -u}
     * @param serviceLevel   {@code -S}
     */
    public record Endpoint(String server, String device, int ibPort, int gidIndex, int tcpPort, Connection connection,
            boolean rdmaCm, boolean rdmaCmExchange, int mtuBytes, int qpTimeout, int serviceLevel) {
    }

    /**
     * @param size              {@code -s} in bytes (the tool's default without it; 8 for atomics)
     * @param allSizes          {@code -a}: every power of two from 2 B to 8 MiB instead of {@code size}
     * @param iterations        {@code -n}
     * @param durationSeconds   {@code -D}, or 0: iteration mode
     * @param marginSeconds     {@code -f}
     * @param numQps            {@code -q}
     * @param bidirectional     {@code -b}
     * @param txDepth           {@code -t}
     * @param rxDepth           {@code -r} (1 for the one-sided verbs)
     * @param cqModeration      {@code -Q}, or 0 when not given (the plan then applies perftest's defaults)
     * @param postList          {@code -l}
     * @param inlineSize        {@code -I}, or -1 when not given (the plan then applies perftest's defaults)
     * @param outstandingReads  {@code -o}, or 0: the device's maximum
     * @param useEvents         {@code -e}
     * @param compareAndSwap    {@code -A CMP_AND_SWAP}
     * @param noPeak            {@code -N}
     */
    public record Workload(long size, boolean allSizes, long iterations, int durationSeconds, int marginSeconds,
            int numQps, boolean bidirectional, int txDepth, int rxDepth, int cqModeration, int postList,
            int inlineSize, int outstandingReads, boolean useEvents, boolean compareAndSwap, boolean noPeak) {

        /** Whether this is a duration-mode ({@code -D}) run. */
        public boolean duration() {
            return durationSeconds > 0;
        }
    }

    /**
     * @param unit          {@code --report_gbits} or MB/s
     * @param jsonFile      {@code --out_json[_file]}, or null: no JSON
     * @param hgrmFile      {@code --hgrm}, or null
     * @param printUnsorted {@code -U}
     * @param verify        {@code --verify}
     */
    public record Output(BwUnit unit, Path jsonFile, Path hgrmFile, boolean printUnsorted, boolean verify) {
    }

    /**
     * @param timeoutSeconds       {@code --timeout}: no progress for this long ends a run or a message wait
     * @param acceptTimeoutSeconds {@code --accept-timeout}: the server's wait for a client
     * @param peerTimeoutSeconds   {@code --peer-timeout}: the passive side's wait for the peer's run (plus -D)
     * @param warmupIterations     {@code --warmup}, 0: none
     * @param debug                {@code --debug}
     */
    public record Limits(int timeoutSeconds, int acceptTimeoutSeconds, int peerTimeoutSeconds, int warmupIterations,
            boolean debug) {
    }

    /** True for the side that was given a host. */
    public boolean isClient() {
        return role == Role.CLIENT;
    }

    /** The measured verb. */
    public Verb verb() {
        return tool.verb();
    }

    /** The same parameters on the named device (the first device, once it is known). */
    public RunParameters withDevice(String device) {
        Endpoint e = endpoint;
        return new RunParameters(tool, role, new Endpoint(e.server, device, e.ibPort, e.gidIndex, e.tcpPort,
                e.connection, e.rdmaCm, e.rdmaCmExchange, e.mtuBytes, e.qpTimeout, e.serviceLevel), workload, output,
                limits, memory);
    }

    /** Every parameter as --out_json lists it. */
    public Map<String, Object> describe() {
        Endpoint e = endpoint;
        Workload w = workload;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool.perftestName());
        m.put("role", role.name().toLowerCase(Locale.ROOT));
        if (e.server != null) {
            m.put("server", e.server);
        }
        m.put("device", e.device);
        m.put("ib_port", e.ibPort);
        m.put("gid_index", e.gidIndex);
        m.put("tcp_port", e.tcpPort);
        m.put("size", w.allSizes ? "all" : (Object) w.size);
        m.put("iterations", w.iterations);
        m.put("duration_s", w.durationSeconds);
        m.put("margin_s", w.marginSeconds);
        m.put("tx_depth", w.txDepth);
        m.put("rx_depth", w.rxDepth);
        m.put("num_qps", w.numQps);
        m.put("connection", e.connection.name());
        m.put("bidirectional", w.bidirectional);
        m.put("rdma_cm", e.rdmaCm);
        m.put("rdma_cm_exchange", e.rdmaCmExchange);
        m.put("inline_size", Math.max(0, w.inlineSize));
        m.put("cq_moderation", w.cqModeration > 0 ? w.cqModeration : ParameterRules.DEFAULT_CQ_MODERATION);
        m.put("post_list", w.postList);
        m.put("mtu", e.mtuBytes);
        m.put("events", w.useEvents);
        m.put("atomic_type", w.compareAndSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD");
        m.put("outstanding_reads", w.outstandingReads);
        m.put("qp_timeout", e.qpTimeout);
        m.put("sl", e.serviceLevel);
        m.put("report_gbits", output.unit == BwUnit.GB_PER_SEC);
        m.put("verify", output.verify);
        m.put("warmup_iterations", limits.warmupIterations);
        m.put("clock", "System.nanoTime (ns)");
        return m;
    }
}
