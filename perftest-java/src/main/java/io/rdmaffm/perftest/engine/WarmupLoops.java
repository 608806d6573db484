package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SendOpcode;

/**
 * The loops a run will measure, on a QP connected to itself, in short invocations: each {@link #once()} calls
 * every loop this side of this run calls (and its duration variant with {@code -D}) for a few iterations. Many
 * short invocations, not one long one, so the JIT compiles each loop method as a whole (a standard compile,
 * entered at the measured run's first iteration) rather than only by on-stack replacement of one running
 * loop, which the measured run would have to repeat.
 */
final class WarmupLoops implements AutoCloseable {
    /** Round trips per latency invocation; receives kept posted in send latency (fewer: re-posting runs too). */
    static final int LATENCY_ITERATIONS = 16;
    private static final int LATENCY_RX_DEPTH = 8;
    /** Work requests per bandwidth invocation. */
    static final int BANDWIDTH_ITERATIONS = 64;
    /** A duration-mode invocation: long enough for a few completions, short enough for many invocations. */
    private static final long DURATION_NANOS = 500_000;

    private final RunParameters p;
    private final RunPlan plan;
    private final Resources res = new Resources();
    private final VerbsSide side;
    private final Kind kind;
    private final long size;
    private final Measurement m;
    private final BwSpec bw;
    private final BwSpec bwDuration;
    private final BwSpec serverSends;
    private final BwSpec serverReceives;
    private final LatencySpec lat;
    private final LatencySpec latDuration;
    private final BwSpec bidirectional;
    /** Receives left posted after an invocation (the send_bw server loop's re-posts, send_lat -D's). */
    private int standingReceives;

    /** Which of perftest's loops this side runs. */
    enum Kind { NONE, BW_CLIENT, SEND_SERVER, SEND_BIDIRECTIONAL, LATENCY }

    /** What this side of {@code p} measures (the passive write/read/atomic server runs no loop). */
    static Kind kind(RunParameters p) {
        if (!p.tool().bandwidth()) {
            return Kind.LATENCY;
        }
        if (p.verb() == Verb.SEND) {
            return p.workload().bidirectional() ? Kind.SEND_BIDIRECTIONAL : p.isClient() ? Kind.BW_CLIENT
                    : Kind.SEND_SERVER;
        }
        return p.isClient() || p.workload().bidirectional() ? Kind.BW_CLIENT : Kind.NONE;
    }

