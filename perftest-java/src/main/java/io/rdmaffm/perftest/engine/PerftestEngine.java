package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.exchange.SysData;
import io.rdmaffm.perftest.jvm.WindowRecorder;
import io.rdmaffm.perftest.engine.memory.RunBuffer;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.MulticastGid;
import io.rdmaffm.perftest.params.RateLimit;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.MulticastGroup;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.CompletionChannel;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SharedReceiveQueue;
import io.rdmaffm.verbs.cm.CmId;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;

/**
 * One side of one perftest run: the steps the {@link io.rdmaffm.perftest.exchange.HandshakeScript} leaves to
 * this side, each a call that creates or connects resources or runs a measured loop, and hands back plain
 * values. It never prints: what a run measured goes back as a {@link RunResult}. Every verbs object it creates
 * is in one {@link Resources}, closed with the engine.
 */
public final class PerftestEngine implements AutoCloseable {
    private final RunParameters p;
    /** This side's plan until the MTU exchange, then the agreed one ({@link #agreed}), before anything uses it. */
    private RunPlan plan;
    private final OpenDevice dev;
    private final QueuePairType qpType;
    private final Verb verb;
    private final int numQps;
    /** {@code --threads}: which QPs each loop thread drives (one share: the single loop of perftest). */
    private final QpShares shares;
    private final Resources res = new Resources();
    private final RdmaCmConnector cm;
    private final WindowRecorder windows;

    private SysData sys = new SysData(4096, 64);
    private int mtu;
    private ProtectionDomain pd;
    private CompletionChannel channel;
    /** Per share of {@link #shares}: its CQs (the receive CQ is the send CQ except for the send verb). */
    private CompletionQueue[] sendCqs;
    private CompletionQueue[] recvCqs;
    /** {@code --use-srq} on a side that receives: every QP's receives come from it. */
    private SharedReceiveQueue srq;
    private MemoryRegion mr;
    /** Per QP: the region its work requests use and its peer addresses ({@code mr} unless {@code --mr_per_qp}). */
    private MemoryRegion[] qpRegions;
    private RunBuffer buffer;
    private long slot;
    private QueuePair[] qps;
    private PingPongDest[] local;
    private PingPongDest[] remote;
    /** One loop side per share of {@link #shares} (one without {@code --threads}); {@link #side} is the first. */
    private VerbsSide[] sides;
    private VerbsSide side;
    /** With more than one share: each share's measurement, merged into {@link #measurement}. */
    private Measurement[] shareMeasurements;
    private Verifier verifier;
    private Measurement measurement;
    /** The next window's loop inputs, built by {@link #prepare} before the settle (null: not prepared). */
    private BwSpec nextBw;
    private LatencySpec nextLatency;
    /** What goes on the wire per work request in the next window. */
    private long nextWire;

    /** {@code --run_infinitely}: the rows, this side's stop and the peer's ({@link #runInfinitely}). */
    private EndlessRun endless;

    /** {@code --run_infinitely}: the measured loop runs until {@code run} says it is stopped. */
    public void runInfinitely(EndlessRun run) {
        this.endless = run;
    }

    /** What times the measured loops, for the run document: e.g. "cycle counter at 2.100000 GHz". */
    public static String loopClock() {
        return VerbsSide.clock().toString();
    }

    /**
     * An engine for {@code p} on {@code dev}, which the caller keeps open until this engine is closed; each
     * measured loop is marked as a window in {@code windows}.
     */
    public PerftestEngine(RunParameters p, RunPlan plan, OpenDevice dev, WindowRecorder windows) {
        this.windows = windows;
        this.p = p;
        this.plan = plan;
        this.dev = dev;
        this.qpType = QueuePairType.valueOf(p.endpoint().connection().name());
        this.verb = p.verb();
        this.numQps = p.workload().numQps();
        this.shares = new QpShares(numQps, p.tool().bandwidth() ? (Integer) p.value(Flag.THREADS) : 1);
        this.mtu = plan.mtu();
        this.cm = new RdmaCmConnector(p, res);
    }

    // ---------------------------------------------------------------- exchange inputs and outputs

    /** Our page and cache-line sizes. */
    public SysData localSysData() {
        return new SysData(4096, cacheLine());
    }

    private static int cacheLine() {
        try {
            String v = Files.readString(Path.of("/sys/devices/system/cpu/cpu0/cache/index0/coherency_line_size")).trim();
            int n = Integer.parseInt(v);
            return n > 0 ? n : 64;
        } catch (IOException | NumberFormatException e) {
            return 64;
        }
    }

