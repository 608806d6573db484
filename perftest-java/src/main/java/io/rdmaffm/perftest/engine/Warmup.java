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

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Runs the measured loop untimed on a QP connected to itself before the peer is involved, so the JIT has
 * compiled it (a warm-up with the peer would change the iteration counts the peer expects), then waits for the
 * compiler to go quiet. Its resources live in one {@link Resources} and are gone when it returns.
 */
public final class Warmup {
    /**
     * How long a peer may spend in its warm-up between connecting and sending its first control message: the
     * first message's time limit on the other side allows for it. The warm-up is bounded by its iterations
     * (default 20000, each ended by the stall limit if it hangs) plus at most {@link #QUIET_WAIT} for the
     * compiler: in the Soft-RoCE VM (emulated CPU) the default warm-up added 1 to 7 s to a server's start.
     */
    public static final Duration PEER_ALLOWANCE = Duration.ofSeconds(60);
    /** The longest wait for the JIT compiler threads to go idle after the loop. */
    static final Duration QUIET_WAIT = Duration.ofSeconds(2);
    /** Bandwidth warm-ups run at most this many iterations. */
    private static final int MAX_BW_ITERATIONS = 200_000;

    private final RunParameters p;
    private final RunPlan plan;
    private final OpenDevice dev;

    private Warmup(RunParameters p, RunPlan plan, OpenDevice dev) {
        this.p = p;
        this.plan = plan;
        this.dev = dev;
    }

    /** Warms up the loop {@code p} will run on {@code dev} ({@code --warmup 0}: nothing). */
    public static void run(RunParameters p, RunPlan plan, OpenDevice dev) {
        if (p.limits().warmupIterations() <= 0) {
            return;
        }
        Warmup w = new Warmup(p, plan, dev);
        if (!p.isClient() && p.tool().bandwidth() && !p.workload().bidirectional()) {
            if (p.verb() == Verb.SEND) {
                w.sendServer();
                awaitQuietCompiler();
            }
            // The passive server of write/read/atomic runs no loop at all.
            return;
        }
        w.loop();
        awaitQuietCompiler();
    }

