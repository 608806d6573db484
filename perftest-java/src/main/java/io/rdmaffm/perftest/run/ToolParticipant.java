package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.engine.EndlessRun;
import io.rdmaffm.perftest.engine.MemoryAccess;
import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.perftest.engine.PeerEnd;
import io.rdmaffm.perftest.engine.PerftestEngine;
import io.rdmaffm.perftest.engine.RunFailure;
import io.rdmaffm.perftest.engine.RunResult;
import io.rdmaffm.perftest.engine.StopSignal;
import io.rdmaffm.perftest.engine.Verification;
import io.rdmaffm.perftest.engine.Warmup;
import io.rdmaffm.perftest.exchange.ExchangeChannel;
import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.exchange.ScriptRunner;
import io.rdmaffm.perftest.exchange.Step;
import io.rdmaffm.perftest.exchange.SysData;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.report.BannerInfo;
import io.rdmaffm.perftest.report.BwArithmetic;
import io.rdmaffm.perftest.report.RowExtras;
import io.rdmaffm.perftest.report.RunReporter;
import io.rdmaffm.perftest.report.TimeSeries;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.VerbsException;

import java.io.PrintWriter;

/**
 * The script's local steps: the engine does them and hands back values, the reporter prints those. Keeps the
 * bandwidth figures of each size for the report exchange.
 */
final class ToolParticipant implements ScriptRunner.Participant {
    private static final java.nio.file.Path PROC_STAT = java.nio.file.Path.of("/proc/stat");

    private final RunParameters p;
    /** This side's plan until the MTU exchange, then the agreed one ({@link #negotiatedMtu}). */
    private RunPlan plan;
    private final OpenDevice dev;
    private final PerftestEngine engine;
    private final RunReporter reporter;
    private final PrintWriter err;
    /** One per agreed size (set at the MTU exchange). */
    private BwReport[] localReports;
    private final RunProgress progress;
    private RunResult lastRun;
    private int lastSizeIndex;
    private RowExtras lastMeasured;
    private BwReport lastPeerReport;
    /** {@code --run_infinitely}: Ctrl-C's stop (null without), and the peer's end where both sides loop. */
    private StopSignal stop;
    private ExchangePeerEnd peerEnd;
    /** The exchange connection: where both sides loop, its close is the peer's end. */
    private final ExchangeChannel channel;

    ToolParticipant(RunParameters p, RunPlan plan, OpenDevice dev, PerftestEngine engine, RunReporter reporter,
            RunProgress progress, PrintWriter err, ExchangeChannel channel) {
        this.progress = progress;
        this.p = p;
        this.plan = plan;
        this.dev = dev;
        this.engine = engine;
        this.reporter = reporter;
        this.err = err;
        this.channel = channel;
        this.localReports = new BwReport[plan.sizes().size()];
    }

    @Override
    public SysData localSysData() {
        return engine.localSysData();
    }

    @Override
    public int localMtu() {
        return engine.localMtu();
    }

    @Override
    public void negotiatedSysData(SysData sysData) {
        engine.negotiatedSysData(sysData);
    }

    /**
     * The plan at the MTU both sides settled on (perftest's UD size rule applies here, its lines on stderr as C
     * prints them), handed to the engine before anything is built from it.
     */
    @Override
    public void negotiatedMtu(int mtuEnum) {
        if (mtuEnum < 1 || mtuEnum > 5) {
            throw new RunFailure("peer sent an invalid MTU value " + mtuEnum);
        }
        RunPlan.Agreed agreed = plan.agreed(p, mtuEnum);
        if (agreed.notice() != null) {
            err.print(agreed.notice());
            err.flush();
        }
        plan = agreed.plan();
        engine.agreed(plan);
        localReports = new BwReport[plan.sizes().size()];
        if (p.on(Flag.RUN_INFINITELY) && (p.isClient() || EndlessEnds.bothLoop(p))) {
            // perftest's row every interval; Ctrl-C stops the loop, and the run ends as any other
            long wire = p.verb() == Verb.ATOMIC ? 8 : plan.size(0);
            // -b: perftest's rows count this side's messages twice (run_inf_bi_factor), as both ways carry as many
            double factor = p.workload().bidirectional() ? 2 : 1;
            stop = InterruptStop.install();
            peerEnd = EndlessEnds.bothLoop(p) ? new ExchangePeerEnd(channel) : null;
            engine.runInfinitely(new EndlessRun((count, start, end) -> reporter.bwRow(EndlessEnds.row(
                    BwArithmetic.duration(wire, count, start, end, p.output().unit(), 1e9), factor)), stop,
                    peerEnd == null ? PeerEnd.NONE : peerEnd));
        }
    }