    /** The page and cache-line sizes both sides use. */
    public void negotiatedSysData(SysData s) {
        sys = s;
    }

    /** Our MTU ({@code enum ibv_mtu}) before the exchange. */
    public int localMtu() {
        return plan.mtu();
    }

    /** The plan at the MTU both sides use ({@link RunPlan#agreed}): what {@link #setup} and the loops follow. */
    public void agreed(RunPlan agreed) {
        plan = agreed;
        mtu = agreed.mtu();
    }

    /** The MTU in bytes (after the exchange: the one both use). */
    public int mtuBytes() {
        return RunPlan.mtuBytes(mtu);
    }

    /** Our destinations, one per QP (after {@link #setup}). */
    public PingPongDest[] localDestinations() {
        return local;
    }

    /** The peer's destinations, one per QP. */
    public void remoteDestinations(PingPongDest[] r) {
        if (r.length != numQps) {
            throw new RunFailure("peer sent " + r.length + " keys, expected " + numQps + " (same -q on both sides?)");
        }
        int dlid = (Integer) p.value(Flag.DLID);
        if (dlid != 0) {
            // --dlid (InfiniBand): the peer is addressed, and printed, with the given LID, as perftest does.
            PingPongDest[] given = new PingPongDest[r.length];
            for (int i = 0; i < r.length; i++) {
                PingPongDest d = r[i];
                given[i] = new PingPongDest(dlid, d.outReads(), d.qpn(), d.psn(), d.rkey(), d.vaddr(), d.gid(), d.srqn());
            }
            r = given;
        }
        remote = r;
    }

    /** The peer's destinations, as last received. */
    public PingPongDest[] remoteDestinations() {
        return remote;
    }

    // ---------------------------------------------------------------- steps

    /** {@code -R}: the event channel, and the server's listening id for the test QPs. */
    public void cmListen() {
        cm.listen();
    }

    /** {@code -R}: the test QPs connected through rdma_cm; the resources live on the first id's device. */
    public void cmConnect() {
        boolean reads = verb == Verb.READ || verb == Verb.ATOMIC;
        qps = cm.connect(reads ? plan.outReads() : 0, this::queuePairOn);
    }

    /** The QP of an rdma_cm id; the first id decides the context, which must be the device and port named. */
    private QueuePair queuePairOn(int index, CmId id) {
        if (pd == null) {
            Context c = id.context();
            if (!c.name().equals(dev.name()) || id.port() != dev.ibPort()) {
                throw new RunFailure("rdma_cm reaches " + (p.isClient() ? p.endpoint().server() : "the client")
                        + " through " + c.name() + " port " + id.port() + ", not " + dev.name() + " port "
                        + dev.ibPort() + " (use -d " + c.name() + " -i " + id.port() + ")");
            }
            createResources(c);
        }
        return id.createQueuePair(pd, queuePairInit(index));
    }

    /**
     * PD, CQs and the buffer on {@code c}: the device opened by name, or with {@code -R} the context librdmacm
     * resolved the peer's address to (a QP made by rdma_cm must share its id's context).
     */
    private void createResources(Context c) {
        slot = plan.slot(qpType == QueuePairType.UD, sys.pageSize(), sys.cacheLineSize());
        pd = res.add(c.allocateProtectionDomain());
        if (p.workload().useEvents()) {
            channel = res.add(c.createCompletionChannel());
        }
        int vector = (Integer) p.value(Flag.VECTOR);
        int n = shares.threads();
        sendCqs = new CompletionQueue[n];
        recvCqs = new CompletionQueue[n];
        for (int t = 0; t < n; t++) {
            // each share's CQs hold its own QPs' completions only (perftest's sizes, per share)
            int k = shares.size(t);
            sendCqs[t] = res.add(c.createCompletionQueue(Math.max(1, plan.txDepth() * k), channel, vector));
            recvCqs[t] = verb == Verb.SEND
                    ? res.add(c.createCompletionQueue(Math.max(1, plan.rxDepth() * k), channel, vector)) : sendCqs[t];
        }
        if (p.on(Flag.SRQ) && receives()) {
            // perftest: max_wr is the rx depth, one SGE; the QPs then have no receive queue of their own.
            srq = res.add(pd.createSharedReceiveQueue(Math.max(1, plan.rxDepth()), 1, 0));
        }
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                | MemoryAccess.optional(p);
        // Host memory, or GPU memory with --use_cuda (a dma-buf fallback is said on stderr: stdout is perftest's).
        long bytes = 2 * numQps * slot;
        Path file = (Path) p.value(Flag.MMAP);
        // --mmap and --use_hugepages are host memory the run maps itself; the rules keep them apart and from CUDA.
        buffer = res.add(file != null
                ? RunBuffer.mappedFile(pd, file, (Long) p.value(Flag.MMAP_OFFSET), bytes, access,
                        localSysData().pageSize())
                : p.on(Flag.HUGEPAGES) ? RunBuffer.hugePages(pd, bytes, access)
                : RunBuffer.allocate(p.memory(), pd, bytes, access,
                note -> System.err.println(p.tool().perftestName() + ": " + note)));
        mr = buffer.region();
        qpRegions = new MemoryRegion[numQps];
        for (int i = 0; i < numQps; i++) {
            // --mr_per_qp: QP i's own registration of the buffer (its own lkey and rkey, as perftest gives each QP
            // its own MR); the areas stay where the verifier and the loops expect them.
            qpRegions[i] = i > 0 && p.on(Flag.MR_PER_QP) ? res.add(pd.registerMemory(mr.segment(), access)) : mr;
        }
    }