    /**
     * The warm-up queues the loop's methods for compilation; the compiler threads then keep working for a
     * while. Where the measured thread shares its CPU with them (a VM with one CPU per process, a container
     * with a CPU quota), that work lands inside the measurement. Waits, at most {@link #QUIET_WAIT}, until the
     * total compilation time has stood still for 100 ms.
     */
    private static void awaitQuietCompiler() {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + QUIET_WAIT.toNanos();
        long last = jit.getTotalCompilationTime();
        int still = 0;
        while (still < 2 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(50_000_000L);
            long now = jit.getTotalCompilationTime();
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    /** The loop this side measures, on a loopback QP (RC for bandwidth: its writes need a connected QP). */
    private void loop() {
        long size = Math.min(plan.size(0), 4096);
        long bytes = Math.max(8192, 2 * size + 2 * RunPlan.GRH_BYTES);
        int iters = p.limits().warmupIterations();
        boolean ud = p.endpoint().connection() == Connection.UD && !p.tool().bandwidth();
        QueuePairType type = ud ? QueuePairType.UD : QueuePairType.RC;
        int tx = Math.max(plan.txDepth(), 16);
        int rx = Math.max(plan.rxDepth(), 16);
        Context ctx = dev.context();
        try (Resources res = new Resources()) {
            ProtectionDomain pd = res.add(ctx.allocateProtectionDomain());
            CompletionQueue send = res.add(ctx.createCompletionQueue(tx + 16));
            CompletionQueue recv = res.add(ctx.createCompletionQueue(rx + 16));
            MemoryRegion mr = res.add(pd.allocateRegion(bytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE,
                    Access.REMOTE_READ, Access.REMOTE_ATOMIC));
            QueuePair qp = res.add(pd.createQueuePair(new QueuePairInit(type, send, recv).maxSendWr(tx).maxRecvWr(rx)
                    .maxInlineData(plan.inlineSize())));
            QueuePairStates.connectToSelf(qp, type, dev, p, plan.mtu(), plan.outReads());
            VerbsSide.Builder b = loopback(qp, mr, send, recv, bytes / 2, Math.max(1, p.workload().postList()),
                    Math.max(1, plan.rxDepth()));
            if (ud) {
                AddressHandle ah = res.add(pd.createAddressHandle(QueuePairStates.addressVector(dev,
                        p.endpoint().serviceLevel(), dev.gid(), 0)));
                b.datagram(new AddressHandle[] {ah}, new int[] {qp.qpNumber()}, QueuePairStates.UD_QKEY);
            }
            VerbsSide side = res.add(b.build());
            if (p.tool().bandwidth()) {
                bandwidth(side, size, Math.min(iters, MAX_BW_ITERATIONS));
            } else {
                latency(side, size, iters);
            }
        }
    }

    /** Bandwidth tools warm up run_iter_bw; send_bw posts RDMA writes, which need no receives. */
    private void bandwidth(VerbsSide side, long size, int iters) {
        BwSpec spec = LoopSpecs.bandwidth(p, plan, size, iters, false);
        side.prepareSends(p.verb() == Verb.SEND ? SendOpcode.RDMA_WRITE : LoopSpecs.opcode(p),
                LoopSpecs.wireSize(p, size));
        BwLoops.client(side, spec, new Measurement(1, iters + spec.postList() + 1));
    }

    private void latency(VerbsSide side, long size, int iters) {
        side.prepareSends(LoopSpecs.opcode(p), LoopSpecs.wireSize(p, size));
        Measurement m = new Measurement(1, iters + 1);
        switch (p.verb()) {
            // The server of write latency posts first: on a loopback QP it then finds its own write.
            case WRITE -> LatencyLoops.write(side, LoopSpecs.latency(p, plan, size, iters, 0, true, false), m);
            case SEND -> {
                int depth = Math.min(Math.max(1, plan.rxDepth()), iters);
                side.postReceives(depth, (int) size + RunPlan.GRH_BYTES);
                LatencyLoops.send(side, LoopSpecs.latency(p, plan, size, iters, depth, false, false), m);
            }
            default -> LatencyLoops.oneSided(side, LoopSpecs.latency(p, plan, size, iters, 0, false, false), m);
        }
    }

    /**
     * The send_bw server's receive loop must be compiled before the client starts: an interpreted loop
     * re-posts receives too slowly, the receive queue runs dry and every send waits out an RNR NAK (seen on
     * Soft-RoCE: a C client ran 12x slower against a cold Java server). Rounds of "post receives, send as
     * many to ourselves, consume them with the server loop" on a QP connected to itself.
     */
    private void sendServer() {
        long size = Math.min(plan.size(0), 4096);
        int depth = Math.max(1, Math.min(plan.rxDepth(), 256));
        long bytes = Math.max(8192, 2 * size + 2 * RunPlan.GRH_BYTES);
        Context ctx = dev.context();
        try (Resources res = new Resources()) {
            ProtectionDomain pd = res.add(ctx.allocateProtectionDomain());
            CompletionQueue send = res.add(ctx.createCompletionQueue(depth + 16));
            CompletionQueue recv = res.add(ctx.createCompletionQueue(depth + 16));
            MemoryRegion mr = res.add(pd.allocateRegion(bytes, Access.LOCAL_WRITE));
            QueuePair qp = res.add(pd.createQueuePair(new QueuePairInit(QueuePairType.RC, send, recv)
                    .maxSendWr(depth).maxRecvWr(depth)));
            QueuePairStates.connectToSelf(qp, QueuePairType.RC, dev, p, plan.mtu(), plan.outReads());
            VerbsSide side = res.add(loopback(qp, mr, send, recv, bytes / 2, 1, depth).build());
            // One work request per post: the side's batch holds one (the run's -l plays no part here).
            BwSpec sends = LoopSpecs.bandwidth(p, plan, size, depth, false);
            sends = new BwSpec(depth, depth, sends.cqMod(), 1, sends.inline(), sends.noPeak(), 0, 0,
                    sends.stallNanos());
            BwSpec receives = new BwSpec(depth, depth, 1, 1, false, true, 0, 0, sends.stallNanos());
            side.prepareSends(SendOpcode.SEND, LoopSpecs.wireSize(p, size));
            Measurement m = new Measurement(1, depth + 1);
            for (long done = 0; done < p.limits().warmupIterations(); done += depth) {
                side.postReceives(depth, (int) size);
                BwLoops.client(side, sends, m);
                BwLoops.sendServer(side, receives, depth, m);
            }
        }
    }

    /** A side whose sends land in its own receive area, {@code recvOffset} into the buffer. */
    private static VerbsSide.Builder loopback(QueuePair qp, MemoryRegion mr, CompletionQueue send,
            CompletionQueue recv, long recvOffset, int postList, int rxDepth) {
        long base = mr.address();
        return VerbsSide.builder(new QueuePair[] {qp}, mr).completionQueues(send, recv)
                .areas(new long[] {base}, new long[] {base + recvOffset})
                .remote(new long[] {base + recvOffset}, new int[] {mr.rkey()}).postList(postList)
                .receiveDepth(rxDepth);
    }
}
