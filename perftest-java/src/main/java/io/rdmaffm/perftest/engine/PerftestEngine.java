package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.exchange.RdmaCmControlChannel;
import io.rdmaffm.perftest.exchange.ScriptRunner;
import io.rdmaffm.perftest.exchange.Step;
import io.rdmaffm.perftest.exchange.SysData;
import io.rdmaffm.perftest.report.BannerInfo;
import io.rdmaffm.perftest.report.BwArithmetic;
import io.rdmaffm.perftest.report.DurationLatency;
import io.rdmaffm.perftest.report.HgrmWriter;
import io.rdmaffm.perftest.report.JsonReport;
import io.rdmaffm.perftest.report.LatencyArithmetic;
import io.rdmaffm.perftest.report.LatencyResult;
import io.rdmaffm.perftest.report.LatencyRow;
import io.rdmaffm.perftest.report.PerftestFormat;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Role;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.CompletionChannel;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.DeviceAttributes;
import io.rdmaffm.verbs.GidEntry;
import io.rdmaffm.verbs.LinkLayer;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.Mtu;
import io.rdmaffm.verbs.PortAttributes;
import io.rdmaffm.verbs.PortState;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.cm.CmEvent;
import io.rdmaffm.verbs.cm.CmException;
import io.rdmaffm.verbs.cm.CmId;
import io.rdmaffm.verbs.cm.ConnectionParameters;
import io.rdmaffm.verbs.cm.EventChannel;
import io.rdmaffm.verbs.cm.PortSpace;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * One side of one perftest run: opens the device, creates the resources perftest creates, connects them with
 * the peer's keys, runs the measured loops and prints perftest's output. The order of everything is the
 * tool's {@link io.rdmaffm.perftest.exchange.HandshakeScript}; this class does the local steps.
 */
public final class PerftestEngine implements ScriptRunner.Participant, AutoCloseable {
    static final int UD_QKEY = 0x11111111;
    static final int GRH_BYTES = 40;
    static final int MELLANOX_VENDOR = 0x02c9;

    private final RunParameters p;
    private final PrintWriter out;
    private final Tool tool;
    private final Verb verb;
    private final boolean client;
    private final QueuePairType qpType;

    private final Context ctx;
    private final PortAttributes port;
    private final DeviceAttributes device;
    private final boolean roce;
    private final int gidIndex;
    private final GidEntry gid;
    private final long[] sizes;
    /** The largest of {@link #sizes}: what the buffers are sized for. */
    private final long maxSize;

    private SysData sys = new SysData(4096, 64);
    private int mtuEnum;
    private int outReads;
    private int inlineSize;
    private int cqMod;
    private int txDepth;
    private int rxDepth;
    private long slot;

    private ProtectionDomain pd;
    private CompletionChannel channel;
    private CompletionQueue sendCq;
    private CompletionQueue recvCq;
    private QueuePair[] qps;
    private MemoryRegion mr;
    private AddressHandle[] ahs;
    private PingPongDest[] local;
    private PingPongDest[] remote;
    private Side side;
    private BannerInfo banner;
    private EventChannel cmEvents;
    private CmId cmListener;
    private CmId[] cmIds;

    private long[] tposted;
    private long[] tcompleted;
    private final long[] scnt;
    /** Messages received per QP (send_bw server and -b). */
    private final long[] rcnt;
    private final long[] ccnt;
    private final List<BwReport> bwRows = new ArrayList<>();
    private final List<LatencyRow> latRows = new ArrayList<>();
    private DurationLatency durationResult;
    private final long[] durationSample = new long[3];
    private BwReport[] localReports;
    private BwReport lastPeerReport;
    private final Histogram histogram = new Histogram(3_600_000_000_000L, 3);
    private long verifyMismatches;

    public PerftestEngine(RunParameters p, PrintWriter out) {
        this.p = p;
        this.out = out;
        this.tool = p.tool;
        this.verb = tool.verb();
        this.client = p.isClient();
        this.qpType = QueuePairType.valueOf(p.connection);
        this.scnt = new long[p.numQps];
        this.rcnt = new long[p.numQps];
        this.ccnt = new long[p.numQps];
        this.ctx = Context.open(p.device);
        try {
            device = ctx.queryDevice();
            if (p.ibPort < 1 || p.ibPort > device.physicalPortCount()) {
                throw new IllegalArgumentException("device " + p.device + " has port(s) 1.." + device.physicalPortCount()
                        + ", not " + p.ibPort);
            }
            port = ctx.queryPort(p.ibPort);
            if (port.state() != PortState.ACTIVE) {
                throw new IllegalStateException("port " + p.ibPort + " of " + p.device + " is " + port.state()
                        + ", not ACTIVE");
            }
            roce = port.linkLayer() == LinkLayer.ETHERNET;
            if (p.gidIndexGiven) {
                gidIndex = p.gidIndex;
                try {
                    gid = ctx.queryGid(p.ibPort, gidIndex);
                } catch (VerbsException e) {
                    throw new IllegalArgumentException("GID index " + gidIndex + " of " + p.device + " port " + p.ibPort
                            + " is empty or out of range (see the 'devices' command for the table)");
                }
            } else if (roce) {
                gidIndex = GidChoice.best(ctx.gidTable(p.ibPort), false);
                if (gidIndex < 0) {
                    throw new IllegalStateException("port " + p.ibPort + " of " + p.device
                            + " has no GID (does its netdev have an IP address?)");
                }
                gid = ctx.queryGid(p.ibPort, gidIndex);
            } else {
                gidIndex = -1;
                gid = null;
            }
            int active = port.activeMtu().value();
            if (p.mtuBytes > 0) {
                int wanted = Mtu.ofBytes(p.mtuBytes).value();
                mtuEnum = Math.min(wanted, active);
            } else {
                mtuEnum = active;
            }
            long largest = 0;
            long[] s = p.sizes();
            if (qpType == QueuePairType.UD) {
                long mtuBytes = Mtu.of(mtuEnum).bytes();
                if (!p.allSizes && p.size > mtuBytes) {
                    throw new IllegalArgumentException("UD messages cannot exceed the MTU (" + mtuBytes + " bytes), size is "
                            + p.size);
                }
                s = java.util.Arrays.stream(s).filter(v -> v <= mtuBytes).toArray();
            }
            this.sizes = s;
            for (long v : sizes) {
                largest = Math.max(largest, v);
            }
            this.maxSize = largest;
            if (maxSize > port.maxMessageSize()) {
                throw new IllegalArgumentException("message size " + maxSize + " exceeds the port's maximum of "
                        + port.maxMessageSize());
            }
            decideDepths(maxSize);
        } catch (RuntimeException e) {
            ctx.close();
            throw e;
        }
    }