    /** QP {@code qp}'s attributes: its share's CQs. */
    private QueuePairInit queuePairInit(int qp) {
        int t = shares.shareOf(qp);
        QueuePairInit init = new QueuePairInit(qpType, sendCqs[t], recvCqs[t]).maxSendWr(Math.max(1, plan.txDepth()))
                .maxRecvWr(verb == Verb.SEND ? Math.max(1, plan.rxDepth()) : 1).maxInlineData(plan.inlineSize());
        return srq == null ? init : init.sharedReceiveQueue(srq).maxRecvWr(0);
    }

    /**
     * Creates the resources and QPs (unless rdma_cm did), chooses the PSNs and fills the sources for
     * {@code --verify}. Returns our destinations.
     */
    public PingPongDest[] setup() {
        if (!p.endpoint().rdmaCm()) {
            createResources(dev.context());
            qps = new QueuePair[numQps];
            for (int i = 0; i < numQps; i++) {
                qps[i] = res.add(pd.createQueuePair(queuePairInit(i)));
                QueuePairStates.init(qps[i], qpType, verb, dev.ibPort(), (Integer) p.value(Flag.PKEY_INDEX));
            }
        }
        local = new PingPongDest[numQps];
        SecureRandom rnd = new SecureRandom();
        byte[] gid = dev.gid() == null ? new byte[PingPongDest.GID_LENGTH] : dev.gid();
        for (int i = 0; i < numQps; i++) {
            // With -R the PSN is rdma_cm's choice; perftest still prints a random one, and so do we.
            int psn = rnd.nextInt() & 0xffffff;
            local[i] = new PingPongDest(dev.lid(), plan.outReads(), qps[i].qpNumber(), psn, qpRegions[i].rkey(),
                    mr.address() + (numQps + i) * slot, gid, 0);
        }
        if (p.on(Flag.MCG) && (!p.tool().bandwidth() || !p.isClient())) {
            joinGroup();
        }
        verifier = new Verifier(p, buffer, slot);
        if (p.output().verify()) {
            verifier.fill(plan.largestSize());
        }
        RunParameters.Workload w = p.workload();
        int samples = (int) Math.max(1, w.duration() ? 1 : w.iterations() * numQps + w.postList());
        measurement = new Measurement(numQps, samples);
        if (shares.threads() > 1) {
            shareMeasurements = new Measurement[shares.threads()];
            for (int t = 0; t < shares.threads(); t++) {
                int k = shares.size(t);
                shareMeasurements[t] = new Measurement(k,
                        (int) Math.max(1, w.duration() ? 1 : w.iterations() * k + w.postList()));
            }
        }
        return local;
    }

    /**
     * {@code -g} on a receiving side (ib_send_bw's server; both sides of ib_send_lat): the QP joins the group
     * (perftest's set_multicast_gid and ibv_attach_mcast; the QP leaves it when closed) and this side announces the
     * group in its place: its GID, its LID (0 on RoCE) and QPN 0xFFFFFF, so the peer's address handle and
     * remote QPN target the group.
     */
    private void joinGroup() {
        byte[] group = MulticastGid.of((String) p.value(Flag.MGID), p.isClient());
        qps[0].attachMulticast(new MulticastGroup(group, 0));
        PingPongDest d = local[0];
        local[0] = new PingPongDest(0, d.outReads(), MulticastGroup.MULTICAST_QPN, d.psn(), d.rkey(), d.vaddr(),
                group, d.srqn());
    }