    @Override
    public int sizeCount(int planned) {
        return plan.sizes().size();
    }

    @Override
    public PingPongDest[] localDestinations() {
        return engine.localDestinations();
    }

    @Override
    public void remoteDestinations(PingPongDest[] remote) {
        engine.remoteDestinations(remote);
    }

    @Override
    public BwReport localReport(int sizeIndex) {
        BwReport r = localReports[sizeIndex < 0 ? localReports.length - 1 : sizeIndex];
        return r == null ? new BwReport(0, 0, 0, 0, 0) : r;
    }

    @Override
    public void peerReport(BwReport peer, int sizeIndex) {
        lastPeerReport = peer;
    }

    @Override
    public void perform(Step step, int sizeIndex) throws Exception {
        try {
            performStep(step, sizeIndex);
        } catch (VerbsException e) {
            if (step == Step.SETUP || step == Step.CM_LISTEN) {
                throw e;
            }
            // After the set-up a verb fails because of the peer (its keys), the link or the device: the run failed.
            throw withPortState(new RunFailure(e.getMessage(), e));
        } catch (RunFailure e) {
            throw withPortState(e);
        }
    }

    /** The failure, saying so when the port is no longer ACTIVE (the link went down under the run). */
    private RunFailure withPortState(RunFailure e) {
        String trouble = dev.portTrouble();
        return trouble == null ? e : new RunFailure(e.getMessage() + " (" + trouble + ")", e);
    }

    @Override
    public void beforeFirstRunBarrier() throws InterruptedException {
        // The gate's polling may have queued compilations of its own: they finish before the window, not in it.
        if (p.isClient() && StartGate.awaitIfConfigured() && p.limits().warmupIterations() > 0) {
            Warmup.settleCompiler();
        }
    }

    private void performStep(Step step, int sizeIndex) throws Exception {
        boolean rdmaCmExchange = p.endpoint().rdmaCmExchange();
        switch (step) {
            case CM_LISTEN -> engine.cmListen();
            case CM_CONNECT -> engine.cmConnect();
            case SETUP -> setup();
            case CONNECT -> {
                engine.connect();
                engine.prepareFirstWindow();
            }
            // -g: perftest labels the receiver's own group and the sender's remote one "MGID" (also in the latency
            // tool, where both sides join a group: the client's own and the server's remote are labelled "GID").
            case PRINT_LOCAL -> reporter.addresses("local", engine.localDestinations(), dev.withGid(), rdmaCmExchange,
                    p.on(Flag.MCG) && !p.isClient());
            case PRINT_REMOTE -> reporter.addresses("remote", engine.remoteDestinations(), dev.withGid(),
                    rdmaCmExchange, p.on(Flag.MCG) && p.isClient());
            case HEADER -> reporter.header(p.workload().duration());
            case PREPARE -> engine.prepare(sizeIndex);
            case RUN -> {
                if (peerEnd != null) {
                    peerEnd.watch();
                }
                run(sizeIndex);
            }
            case PRINT_ROW -> {
                if (p.on(Flag.RUN_INFINITELY)) {
                    if (stop.stopped()) {
                        reporter.note("\n User stopped traffic\n"); // the rows went out every interval (upstream's)
                    }
                } else {
                    printRow(sizeIndex);
                }
            }
            case PRINT_PEER_ROW -> {
                // with --run_infinitely too: Debian's C 4.5-0.17 prints the sender's whole-run row here
                show(engine.verifyAsTarget(lastPeerReport));
                if (lastPeerReport != null) {
                    reporter.bwRow(lastPeerReport);
                }
            }
            case PRINT_SUM_ROW -> {
                reporter.bwRow(localReports[sizeIndex].plus(lastPeerReport), lastMeasured);
                if (p.on(Flag.REPORT_BOTH) && !p.workload().allSizes()) {
                    reporter.bothSides(localReports[sizeIndex], lastPeerReport);
                }
            }
            case FOOTER -> reporter.footer();
            default -> throw new IllegalStateException("unexpected local step " + step);
        }
    }

    private void setup() {
        engine.setup();
        reporter.banner(banner());
        if (p.endpoint().rdmaCm() && !p.isClient()) {
            reporter.rdmaCmServerWaiting();
        }
    }