    /** Message sizes this run measures (UD is capped at the MTU). */
    public long[] sizes() {
        return sizes;
    }

    /** The GID index in use, -1 without GID. */
    public int gidIndex() {
        return gidIndex;
    }

    public boolean withGid() {
        return gidIndex >= 0;
    }

    private void decideDepths(long maxSize) {
        boolean send = verb == Verb.SEND;
        txDepth = p.txDepth;
        if (p.durationSeconds == 0) {
            txDepth = (int) Math.min(txDepth, p.iterations);
        }
        rxDepth = p.rxDepth;
        if (send) {
            if (p.durationSeconds == 0) {
                rxDepth = (int) Math.min(rxDepth, p.iterations);
            }
            if (qpType != QueuePairType.RC && p.rxDepth == 512) {
                rxDepth = (int) Math.min(p.iterations, 16000);
            }
        }
        cqMod = p.cqModeration;
        if (!p.cqModerationGiven) {
            if (p.postList > 1) {
                cqMod = p.postList;
            } else if (p.size > 8192 && qpType != QueuePairType.UD && !p.allSizes && !p.useEvents) {
                cqMod = 1;
            }
        }
        if (!tool.bandwidth()) {
            cqMod = 1;
        }
        cqMod = Math.max(1, Math.min(cqMod, txDepth));
        outReads = 1;
        if (verb == Verb.READ || verb == Verb.ATOMIC) {
            outReads = p.outstandingReads > 0 ? Math.min(p.outstandingReads, device.maxQpRdAtom()) : device.maxQpRdAtom();
        }
        if (p.inlineGiven) {
            inlineSize = p.inlineSize;
        } else if (device.vendorId() == MELLANOX_VENDOR && !tool.bandwidth()) {
            inlineSize = verb == Verb.WRITE ? 220 : verb == Verb.SEND ? (qpType == QueuePairType.UD ? 188 : 236) : 0;
        } else {
            inlineSize = 0;
        }
        if (verb == Verb.READ || verb == Verb.ATOMIC) {
            inlineSize = 0;
        }
    }

    // ---------------------------------------------------------------- warm-up

    /**
     * Runs the measured loop untimed on a QP connected to itself, so the JIT has compiled the loop before
     * the peer is involved (a warm-up with the peer would change the iteration counts it expects).
     */
    public void warmUp() {
        if (p.warmupIterations <= 0) {
            return;
        }
        if (!client && tool.bandwidth() && !p.bidirectional) {
            if (verb == Verb.SEND) {
                warmUpSendServer();
                awaitQuietCompiler();
            }
            // The passive server of write/read/atomic runs no loop at all.
            return;
        }
        warmUpLoop();
        awaitQuietCompiler();
    }