    /** Moves the QPs to RTR (and RTS where this side sends) towards the peer's keys; builds the loop side. */
    public void connect() {
        boolean bw = p.tool().bandwidth();
        boolean sends = p.isClient() || p.workload().bidirectional() || !bw;
        AddressHandle[] ahs = new AddressHandle[numQps];
        int[] remoteQpn = new int[numQps];
        long[] localSend = new long[numQps];
        long[] localRecv = new long[numQps];
        long[] remoteAddr = new long[numQps];
        int[] remoteRkey = new int[numQps];
        for (int i = 0; i < numQps; i++) {
            PingPongDest r = remote[i];
            AddressVector av = QueuePairStates.addressVector(dev, p.endpoint().serviceLevel(),
                    dev.withGid() ? r.gid() : null, r.lid());
            if (dev.withGid()) {
                // --tclass: the GRH's traffic class (RoCE v2: the IP DSCP/ECN byte), as perftest sets it at RTR
                av.trafficClass((Integer) p.value(Flag.TCLASS));
            }
            // HW rate limit (InfiniBand; DeviceRules turned it into SW elsewhere): the port's static rate, as perftest.
            av.staticRate(RateLimit.of(p).ibvRate());
            // With -R rdma_cm moved the QPs to RTR and RTS when the connection was established.
            if (!p.endpoint().rdmaCm()) {
                QueuePairStates.connect(qps[i], qpType, p, local[i], r, av, mtu, plan.outReads(), sends);
                if (qpType == QueuePairType.UD) {
                    ahs[i] = res.add(pd.createAddressHandle(av));
                }
            }
            remoteQpn[i] = r.qpn();
            localSend[i] = mr.address() + i * slot;
            localRecv[i] = mr.address() + (numQps + i) * slot;
            remoteAddr[i] = r.vaddr();
            remoteRkey[i] = r.rkey();
        }
        int[] lkeys = java.util.Arrays.stream(qpRegions).mapToInt(MemoryRegion::lkey).toArray();
        sides = new VerbsSide[shares.threads()];
        for (int t = 0; t < sides.length; t++) {
            sides[t] = res.add(sideOf(shares.first(t), shares.size(t), t, ahs, remoteQpn, localSend, localRecv,
                    remoteAddr, remoteRkey, lkeys));
        }
        side = sides[0];
    }

    /** The loop side of QPs [from, from + n), on share {@code t}'s CQs; its work requests number them from 0. */
    private VerbsSide sideOf(int from, int n, int t, AddressHandle[] ahs, int[] remoteQpn, long[] localSend,
            long[] localRecv, long[] remoteAddr, int[] remoteRkey, int[] lkeys) {
        int to = from + n;
        VerbsSide.Builder b = VerbsSide.builder(java.util.Arrays.copyOfRange(qps, from, to), mr)
                .completionQueues(sendCqs[t], recvCqs[t]).events(channel)
                .areas(java.util.Arrays.copyOfRange(localSend, from, to), java.util.Arrays.copyOfRange(localRecv, from, to))
                .remote(java.util.Arrays.copyOfRange(remoteAddr, from, to), java.util.Arrays.copyOfRange(remoteRkey, from, to))
                .postList(Math.max(1, p.workload().postList())).receiveDepth(Math.max(1, plan.rxDepth()))
                .recvPostList(p.tool().bandwidth() ? (Integer) p.value(Flag.RECV_POST_LIST) : 1)
                .localKeys(java.util.Arrays.copyOfRange(lkeys, from, to))
                .sharedReceiveQueue(srq);
        if (qpType == QueuePairType.UD) {
            b.datagram(java.util.Arrays.copyOfRange(ahs, from, to), java.util.Arrays.copyOfRange(remoteQpn, from, to),
                    QueuePairStates.UD_QKEY);
        }
        return b.build();
    }

    /**
     * Before the pre-run barrier, everything of size number {@code sizeIndex}'s window that is not the loop
     * itself: receives posted on the sides that receive, sends prepared on the sides that send, the loop's inputs.
     * Then, while the peer waits at the barrier and measures nothing, the compiler finishes what this set-up and
     * the connection queued: a method first compiled after the settle would compile in the window.
     */
    public void prepare(int sizeIndex) {
        setUpWindow(sizeIndex);
        windows.prepare();
        if (p.limits().warmupIterations() > 0) {
            Warmup.settleCompiler();
        }
    }