    WarmupLoops(RunParameters p, RunPlan plan, OpenDevice dev, Kind kind) {
        this.p = p;
        this.plan = plan;
        this.kind = kind;
        boolean ud = p.endpoint().connection() == Connection.UD && kind == Kind.LATENCY;
        // Before the exchange the UD size may still exceed the MTU (perftest's rule waits for the agreed one).
        this.size = Math.min(Math.min(plan.size(0), 4096), ud ? RunPlan.mtuBytes(plan.mtu()) : 4096);
        QueuePairType type = ud ? QueuePairType.UD : QueuePairType.RC;
        int depth = Math.max(Math.max(plan.txDepth(), plan.rxDepth()), BANDWIDTH_ITERATIONS) + 16;
        long bytes = Math.max(8192, 2 * size + 2 * RunPlan.GRH_BYTES);
        Context ctx = dev.context();
        try {
            ProtectionDomain pd = res.add(ctx.allocateProtectionDomain());
            CompletionQueue send = res.add(ctx.createCompletionQueue(depth + 16));
            CompletionQueue recv = res.add(ctx.createCompletionQueue(depth + 16));
            MemoryRegion mr = res.add(pd.allocateRegion(bytes, Access.LOCAL_WRITE | Access.REMOTE_WRITE
                    | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            QueuePair qp = res.add(pd.createQueuePair(new QueuePairInit(type, send, recv).maxSendWr(depth)
                    .maxRecvWr(depth).maxInlineData(plan.inlineSize())));
            QueuePairStates.connectToSelf(qp, type, dev, p, plan.mtu(), plan.outReads());
            long base = mr.address();
            VerbsSide.Builder b = VerbsSide.builder(new QueuePair[] {qp}, mr).completionQueues(send, recv)
                    .areas(new long[] {base}, new long[] {base + bytes / 2})
                    .remote(new long[] {base + bytes / 2}, new int[] {mr.rkey()})
                    .postList(Math.max(1, p.workload().postList())).receiveDepth(depth);
            if (ud) {
                AddressHandle ah = res.add(pd.createAddressHandle(QueuePairStates.addressVector(dev,
                        p.endpoint().serviceLevel(), dev.gid(), 0)));
                b.datagram(new AddressHandle[] {ah}, new int[] {qp.qpNumber()}, QueuePairStates.UD_QKEY);
            }
            side = res.add(b.build());
        } catch (RuntimeException | Error e) {
            res.close();
            throw e;
        }
        m = new Measurement(1, BANDWIDTH_ITERATIONS + p.workload().postList() + 1);
        bw = LoopSpecs.bandwidth(p, plan, size, BANDWIDTH_ITERATIONS, false);
        bwDuration = p.workload().duration() ? new BwSpec(BANDWIDTH_ITERATIONS, bw.txDepth(), bw.cqMod(),
                bw.postList(), bw.inline(), true, DURATION_NANOS, 0, bw.stallNanos(), 0, 0) : null;
        BwSpec one = new BwSpec(BANDWIDTH_ITERATIONS, BANDWIDTH_ITERATIONS, bw.cqMod(), 1, bw.inline(), bw.noPeak(),
                0, 0, bw.stallNanos(), 0, 0);
        serverSends = one;
        // Iteration mode only: a duration-mode server ends on 200 ms without messages, too slow to repeat.
        serverReceives = new BwSpec(BANDWIDTH_ITERATIONS, BANDWIDTH_ITERATIONS, 1, 1, false, true, 0, 0,
                bw.stallNanos(), 0, 0);
        // No more sends in flight than receives posted: on a QP connected to itself each send needs one. Every
        // send signaled: with the run's cq_mod (100 for send_bw) above that depth no completion would ever free a
        // slot (the run's own spec keeps cq_mod within its tx depth).
        bidirectional = new BwSpec(BANDWIDTH_ITERATIONS, BANDWIDTH_ITERATIONS / 2, 1, 1, bw.inline(), bw.noPeak(),
                0, 0, bw.stallNanos(), 0, 0);
        lat = LoopSpecs.latency(p, plan, size, LATENCY_ITERATIONS, LATENCY_RX_DEPTH, p.verb() == Verb.WRITE,
                false);
        latDuration = p.workload().duration() ? new LatencySpec(size, LATENCY_ITERATIONS, LATENCY_RX_DEPTH,
                lat.server(), lat.inline(), DURATION_NANOS, 0, lat.stallNanos(), 0) : null;
        prepare();
    }

    private void prepare() {
        SendOpcode op = switch (kind) {
            // A self-connected send_bw client would need receives for its sends: RDMA writes run the same loop.
            case BW_CLIENT -> p.verb() == Verb.SEND ? SendOpcode.RDMA_WRITE : LoopSpecs.opcode(p);
            case SEND_SERVER, SEND_BIDIRECTIONAL -> SendOpcode.SEND;
            default -> LoopSpecs.opcode(p);
        };
        side.prepareSends(op, LoopSpecs.wireSize(p, size));
    }

    /** Calls of {@link #exerciseClock}: past C2's threshold for the clock's own method at the launcher's scale. */
    static final int CLOCK_CALLS = 1_000;

    /**
     * The clock read as the loops' stall checks read it: they run only when a poll has spun thousands of times
     * empty, which on a QP connected to itself never happens, so C2 compiles those calls as cold ones, not
     * inlined; in the real run they then counted up the clock method's own invocations and C2 compiled it inside
     * the window. Called here through the same interface, from code bin/rdma-perftest keeps interpreted
     * ({@code CompileCommand=exclude}), every call counts.
     */
    static long exerciseClock(DataPath d) {
        long sum = 0;
        for (int i = 0; i < CLOCK_CALLS; i++) {
            sum += d.nanoTime();
        }
        return sum;
    }

    /** The data path of this warm-up's loops. */
    DataPath dataPath() {
        return side;
    }

    /** One invocation of every loop this side will measure. */
    void once() {
        switch (kind) {
            case BW_CLIENT -> {
                BwLoops.client(side, bw, m);
                if (bwDuration != null) {
                    BwLoops.client(side, bwDuration, m);
                }
            }
            case SEND_SERVER -> {
                // Sends to ourselves fill the receive queue; the server loop consumes them and re-posts half,
                // which stay posted for the next invocation.
                side.postReceives(BANDWIDTH_ITERATIONS - standingReceives, (int) size + RunPlan.GRH_BYTES);
                BwLoops.client(side, serverSends, m);
                BwLoops.sendServer(side, serverReceives, BANDWIDTH_ITERATIONS / 2, m);
                standingReceives = BANDWIDTH_ITERATIONS / 2;
            }
            case SEND_BIDIRECTIONAL -> {
                side.postReceives(BANDWIDTH_ITERATIONS / 2, (int) size + RunPlan.GRH_BYTES);
                // Not as the server: on a QP connected to itself nothing would arrive before it sends.
                BwLoops.bidirectionalSend(side, bidirectional, false, BANDWIDTH_ITERATIONS / 2, m);
            }
            case LATENCY -> latency();
            case NONE -> {
            }
        }
    }

    private void latency() {
        switch (p.verb()) {
            // The write-latency "server" posts first: on a loopback QP it then finds its own write.
            case WRITE -> {
                LatencyLoops.write(side, lat, m);
                if (latDuration != null) {
                    LatencyLoops.writeDuration(side, latDuration, m);
                }
            }
            case SEND -> {
                // The send loop consumes every receive it finds posted plus as many it re-posts, and leaves
                // none: it needs LATENCY_RX_DEPTH at its start, some of them left by the duration loop.
                if (standingReceives < LATENCY_RX_DEPTH) {
                    side.postReceives(LATENCY_RX_DEPTH - standingReceives, (int) size + RunPlan.GRH_BYTES);
                }
                LatencyLoops.send(side, lat, m);
                standingReceives = 0;
                if (latDuration != null) {
                    // Each of its sends needs a receive posted on this QP (else RNR: rnr_retry 7 waits for
                    // ever); it re-posts each one it consumes and checks its clock after the re-post, so it
                    // ends with as many posted as it started with.
                    side.postReceives(LATENCY_RX_DEPTH, (int) size + RunPlan.GRH_BYTES);
                    LatencyLoops.sendDuration(side, latDuration, m);
                    standingReceives = LATENCY_RX_DEPTH;
                }
            }
            default -> {
                LatencyLoops.oneSided(side, lat, m);
                if (latDuration != null) {
                    LatencyLoops.oneSidedDuration(side, latDuration, m);
                }
            }
        }
    }

    @Override
    public void close() {
        res.close();
    }
}