    /**
     * The warm-up queues the loop's methods for compilation; the compiler threads then keep working for a
     * while. Where the measured thread shares its CPU with them (a VM with one CPU per process, a container
     * with a CPU quota), that work lands inside the measurement. Waits, at most 2 s, until the total
     * compilation time has stood still for 100 ms.
     */
    private static void awaitQuietCompiler() {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            return;
        }
        long deadline = System.nanoTime() + 2_000_000_000L;
        long last = jit.getTotalCompilationTime();
        int still = 0;
        while (still < 2 && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(50_000_000L);
            long now = jit.getTotalCompilationTime();
            still = now == last ? still + 1 : 0;
            last = now;
        }
    }

    private void warmUpLoop() {
        long size = Math.min(sizes[0], 4096);
        long bytes = Math.max(8192, 2 * size + 2 * GRH_BYTES);
        int iters = p.warmupIterations;
        // Bandwidth warm-ups compile bwClient with RDMA writes, which need a connected QP: RC whatever the run uses.
        QueuePairType type = qpType == QueuePairType.UD && !tool.bandwidth() ? QueuePairType.UD : QueuePairType.RC;
        try (ProtectionDomain wpd = ctx.allocateProtectionDomain()) {
            CompletionQueue wsend = ctx.createCompletionQueue(Math.max(txDepth, 16) + 16);
            CompletionQueue wrecv = ctx.createCompletionQueue(Math.max(rxDepth, 16) + 16);
            MemoryRegion wmr = wpd.allocateRegion(bytes, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC);
            QueuePair qp = wpd.createQueuePair(new QueuePairInit(type, wsend, wrecv).maxSendWr(Math.max(txDepth, 16))
                    .maxRecvWr(Math.max(rxDepth, 16)).maxInlineData(inlineSize));
            AddressHandle wah = null;
            Side ws = null;
            try {
                connectToSelf(qp, type);
                if (type == QueuePairType.UD) {
                    wah = wpd.createAddressHandle(addressVector(gid == null ? null : gid.gid(), 0));
                }
                long base = wmr.address();
                long recvOff = bytes / 2;
                ws = new Side(new QueuePair[] {qp}, wsend, wrecv, null, wmr, new long[] {base},
                        new long[] {base + recvOff}, new long[] {base + recvOff}, new int[] {wmr.rkey()},
                        Math.max(1, p.postList), Math.max(1, rxDepth), false, Duration.ofSeconds(p.timeoutSeconds));
                long[] tp = new long[iters + 1];
                if (tool.bandwidth()) {
                    Loops.BwSpec b = bwSpec(size, Math.min(iters, 200_000), ws, verb == Verb.SEND ? SendOpcode.RDMA_WRITE : null);
                    b.ah = null;
                    Loops.prepareSends(ws, b);
                    long[] tc = new long[iters + p.postList + 1];
                    long[] tpp = new long[iters + p.postList + 1];
                    Loops.bwClient(ws, b, new long[1], new long[1], tpp, tc);
                } else {
                    Loops.BwSpec b = bwSpec(size, iters, ws, null);
                    if (type == QueuePairType.UD) {
                        b.ah = new AddressHandle[] {wah};
                        b.remoteQpn = new int[] {qp.qpNumber()};
                        b.qkey = UD_QKEY;
                    }
                    Loops.prepareSends(ws, b);
                    switch (verb) {
                        case WRITE -> Loops.writeLatency(ws, size, iters, true, size <= inlineSize, tp);
                        case SEND -> {
                            int depth = Math.min(Math.max(1, rxDepth), iters);
                            Loops.postReceives(ws, depth, (int) size + GRH_BYTES);
                            Loops.sendLatency(ws, iters, depth, false, size <= inlineSize, tp);
                        }
                        default -> Loops.oneSidedLatency(ws, iters, tp);
                    }
                }
            } finally {
                if (ws != null) {
                    ws.close();
                }
                if (wah != null) {
                    wah.close();
                }
                qp.close();
                wmr.close();
                wsend.close();
                wrecv.close();
            }
        }
    }

    /**
     * The send_bw server's receive loop must be compiled before the client starts: an interpreted loop
     * re-posts receives too slowly, the receive queue runs dry and every send waits out an RNR NAK (seen on
     * Soft-RoCE: a C client ran 12x slower against a cold Java server). Rounds of "post receives, send as
     * many to ourselves, consume them with the server loop" on a QP connected to itself.
     */
    private void warmUpSendServer() {
        long size = Math.min(sizes[0], 4096);
        int depth = Math.max(1, Math.min(rxDepth, 256));
        long bytes = Math.max(8192, 2 * size + 2 * GRH_BYTES);
        try (ProtectionDomain wpd = ctx.allocateProtectionDomain()) {
            CompletionQueue wsend = ctx.createCompletionQueue(depth + 16);
            CompletionQueue wrecv = ctx.createCompletionQueue(depth + 16);
            MemoryRegion wmr = wpd.allocateRegion(bytes, Access.LOCAL_WRITE);
            QueuePair qp = wpd.createQueuePair(new QueuePairInit(QueuePairType.RC, wsend, wrecv).maxSendWr(depth)
                    .maxRecvWr(depth));
            Side ws = null;
            try {
                connectToSelf(qp, QueuePairType.RC);
                long base = wmr.address();
                ws = new Side(new QueuePair[] {qp}, wsend, wrecv, null, wmr, new long[] {base},
                        new long[] {base + bytes / 2}, new long[] {base + bytes / 2}, new int[] {wmr.rkey()}, 1, depth,
                        false, Duration.ofSeconds(p.timeoutSeconds));
                Loops.BwSpec b = bwSpec(size, depth, ws, SendOpcode.SEND);
                b.ah = null;
                b.txDepth = depth;
                Loops.prepareSends(ws, b);
                long[] tp = new long[depth + 1];
                long[] tc = new long[depth + 1];
                long[] one = new long[1];
                long[] times = new long[2];
                for (long done = 0; done < p.warmupIterations; done += depth) {
                    Loops.postReceives(ws, depth, (int) size);
                    Loops.bwClient(ws, b, new long[1], new long[1], tp, tc);
                    Loops.bwSendServer(ws, depth, depth, one, times, 0, 0, one);
                }
            } finally {
                if (ws != null) {
                    ws.close();
                }
                qp.close();
                wmr.close();
                wsend.close();
                wrecv.close();
            }
        }
    }

    private void connectToSelf(QueuePair qp, QueuePairType type) {
        if (type == QueuePairType.UD) {
            qp.modify(QueuePairAttributes.initUd(p.ibPort, UD_QKEY));
            qp.modify(new QueuePairAttributes().state(QueuePairState.RTR));
            qp.modify(QueuePairAttributes.rts(0));
            return;
        }
        qp.modify(QueuePairAttributes.init(p.ibPort,
                Access.mask(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC)));
        AddressVector av = addressVector(gid == null ? null : gid.gid(), port.lid());
        qp.modify(QueuePairAttributes.rtrRc(Mtu.of(mtuEnum), qp.qpNumber(), 0, av, Math.max(1, outReads)));
        qp.modify(QueuePairAttributes.rtsRc(0, p.qpTimeout, 7, 7, Math.max(1, outReads)));
    }

    private AddressVector addressVector(byte[] peerGid, int peerLid) {
        AddressVector av = new AddressVector().port(p.ibPort).dlid(peerLid).serviceLevel(p.serviceLevel);
        if (gidIndex >= 0 && peerGid != null) {
            av.global(peerGid, gidIndex);
        }
        return av;
    }

    // ---------------------------------------------------------------- participant: exchange inputs/outputs

    @Override
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

    @Override
    public int localMtu() {
        return mtuEnum;
    }

    @Override
    public void negotiatedSysData(SysData s) {
        sys = s;
    }

    @Override
    public void negotiatedMtu(int mtu) {
        if (mtu < 1 || mtu > 5) {
            throw new RunFailure("peer sent an invalid MTU value " + mtu);
        }
        mtuEnum = mtu;
    }

    @Override
    public PingPongDest[] localDestinations() {
        return local;
    }

    @Override
    public void remoteDestinations(PingPongDest[] r) {
        if (r.length != p.numQps) {
            throw new RunFailure("peer sent " + r.length + " keys, expected " + p.numQps + " (same -q on both sides?)");
        }
        remote = r;
    }

    @Override
    public BwReport localReport(int sizeIndex) {
        if (sizeIndex < 0) {
            sizeIndex = localReports.length - 1;
        }
        BwReport r = localReports[sizeIndex];
        return r == null ? new BwReport(0, 0, 0, 0, 0) : r;
    }

    @Override
    public void peerReport(BwReport peer, int sizeIndex) {
        lastPeerReport = peer;
    }

    // ---------------------------------------------------------------- participant: local steps

    @Override
    public void perform(Step step, int sizeIndex) throws Exception {
        switch (step) {
            case CM_LISTEN -> rdmaCmListen();
            case CM_CONNECT -> rdmaCmConnect();
            case SETUP -> setup();
            case CONNECT -> connect();
            case PRINT_LOCAL -> print(PerftestFormat.addresses("local", local, verb, withGid(), p.rdmaCmExchange));
            case PRINT_REMOTE -> print(PerftestFormat.addresses("remote", remote, verb, withGid(), p.rdmaCmExchange));
            case HEADER -> {
                print(PerftestFormat.RESULT_LINE);
                print(tool.bandwidth() ? PerftestFormat.bwHeader(p.unit)
                        : p.durationSeconds > 0 ? PerftestFormat.LAT_DURATION_HEADER : PerftestFormat.LAT_HEADER);
            }
            case PREPARE -> prepare(sizeIndex);
            case RUN -> run(sizeIndex);
            case PRINT_ROW -> printRow(sizeIndex);
            case PRINT_PEER_ROW -> {
                verifyAsTarget();
                if (lastPeerReport != null) {
                    bwRows.add(lastPeerReport);
                    print(PerftestFormat.bwRow(lastPeerReport, p.unit));
                }
            }
            case PRINT_SUM_ROW -> {
                BwReport sum = localReports[sizeIndex].plus(lastPeerReport);
                bwRows.add(sum);
                print(PerftestFormat.bwRow(sum, p.unit));
            }
            case FOOTER -> print(PerftestFormat.RESULT_LINE);
            default -> throw new IllegalStateException("unexpected local step " + step);
        }
    }

    private void print(String s) {
        out.print(s);
        out.flush();
    }

    /**
     * PD, CQs and the buffer on {@code c}: the device opened by name, or with {@code -R} the context librdmacm
     * resolved the peer's address to (a QP made by rdma_cm must share its id's context).
     */
    private void createResources(Context c) {
        int page = sys.pageSize();
        int line = sys.cacheLineSize();
        long buf = Math.max(maxSize + (qpType == QueuePairType.UD ? GRH_BYTES : 0), page);
        slot = ((buf + line - 1) / line) * line;
        pd = c.allocateProtectionDomain();
        if (p.useEvents) {
            channel = c.createCompletionChannel();
        }
        boolean send = verb == Verb.SEND;
        sendCq = c.createCompletionQueue(Math.max(1, txDepth * p.numQps), channel, 0);
        recvCq = send ? c.createCompletionQueue(Math.max(1, rxDepth * p.numQps), channel, 0) : sendCq;
        int access = Access.mask(Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
        mr = pd.allocateRegion(2 * p.numQps * slot, access);
        qps = new QueuePair[p.numQps];
    }

    private QueuePairInit queuePairInit() {
        return new QueuePairInit(qpType, sendCq, recvCq).maxSendWr(Math.max(1, txDepth))
                .maxRecvWr(verb == Verb.SEND ? Math.max(1, rxDepth) : 1).maxInlineData(inlineSize);
    }

    private void setup() {
        if (!p.rdmaCm) {
            createResources(ctx);
            for (int i = 0; i < p.numQps; i++) {
                qps[i] = pd.createQueuePair(queuePairInit());
                if (qpType == QueuePairType.UD) {
                    qps[i].modify(QueuePairAttributes.initUd(p.ibPort, UD_QKEY));
                } else {
                    int remoteAccess = switch (verb) {
                        case WRITE -> Access.mask(Access.REMOTE_WRITE);
                        case READ -> Access.mask(Access.REMOTE_READ);
                        case ATOMIC -> Access.mask(Access.REMOTE_ATOMIC);
                        case SEND -> Access.mask(Access.REMOTE_WRITE, Access.LOCAL_WRITE);
                    };
                    qps[i].modify(QueuePairAttributes.init(p.ibPort, remoteAccess));
                }
            }
        }
        local = new PingPongDest[p.numQps];
        SecureRandom rnd = new SecureRandom();
        byte[] gidBytes = gid == null ? new byte[16] : gid.gid();
        for (int i = 0; i < p.numQps; i++) {
            long localRecv = mr.address() + (p.numQps + i) * slot;
            // With -R the PSN is rdma_cm's choice; perftest still prints a random one, and so do we.
            int psn = rnd.nextInt() & 0xffffff;
            local[i] = new PingPongDest(port.lid(), outReads, qps[i].qpNumber(), psn, mr.rkey(), localRecv,
                    gidBytes, 0);
        }
        if (p.verify) {
            // Sources carry the pattern; targets start zeroed so a missed write shows.
            for (int i = 0; i < p.numQps; i++) {
                Pattern.fill(mr.segment(), i * slot, maxSize);
                if (verb == Verb.READ) {
                    Pattern.fill(mr.segment(), (p.numQps + i) * slot, maxSize);
                }
            }
        }
        banner = BannerInfo.builder(tool, p.role).bidirectional(p.bidirectional).device(p.device).numQps(p.numQps)
                .transportType("IB").connectionType(p.connection).pcieRelaxOrder(tool == Tool.WRITE_LAT ? "OFF" : "ON")
                .wrApi(false).txDepth(txDepth).postList(p.postList).rxDepth(rxDepth).cqModeration(cqMod)
                .mtuBytes(Mtu.of(mtuEnum).bytes()).linkType(roce ? "Ethernet" : "IB").gidIndex(gidIndex)
                .maxInline(inlineSize).outstandingReads(outReads)
                .atomicType(p.compareAndSwap ? "CMP_AND_SWAP" : "FETCH_AND_ADD").rdmaCmQps(p.rdmaCm)
                .rdmaCmExchange(p.rdmaCmExchange).build();
        print(PerftestFormat.banner(banner));
        if (p.rdmaCm && !client) {
            print(PerftestFormat.rdmaCmServerWaiting());
        }
        int n = (int) Math.max(1, p.durationSeconds > 0 ? 1 : p.iterations * p.numQps + p.postList);
        tposted = new long[n];
        tcompleted = new long[n];
        localReports = new BwReport[sizes.length];
    }

    // ---------------------------------------------------------------- -R: test QPs through rdma_cm

    /** Server: listen before the barrier, so the client's connect requests find us whenever they come. */
    private void rdmaCmListen() {
        cmEvents = EventChannel.create();
        if (client) {
            return;
        }
        cmListener = cmEvents.createId(PortSpace.TCP);
        try {
            cmListener.bindAddress(new InetSocketAddress("0.0.0.0", p.tcpPort));
            cmListener.listen(p.numQps);
        } catch (VerbsException e) {
            throw new RunFailure("cannot listen for the test QPs' rdma_cm connections on port " + p.tcpPort + ": "
                    + e.getMessage());
        }
    }

    /**
     * perftest's {@code create_rdma_cm_connection}: the client resolves and connects one id per QP (retrying
     * every 100 ms while the server is not listening yet, as perftest does); the server accepts as many
     * connect requests. The resources live on the context of the first id.
     */
    private void rdmaCmConnect() throws Exception {
        cmIds = new CmId[p.numQps];
        Duration limit = Duration.ofSeconds(Math.max(10, p.timeoutSeconds));
        ConnectionParameters params = new ConnectionParameters().retryCount(7).rnrRetryCount(7);
        boolean reads = verb == Verb.READ || verb == Verb.ATOMIC;
        params.responderResources(reads ? outReads : 0).initiatorDepth(reads ? outReads : 0);
        if (client) {
            InetSocketAddress target = new InetSocketAddress(ipv4(p.server), p.tcpPort);
            for (int i = 0; i < p.numQps; i++) {
                cmIds[i] = connectOne(i, target, params, System.nanoTime() + limit.toNanos(), limit);
            }
        } else {
            for (int i = 0; i < p.numQps; i++) {
                CmEvent request;
                try {
                    request = cmListener.awaitConnectRequest(limit);
                } catch (CmException e) {
                    throw new RunFailure(e.isTimeout() ? "the client's rdma_cm connection for QP " + i
                            + " did not arrive within " + limit.toSeconds() + " s" : "rdma_cm: " + e.getMessage());
                }
                CmId id = request.id();
                cmIds[i] = id;
                useRdmaCmContext(id);
                qps[i] = id.createQueuePair(pd, queuePairInit());
                id.accept(params, limit);
                if (qpType == QueuePairType.RC) {
                    // perftest's server sets MIN_RNR_TIMER after the accept (rdma_cm_connection_request_handler).
                    qps[i].modify(new QueuePairAttributes().minRnrTimer(12));
                }
            }
            cmListener.close();
            cmListener = null;
        }
    }

    private CmId connectOne(int i, InetSocketAddress target, ConnectionParameters params, long deadline,
            Duration limit) {
        while (true) {
            CmId id = cmEvents.createId(PortSpace.TCP);
            try {
                id.resolveAddress(null, target, Duration.ofSeconds(2));
                id.resolveRoute(Duration.ofSeconds(2));
                useRdmaCmContext(id);
                qps[i] = id.createQueuePair(pd, queuePairInit());
                id.connect(params, Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime())));
                return id;
            } catch (CmException e) {
                qps[i] = null;
                RdmaCmControlChannel.closeQuietly(id);
                if (!RdmaCmControlChannel.retryable(e) || System.nanoTime() + 100_000_000L - deadline >= 0) {
                    throw new RunFailure("rdma_cm connection of QP " + i + " to " + target.getAddress().getHostAddress()
                            + ":" + target.getPort() + " failed" + (e.isTimeout() ? " within " + limit.toSeconds() + " s"
                            : ": " + e.getMessage()));
                }
                LockSupport.parkNanos(100_000_000L);
            } catch (RuntimeException e) {
                qps[i] = null;
                RdmaCmControlChannel.closeQuietly(id);
                throw e;
            }
        }
    }

    /** The first id decides the context; it must be the device and port the user named. */
    private void useRdmaCmContext(CmId id) {
        if (pd != null) {
            return;
        }
        Context c = id.context();
        if (!c.name().equals(p.device) || id.port() != p.ibPort) {
            throw new RunFailure("rdma_cm reaches " + (client ? p.server : "the client") + " through " + c.name()
                    + " port " + id.port() + ", not " + p.device + " port " + p.ibPort
                    + " (use -d " + c.name() + " -i " + id.port() + ")");
        }
        createResources(c);
    }

    private static InetAddress ipv4(String host) {
        try {
            return RdmaCmControlChannel.ipv4(host);
        } catch (io.rdmaffm.perftest.exchange.ExchangeException e) {
            throw new RunFailure(e.getMessage());
        }
    }

    private void connect() {
        boolean sends = client || p.bidirectional || !tool.bandwidth() || verb == Verb.SEND && p.bidirectional;
        if (qpType == QueuePairType.UD) {
            ahs = new AddressHandle[p.numQps];
        }
        long[] localSend = new long[p.numQps];
        long[] localRecv = new long[p.numQps];
        long[] remoteAddr = new long[p.numQps];
        int[] remoteRkey = new int[p.numQps];
        for (int i = 0; i < p.numQps; i++) {
            PingPongDest r = remote[i];
            QueuePair qp = qps[i];
            AddressVector av = addressVector(withGid() ? r.gid() : null, r.lid());
            if (p.rdmaCm) {
                // rdma_cm moved the QP to RTR and RTS when the connection was established.
            } else if (qpType == QueuePairType.UD) {
                qp.modify(new QueuePairAttributes().state(QueuePairState.RTR));
                qp.modify(QueuePairAttributes.rts(local[i].psn()));
                ahs[i] = pd.createAddressHandle(av);
            } else if (qpType == QueuePairType.RC) {
                qp.modify(QueuePairAttributes.rtrRc(Mtu.of(mtuEnum), r.qpn(), r.psn(), av, outReads));
                if (sends) {
                    qp.modify(QueuePairAttributes.rtsRc(local[i].psn(), p.qpTimeout, 7, 7, Math.max(1, r.outReads())));
                }
            } else {
                qp.modify(QueuePairAttributes.rtr(Mtu.of(mtuEnum), r.qpn(), r.psn(), av));
                if (sends) {
                    qp.modify(QueuePairAttributes.rts(local[i].psn()));
                }
            }
            localSend[i] = mr.address() + i * slot;
            localRecv[i] = mr.address() + (p.numQps + i) * slot;
            remoteAddr[i] = r.vaddr();
            remoteRkey[i] = r.rkey();
        }
        side = new Side(qps, sendCq, recvCq, channel, mr, localSend, localRecv, remoteAddr, remoteRkey,
                Math.max(1, p.postList), Math.max(1, rxDepth), p.useEvents, Duration.ofSeconds(p.timeoutSeconds));
    }

    private SendOpcode opcode() {
        return switch (verb) {
            case SEND -> SendOpcode.SEND;
            case WRITE -> SendOpcode.RDMA_WRITE;
            case READ -> SendOpcode.RDMA_READ;
            case ATOMIC -> p.compareAndSwap ? SendOpcode.ATOMIC_CMP_AND_SWP : SendOpcode.ATOMIC_FETCH_AND_ADD;
        };
    }

    private Loops.BwSpec bwSpec(long size, long iters, Side s, SendOpcode override) {
        Loops.BwSpec b = new Loops.BwSpec();
        b.opcode = override != null ? override : opcode();
        b.size = verb == Verb.ATOMIC ? 8 : size;
        b.iterations = iters;
        b.txDepth = Math.max(1, Math.min(txDepth, (int) Math.max(1, iters)));
        b.cqMod = Math.max(1, Math.min(cqMod, b.txDepth));
        b.postList = Math.max(1, p.postList);
        b.inline = verb != Verb.READ && verb != Verb.ATOMIC && size <= inlineSize && inlineSize > 0;
        b.noPeak = p.noPeak || p.durationSeconds > 0 || iters > 20_000;
        if (p.durationSeconds > 0 && s == side) {
            b.durationNanos = p.durationSeconds * 1_000_000_000L;
            b.marginNanos = p.marginSeconds * 1_000_000_000L;
        }
        if (qpType == QueuePairType.UD && remote != null && s == side) {
            b.ah = ahs;
            b.remoteQpn = new int[p.numQps];
            for (int i = 0; i < p.numQps; i++) {
                b.remoteQpn[i] = remote[i].qpn();
            }
            b.qkey = UD_QKEY;
        }
        return b;
    }

    private void prepare(int sizeIndex) {
        if (verb != Verb.SEND) {
            return;
        }
        long size = sizes[sizeIndex];
        boolean receives = !client || !tool.bandwidth() || p.bidirectional;
        if (receives) {
            Loops.postReceives(side, rxDepth, (int) size + (qpType == QueuePairType.UD ? GRH_BYTES : 0));
        }
    }

    private void run(int sizeIndex) {
        long size = sizes[sizeIndex];
        long iters = p.iterations;
        if (tool.bandwidth()) {
            if (verb == Verb.SEND && !client && !p.bidirectional) {
                long[] times = new long[2];
                long[] sampled = new long[1];
                Loops.bwSendServer(side, iters, rxDepth, rcnt, times, p.durationSeconds * 1_000_000_000L,
                        p.marginSeconds * 1_000_000_000L, sampled);
                long n = p.durationSeconds > 0 ? sampled[0] : iters * p.numQps;
                localReports[sizeIndex] = BwArithmetic.duration(size, n, times[0], times[1], p.unit, 1e9);
                verifyReceived(size);
                return;
            }
            Loops.BwSpec b = bwSpec(size, iters, side, null);
            Loops.prepareSends(side, b);
            if (verb == Verb.SEND && p.bidirectional) {
                Loops.bwBidirectionalSend(side, b, !client, rxDepth, scnt, ccnt, rcnt, tposted, tcompleted);
                verifyReceived(size);
            } else {
                Loops.bwClient(side, b, scnt, ccnt, tposted, tcompleted);
            }
            long wireSize = verb == Verb.ATOMIC ? 8 : size;
            if (p.durationSeconds > 0) {
                localReports[sizeIndex] = BwArithmetic.duration(wireSize, b.sampled, b.sampleStart, b.sampleEnd, p.unit, 1e9);
            } else {
                localReports[sizeIndex] = BwArithmetic.iterations(wireSize, (int) (iters * p.numQps), tposted, tcompleted,
                        b.postList, b.cqMod, b.noPeak, p.unit, 1e9);
            }
            if (verb == Verb.READ) {
                verifyRead(size);
            }
            return;
        }
        // Latency tools: one QP.
        Loops.BwSpec b = bwSpec(size, iters, side, null);
        Loops.prepareSends(side, b);
        boolean inline = size <= inlineSize && inlineSize > 0;
        if (p.durationSeconds > 0) {
            Loops.Clock clock = new Loops.Clock(p.durationSeconds * 1_000_000_000L, p.marginSeconds * 1_000_000_000L);
            switch (verb) {
                case WRITE -> Loops.writeLatencyDuration(side, size, !client, inline, clock, durationSample);
                case SEND -> Loops.sendLatencyDuration(side, !client, inline, clock, durationSample);
                default -> Loops.oneSidedLatencyDuration(side, clock, durationSample);
            }
            return;
        }
        switch (verb) {
            case WRITE -> Loops.writeLatency(side, size, iters, !client, inline, tposted);
            case SEND -> Loops.sendLatency(side, iters, rxDepth, !client, inline, tposted);
            default -> Loops.oneSidedLatency(side, iters, tposted);
        }
        if (verb == Verb.SEND) {
            verifyReceived(size);
        } else if (verb == Verb.WRITE) {
            verifyWriteLatency(size);
        } else if (verb == Verb.READ) {
            verifyRead(size);
        }
    }

    private void printRow(int sizeIndex) throws IOException {
        long size = sizes[sizeIndex];
        if (tool.bandwidth()) {
            BwReport r = localReports[sizeIndex];
            bwRows.add(r);
            print(PerftestFormat.bwRow(r, p.unit));
            return;
        }
        if (p.durationSeconds > 0) {
            long n = durationSample[2];
            if (n == 0) {
                throw new RunFailure("no round trip completed inside the " + (p.durationSeconds - 2 * p.marginSeconds)
                        + " s sample window (did the peer start with the same -D?)");
            }
            DurationLatency d = LatencyArithmetic.duration(durationSample[0], durationSample[1], n, verb, 1000.0);
            durationResult = d;
            print(PerftestFormat.latencyDurationRow(verb == Verb.ATOMIC ? 8 : size, n, d.avgUsec(), d.tps()));
            return;
        }
        int iters = (int) p.iterations;
        LatencyResult res = LatencyArithmetic.iterations(tposted, iters, verb, 1000.0);
        latRows.add(new LatencyRow(verb == Verb.ATOMIC ? 8 : size, iters, res));
        if (p.printUnsorted) {
            print("#, usec\n");
            for (int i = 0; i < iters - 1; i++) {
                print(i + ", " + ((tposted[i + 1] - tposted[i]) / 1000.0 / verb.latencyRttFactor()) + "\n");
            }
        }
        print(PerftestFormat.latencyRow(verb == Verb.ATOMIC ? 8 : size, iters, res));
        histogram.reset();
        for (int i = 0; i < iters - 1; i++) {
            histogram.recordValue(Math.max(0, (tposted[i + 1] - tposted[i]) / verb.latencyRttFactor()));
        }
        if (p.hgrmFile != null) {
            Path file = sizes.length > 1 ? Path.of(p.hgrmFile + "." + size) : p.hgrmFile;
            HgrmWriter.write(histogram, file);
        }
    }

    /** A server whose memory the peer wrote, read or updated checks it after the run. */
    private void verifyAsTarget() {
        if (!p.verify) {
            return;
        }
        long last = sizes[sizes.length - 1];
        for (int i = 0; i < p.numQps; i++) {
            long off = (p.numQps + i) * slot;
            if (verb == Verb.WRITE) {
                report("RDMA write target of QP " + i, off, last);
            } else if (verb == Verb.ATOMIC) {
                long v = mr.segment().get(JAVA_LONG, off);
                long expected = p.compareAndSwap ? 0 : lastPeerReport == null ? -1 : lastPeerReport.iters() / p.numQps;
                if (v != expected) {
                    verifyMismatches++;
                    print(" verify: atomic target of QP " + i + " holds " + v + ", expected " + expected + "\n");
                }
            }
        }
        printVerifySummary();
    }

    private void verifyReceived(long size) {
        if (p.verify && (!client || !tool.bandwidth() || p.bidirectional)) {
            for (int i = 0; i < p.numQps; i++) {
                report("receive buffer of QP " + i, (p.numQps + i) * slot
                        + (qpType == QueuePairType.UD ? GRH_BYTES : 0), size);
            }
            printVerifySummary();
        }
    }

    private void verifyWriteLatency(long size) {
        if (p.verify && size > 1) {
            // The last byte carries the iteration counter; the rest is the sender's pattern.
            report("RDMA write target", p.numQps * slot, size - 1);
            printVerifySummary();
        }
    }

    private void verifyRead(long size) {
        if (p.verify && client) {
            for (int i = 0; i < p.numQps; i++) {
                report("RDMA read destination of QP " + i, i * slot, verb == Verb.ATOMIC ? 0 : size);
            }
            printVerifySummary();
        }
    }

    private void report(String what, long offset, long length) {
        long bad = Pattern.mismatches(mr.segment(), offset, length);
        if (bad > 0) {
            verifyMismatches += bad;
            print(" verify: " + what + ": " + bad + " of " + length + " bytes differ, first at offset "
                    + Pattern.firstMismatch(mr.segment(), offset, length) + "\n");
        }
    }

    private void printVerifySummary() {
        print(" verify: " + (verifyMismatches == 0 ? "all data as expected" : verifyMismatches + " mismatching bytes") + "\n");
    }

    /** Mismatching bytes found by --verify. */
    public long verifyMismatches() {
        return verifyMismatches;
    }

    /** Writes --out_json. */
    public void writeJson() throws IOException {
        if (!p.outJson || banner == null) {
            return;
        }
        String json = tool.bandwidth() ? JsonReport.bandwidth(banner, p.describe(), p.unit, bwRows)
                : durationResult != null ? JsonReport.latencyDuration(banner, p.describe(),
                        verb == Verb.ATOMIC ? 8 : sizes[0], durationSample[2], durationResult)
                : JsonReport.latency(banner, p.describe(), latRows);
        Files.writeString(p.outJsonFile, json);
    }

    @Override
    public void close() {
        RuntimeException first = null;
        List<AutoCloseable> order = new ArrayList<>();
        if (ahs != null) {
            for (AddressHandle a : ahs) {
                if (a != null) {
                    order.add(a);
                }
            }
        }
        if (qps != null) {
            for (QueuePair q : qps) {
                if (q != null) {
                    order.add(q);
                }
            }
        }
        if (cmIds != null) {
            for (CmId id : cmIds) {
                if (id != null) {
                    order.add(id);
                }
            }
        }
        if (cmListener != null) {
            order.add(cmListener);
        }
        if (mr != null) {
            order.add(mr);
        }
        if (recvCq != null && recvCq != sendCq) {
            order.add(recvCq);
        }
        if (sendCq != null) {
            order.add(sendCq);
        }
        if (channel != null) {
            order.add(channel);
        }
        if (pd != null) {
            order.add(pd);
        }
        order.add(ctx);
        if (cmEvents != null) {
            order.add(cmEvents);
        }
        if (side != null) {
            side.close();
        }
        for (AutoCloseable c : order) {
            try {
                c.close();
            } catch (Exception e) {
                if (first == null) {
                    first = new RuntimeException("cleanup failed: " + e.getMessage(), e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }
}