    /**
     * Right after {@link #connect}, while the peer waits for the keys or the barrier that follow: {@link #prepare}
     * of the first size for the tools whose exchange has no per-size barrier to prepare before (all but the send
     * tools, which prepare each size in their PREPARE step). Nothing on a side that runs no loop (the passive
     * server).
     */
    public void prepareFirstWindow() {
        if (verb != Verb.SEND && WarmupLoops.kind(p) != WarmupLoops.Kind.NONE) {
            prepare(0);
        }
    }

    private void setUpWindow(int sizeIndex) {
        postReceivesFor(sizeIndex);
        long size = plan.size(sizeIndex);
        RunParameters.Workload w = p.workload();
        nextWire = LoopSpecs.wireSize(p, size);
        if (p.tool().bandwidth()) {
            nextBw = LoopSpecs.bandwidth(p, plan, size, w.iterations(), true);
            if (!sendServer()) {
                for (VerbsSide d : sides) {
                    d.prepareSends(LoopSpecs.opcode(p), nextWire);
                }
            }
        } else {
            side.prepareSends(LoopSpecs.opcode(p), nextWire);
            nextLatency = LoopSpecs.latency(p, plan, size, w.iterations(), recvDepth(), !p.isClient(), true);
        }
    }

    /** The uni-directional send_bw server: it only receives. */
    private boolean sendServer() {
        return verb == Verb.SEND && !p.isClient() && !p.workload().bidirectional();
    }

    private void postReceivesFor(int sizeIndex) {
        if (receives()) {
            int grh = p.endpoint().connection() == Connection.UD ? RunPlan.GRH_BYTES : 0;
            for (VerbsSide d : sides) {
                d.postReceives(recvDepth(), (int) plan.size(sizeIndex) + grh);
            }
        }
    }

    /** Whether this side receives messages: a send tool's latency sides, its server, and both sides of -b. */
    private boolean receives() {
        return verb == Verb.SEND && (!p.isClient() || !p.tool().bandwidth() || p.workload().bidirectional());
    }

    /**
     * Receives kept posted per QP; with an SRQ, per QP's share of it (rx depth / QPs), as perftest posts and
     * re-posts them, each QP's share counted by the QP that posted it.
     */
    private int recvDepth() {
        return srq == null ? plan.rxDepth() : Math.max(1, plan.rxDepth() / numQps);
    }

    /**
     * The measured loop for size number {@code sizeIndex}; sets up its window first unless {@link #prepare} did
     * (sizes after the first, in the tools without a per-size barrier).
     */
    public RunResult run(int sizeIndex) {
        if (nextBw == null && nextLatency == null) {
            setUpWindow(sizeIndex);
        }
        long size = plan.size(sizeIndex);
        if (p.tool().bandwidth()) {
            return runBandwidth(size, sizeIndex);
        }
        return runLatency(size, sizeIndex);
    }

    private RunResult runBandwidth(long size, int window) {
        RunParameters.Workload w = p.workload();
        Measurement m = measurement;
        BwSpec b = nextBw;
        nextBw = null;
        long wire = nextWire;
        if (sides.length > 1) {
            return runShares(size, window, b, wire);
        }
        if (endless != null) {
            windows.open(window);
            RunResult r = endless.run(side, b, m, sendServer(), w.bidirectional(), wire);
            windows.close(window);
            return r;
        }
        if (sendServer()) {
            windows.open(window);
            BwLoops.sendServer(side, b, recvDepth(), m);
            windows.close(window);
            long n = w.duration() ? m.counted : w.iterations() * numQps;
            return new RunResult.Window(size, n, m.windowStart, m.windowEnd, verifier.received(size));
        }
        Verification checked = Verification.none();
        windows.open(window);
        if (verb == Verb.SEND && w.bidirectional()) {
            BwLoops.bidirectionalSend(side, b, !p.isClient(), recvDepth(), m);
        } else {
            BwLoops.client(side, b, m);
        }
        windows.close(window);
        if (verb == Verb.SEND && w.bidirectional()) {
            checked = verifier.received(size);
        }
        if (verb == Verb.READ) {
            checked = verifier.read(size);
        }
        if (w.duration()) {
            return new RunResult.Window(wire, m.counted, m.windowStart, m.windowEnd, checked);
        }
        return new RunResult.BwTimestamps(wire, (int) (w.iterations() * numQps), m.tposted, m.tcompleted,
                b.postList(), b.cqMod(), b.noPeak(), checked);
    }

