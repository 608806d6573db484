package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.perftest.vocab.Verbosity;

import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
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
 * @param memory   where the buffer lives: host memory, or a GPU's ({@code --use_cuda}), as the rules chose
 * @param flags    every supported flag's value as given (its own rule checked) or defaulted for the tool: what a
 *                 flag without a component above is read from ({@link #value}, {@link #on})
 */
public record RunParameters(Tool tool, Role role, Endpoint endpoint, Workload workload, Output output,
        Limits limits, MemoryChoice memory, Map<Flag, Object> flags) {

    /** Copies the flags. */
    public RunParameters {
        flags = Collections.unmodifiableMap(flags.isEmpty() ? new EnumMap<>(Flag.class) : new EnumMap<>(flags));
    }

    /** {@code f}'s value as given or defaulted (an Integer, Long, String, Path or Boolean), or null: none. */
    public Object value(Flag f) {
        return flags.get(f);
    }

    /** Whether the boolean flag {@code f} was given. */
    public boolean on(Flag f) {
        return Boolean.TRUE.equals(flags.get(f));
    }

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
     * @param sizeGiven         {@code -s} was given (perftest's req_size): on UD a size over the MTU then fails
     *                          instead of shrinking to it ({@link RunPlan#agreed})
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
     */
    public record Workload(long size, boolean allSizes, boolean sizeGiven, long iterations, int durationSeconds, int marginSeconds,
            int numQps, boolean bidirectional, int txDepth, int rxDepth, int cqModeration, int postList,
            int inlineSize, int outstandingReads, boolean useEvents, boolean compareAndSwap) {

        /** Whether this is a duration-mode ({@code -D}) run. */
        public boolean duration() {
            return durationSeconds > 0;
        }

        /** An empty builder: each component set by name. */
        public static Builder builder() {
            return new Builder();
        }

        /** Builds a {@link Workload} by component name rather than by position. */
        public static final class Builder {
            private long size;
            private boolean allSizes;
            private boolean sizeGiven;
            private long iterations;
            private int durationSeconds;
            private int marginSeconds;
            private int numQps = 1;
            private boolean bidirectional;
            private int txDepth = 1;
            private int rxDepth = 1;
            private int cqModeration;
            private int postList = 1;
            private int inlineSize = -1;
            private int outstandingReads;
            private boolean useEvents;
            private boolean compareAndSwap;

            private Builder() {
            }

            public Builder size(long v) { size = v; return this; }
            public Builder allSizes(boolean v) { allSizes = v; return this; }
            public Builder sizeGiven(boolean v) { sizeGiven = v; return this; }
            public Builder iterations(long v) { iterations = v; return this; }
            public Builder durationSeconds(int v) { durationSeconds = v; return this; }
            public Builder marginSeconds(int v) { marginSeconds = v; return this; }
            public Builder numQps(int v) { numQps = v; return this; }
            public Builder bidirectional(boolean v) { bidirectional = v; return this; }
            public Builder txDepth(int v) { txDepth = v; return this; }
            public Builder rxDepth(int v) { rxDepth = v; return this; }
            public Builder cqModeration(int v) { cqModeration = v; return this; }
            public Builder postList(int v) { postList = v; return this; }
            public Builder inlineSize(int v) { inlineSize = v; return this; }
            public Builder outstandingReads(int v) { outstandingReads = v; return this; }
            public Builder useEvents(boolean v) { useEvents = v; return this; }
            public Builder compareAndSwap(boolean v) { compareAndSwap = v; return this; }

            /** The workload. */
            public Workload build() {
                return new Workload(size, allSizes, sizeGiven, iterations, durationSeconds, marginSeconds, numQps, bidirectional,
                        txDepth, rxDepth, cqModeration, postList, inlineSize, outstandingReads, useEvents,
                        compareAndSwap);
            }
        }
    }

    /**
     * @param unit          {@code --report_gbits} or MB/s
     * @param jsonFile      {@code --out_json[_file]}, or null: no JSON
     * @param hgrmFile      {@code --hgrm}, or null
     * @param printUnsorted {@code -U}
     * @param verify        {@code --verify}
     * @param verbosity     {@code --output}: everything, or one figure per size
     */
    public record Output(BwUnit unit, Path jsonFile, Path hgrmFile, boolean printUnsorted, boolean verify,
            Verbosity verbosity) {
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

    /**
     * True for the side that runs the client's part of the test: given a host, or with {@code --reversed} the side
     * without one (perftest's machine CLIENT).
     */
    public boolean isClient() {
        return role == Role.CLIENT;
    }

    /** True for the side given a host: it connects to the other (whatever {@code --reversed} says of the traffic). */
    public boolean connects() {
        return endpoint.server != null;
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
                limits, memory, flags);
    }

    /** The same parameters with {@code f} set to {@code value} (a value the device resolved, e.g. HW to SW). */
    public RunParameters withFlag(Flag f, Object value) {
        Map<Flag, Object> m = new EnumMap<>(Flag.class);
        m.putAll(flags);
        m.put(f, value);
        return new RunParameters(tool, role, endpoint, workload, output, limits, memory, m);
    }

    /**
     * Every parameter as --out_json lists it: the tool and role, then each flag with a {@link Flag#jsonKey} in
     * declaration order, with the value the run uses (defaults applied), then the clock.
     *
     * @param loopClock what timed the measured loops (e.g. "cycle counter at 2.100000 GHz"): the engine knows it
     */
    public Map<String, Object> describe(String loopClock) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("tool", tool.perftestName());
        m.put("role", role.name().toLowerCase(Locale.ROOT));
        if (endpoint.server != null) {
            m.put("server", endpoint.server);
        }
        for (Flag f : Flag.values()) {
            if (f.jsonKey() != null) {
                m.put(f.jsonKey(), jsonValue(f));
            }
        }
        m.put("clock", loopClock);
        return m;
    }

    /**
     * The value the run uses for {@code f}, as the JSON shows it: the resolved component where the rules derive
     * one, else the flag's value as given or defaulted.
     */
    /** Where the buffer lives: the GPU or host memory, huge pages ({@code --use_hugepages}) or a file ({@code --mmap}). */
    private String memoryJson() {
        if (flags.get(Flag.MMAP) instanceof java.nio.file.Path file) {
            long offset = (Long) flags.get(Flag.MMAP_OFFSET);
            return "file " + file + (offset == 0 ? "" : " from offset " + offset);
        }
        return Boolean.TRUE.equals(flags.get(Flag.HUGEPAGES)) ? "huge pages" : memory.describe();
    }

    Object jsonValue(Flag f) {
        Endpoint e = endpoint;
        Workload w = workload;
        return switch (f) {
            case DEVICE -> e.device; // resolved to the first device after the rules
            case SIZE -> w.allSizes ? "all" : (Object) w.size; // -a folds in; K/M parsed
            case MARGIN -> w.marginSeconds;
            case RX_DEPTH -> w.rxDepth;
            case CONNECTION -> e.connection.name();
            case COMM_RDMA_CM -> e.rdmaCmExchange;
            case INLINE_SIZE -> Math.max(0, w.inlineSize);
            case CQ_MODERATION -> w.cqModeration > 0 ? w.cqModeration : ParameterRules.DEFAULT_CQ_MODERATION;
            case ATOMIC_TYPE -> w.compareAndSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD";
            case USE_CUDA -> memoryJson(); // with --use_cuda_bus_id, --use_cuda_dmabuf, --mmap, --use_hugepages
            case OUTPUT -> output.verbosity().perftestName();
            case SOURCE_IP -> flags.getOrDefault(f, "");
            // The group this side's traffic goes to or comes from ("" without -g); a bw client learns it from the
            // server, which has perftest's default unless -M was given.
            case MGID -> Boolean.TRUE.equals(flags.get(Flag.MCG)) ? MulticastGid.text(MulticastGid.of(
                    (String) flags.get(f), isClient() && !tool.bandwidth())) : "";
            case LIMIT_BW, LIMIT_MSGRATE -> flags.containsKey(f) ? Double.parseDouble((String) flags.get(f)) : null;
            case RATE_LIMIT -> flags.containsKey(f) ? Double.parseDouble((String) flags.get(f)) : 0.0; // 0: none
            case RATE_LIMIT_TYPE -> RateLimit.of(this).typeName(); // HW without the flag; SW where HW fell back
            case BURST_SIZE -> RateLimit.of(this).burst(); // the tx depth where not given
            // A flag whose JSON value is its value as given or defaulted needs no case.
            default -> flags.get(f);
        };
    }
}