    private BannerInfo banner() {
        RunParameters.Workload w = p.workload();
        return BannerInfo.builder(p.tool(), p.role()).bidirectional(w.bidirectional()).device(dev.name())
                .numQps(w.numQps()).useSrq(p.on(Flag.SRQ)).transportType("IB").connectionType(p.endpoint().connection().name())
                .pcieRelaxOrder(MemoryAccess.relaxedOrdering(p) ? "ON" : "OFF").wrApi(false).txDepth(plan.txDepth())
                .postList(w.postList()).recvPostList(p.tool().bandwidth() ? (Integer) p.value(Flag.RECV_POST_LIST) : 1).rxDepth(plan.rxDepth()).cqModeration(plan.cqMod())
                .mtuBytes(engine.mtuBytes()).linkType(dev.roce() ? "Ethernet" : "IB").gidIndex(dev.gidIndex())
                .maxInline(plan.inlineSize()).outstandingReads(plan.outReads())
                .atomicType(w.compareAndSwap() ? "CMP_AND_SWAP" : "FETCH_AND_ADD").rdmaCmQps(p.endpoint().rdmaCm())
                .rdmaCmExchange(p.endpoint().rdmaCmExchange()).tos((Integer) p.value(Flag.TOS))
                .eventsVector(w.useEvents() ? (Integer) p.value(Flag.VECTOR) : -1).multicast(p.on(Flag.MCG)).build();
    }

    /** The measured loop; its verification lines follow it at once, its bandwidth figures are kept. */
    private void run(int sizeIndex) {
        progress.starting(sizeIndex);
        CpuUtilSampler cpu = cpuUtilSampler();
        RunResult r = engine.run(sizeIndex);
        if (cpu != null) {
            reporter.cpuUtil(awaitCpuUtil(cpu));
        }
        progress.finished(sizeIndex);
        lastRun = r;
        lastSizeIndex = sizeIndex;
        show(r.verification());
        if (!p.tool().bandwidth()) {
            return;
        }
        TimeSeries series = r instanceof RunResult.BwTimestamps t && !t.noPeak()
                ? TimeSeries.bandwidth(t.size(), t.count(), t.tposted(), t.tcompleted(), p.output().unit()) : null;
        lastMeasured = new RowExtras(sizeIndex, series, null);
        localReports[sizeIndex] = switch (r) {
            case RunResult.BwTimestamps t -> BwArithmetic.iterations(t.size(), t.count(), t.tposted(), t.tcompleted(),
                    t.postList(), t.cqMod(), t.noPeak(), p.output().unit(), 1e9);
            case RunResult.Window win -> BwArithmetic.duration(win.size(), win.count(), win.start(), win.end(),
                    p.output().unit(), 1e9);
            case RunResult.RoundTrips rt -> throw new IllegalStateException("a bandwidth run measured round trips");
        };
    }

    /** {@code --cpu_util} (only with -D): a sampler of the loop's sample window, which opens after the margin. */
    private CpuUtilSampler cpuUtilSampler() {
        if (!p.on(Flag.CPU_UTIL)) {
            return null;
        }
        RunParameters.Workload w = p.workload();
        long start = System.nanoTime();
        return CpuUtilSampler.start(PROC_STAT, start + w.marginSeconds() * 1_000_000_000L,
                start + (w.durationSeconds() - w.marginSeconds()) * 1_000_000_000L);
    }

    private static float awaitCpuUtil(CpuUtilSampler cpu) {
        try {
            return cpu.awaitPercent();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RunFailure("interrupted while measuring --cpu_util");
        }
    }

    private void printRow(int sizeIndex) throws Exception {
        if (p.tool().bandwidth()) {
            reporter.bwRow(localReports[sizeIndex], lastMeasured);
            return;
        }
        switch (lastRun) {
            case RunResult.RoundTrips rt -> reporter.latencyRow(rt.size(), rt.iterations(), rt.tposted(), lastSizeIndex);
            case RunResult.Window win -> {
                if (win.count() == 0) {
                    RunParameters.Workload w = p.workload();
                    throw new RunFailure("no round trip completed inside the "
                            + (w.durationSeconds() - 2 * w.marginSeconds())
                            + " s sample window (did the peer start with the same -D?)");
                }
                reporter.latencyDurationRow(win.size(), win.count(), win.start(), win.end(), lastSizeIndex);
            }
            case RunResult.BwTimestamps t -> throw new IllegalStateException("a latency run measured bandwidth");
        }
    }

    private void show(Verification v) {
        if (v.checked()) {
            reporter.verification(v.mismatches());
        }
    }
}