    /**
     * {@code --threads}: each share's loop on its own thread, then their measurements merged into the one
     * {@link #measurement} a single loop would have left, and the run's result built from it as in
     * {@link #runBandwidth}. In iteration mode every QP must have completed exactly its iterations.
     */
    private RunResult runShares(long size, int window, BwSpec b, long wire) {
        RunParameters.Workload w = p.workload();
        Measurement m = measurement;
        boolean bidirectional = verb == Verb.SEND && w.bidirectional();
        BwThreads.Loop loop = sendServer() ? BwThreads.Loop.SEND_SERVER
                : bidirectional ? BwThreads.Loop.BIDIRECTIONAL_SEND : BwThreads.Loop.CLIENT;
        for (Measurement s : shareMeasurements) {
            s.clearStamps();
        }
        windows.open(window);
        BwThreads.run(loop, sides, shareMeasurements, b, !p.isClient(), recvDepth());
        windows.close(window);
        m.reset();
        ShareMerge.counters(shares, shareMeasurements, m);
        ShareMerge.windows(shareMeasurements, m);
        if (!w.duration()) {
            long[] perQp = loop == BwThreads.Loop.SEND_SERVER ? m.rcnt : m.ccnt;
            for (int i = 0; i < numQps; i++) {
                if (perQp[i] != w.iterations()) {
                    throw new RunFailure("QP " + i + " (thread " + shares.shareOf(i) + ") ended with " + perQp[i]
                            + " of " + w.iterations() + " work requests");
                }
            }
        }
        if (loop == BwThreads.Loop.SEND_SERVER) {
            long n = w.duration() ? m.counted : w.iterations() * numQps;
            return new RunResult.Window(size, n, m.windowStart, m.windowEnd, verifier.received(size));
        }
        Verification checked = bidirectional ? verifier.received(size)
                : verb == Verb.READ ? verifier.read(size) : Verification.none();
        if (w.duration()) {
            return new RunResult.Window(wire, m.counted, m.windowStart, m.windowEnd, checked);
        }
        int[] counts = new int[shares.threads()];
        for (int t = 0; t < counts.length; t++) {
            counts[t] = (int) (w.iterations() * shares.size(t));
        }
        ShareMerge.timestamps(shareMeasurements, counts, b.postList(), b.noPeak(), m);
        return new RunResult.BwTimestamps(wire, (int) (w.iterations() * numQps), m.tposted, m.tcompleted,
                b.postList(), b.cqMod(), b.noPeak(), checked);
    }

    /** Latency tools: one QP. */
    private RunResult runLatency(long size, int window) {
        RunParameters.Workload w = p.workload();
        Measurement m = measurement;
        LatencySpec l = nextLatency;
        nextLatency = null;
        long wire = nextWire;
        if (w.duration()) {
            windows.open(window);
            switch (verb) {
                case WRITE -> LatencyLoops.writeDuration(side, l, m);
                case SEND -> LatencyLoops.sendDuration(side, l, m);
                default -> LatencyLoops.oneSidedDuration(side, l, m);
            }
            windows.close(window);
            return new RunResult.Window(wire, m.counted, m.windowStart, m.windowEnd, Verification.none());
        }
        windows.open(window);
        switch (verb) {
            case WRITE -> LatencyLoops.write(side, l, m);
            case SEND -> LatencyLoops.send(side, l, m);
            default -> LatencyLoops.oneSided(side, l, m);
        }
        windows.close(window);
        Verification checked = switch (verb) {
            case WRITE -> verifier.writeLatency(size);
            case SEND -> verifier.received(size);
            case READ -> verifier.read(size);
            case ATOMIC -> Verification.none();
        };
        return new RunResult.RoundTrips(wire, (int) w.iterations(), m.tposted, checked);
    }

    /**
     * A uni-directional bandwidth server whose memory the client wrote, read or updated checks it after the
     * client's run; {@code peer} is the client's report (null if none came).
     */
    public Verification verifyAsTarget(BwReport peer) {
        return verifier.asTarget(plan.size(plan.sizes().size() - 1), peer);
    }

    /** Closes every resource in reverse order of creation (the device stays open: it is the caller's). */
    @Override
    public void close() {
        res.close();
    }
}
