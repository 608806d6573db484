package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.engine.RunFailure;
import io.rdmaffm.perftest.report.BannerInfo;
import io.rdmaffm.perftest.report.JsonReport;
import io.rdmaffm.perftest.report.RunReporter;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.BwUnit;
import io.rdmaffm.perftest.vocab.Role;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The server's side of a fuzzed session without a device: what perftest-java does with every value a client
 * sends, short of the verbs. It checks what the engine checks (the MTU both use, the number of keys, buffer
 * sizes from the page size), prints what the tools print from the peer's values (the remote addresses, the
 * client's bandwidth row, the sum of a bidirectional run) with the tools' reporter, and writes the JSON report.
 */
final class FuzzedServer implements ScriptRunner.Participant {
    /** The engine's buffer per QP may not exceed this, whatever the peer says (it sizes from the page size). */
    static final long MAX_SLOT = 4L << 20;

    private final HostileClient.Setup setup;
    private final StringWriter printed = new StringWriter();
    private final RunReporter reporter;
    private final PingPongDest[] mine;
    private final List<BwReport> rows = new ArrayList<>();
    private PingPongDest[] remote;
    private BwReport peer;

    FuzzedServer(HostileClient.Setup setup) {
        this.setup = setup;
        this.reporter = new RunReporter(setup.tool(), Role.SERVER, BwUnit.MB_PER_SEC, new PrintWriter(printed),
                new RunReporter.LatencyOutput(null, setup.sizes() > 1, false, false));
        this.mine = new PingPongDest[setup.numQps()];
        for (int i = 0; i < mine.length; i++) {
            mine[i] = PingPongDest.withoutGid(0, 16, 0x100 + i, 0x4242, 0x1234, 0x7f0000000000L, 0);
        }
        reporter.banner(BannerInfo.builder(setup.tool(), Role.SERVER).numQps(setup.numQps()).build());
    }

    @Override
    public SysData localSysData() {
        return new SysData(4096, 64);
    }

    @Override
    public int localMtu() {
        return 3;
    }

    @Override
    public void negotiatedSysData(SysData s) {
        // The engine's slot: max(largest message, page size), rounded up to cache lines (RunPlan.slot).
        long slot = ((Math.max(65536L, s.pageSize()) + s.cacheLineSize() - 1) / s.cacheLineSize()) * s.cacheLineSize();
        if (slot > MAX_SLOT) {
            throw new IllegalStateException("the peer's page size " + s.pageSize() + " would size a " + slot
                    + "-byte buffer per QP");
        }
    }

    @Override
    public void negotiatedMtu(int mtuEnum) {
        if (mtuEnum < 1 || mtuEnum > 5) {
            throw new RunFailure("peer sent an invalid MTU value " + mtuEnum);
        }
    }

    @Override
    public PingPongDest[] localDestinations() {
        return mine;
    }

    @Override
    public void remoteDestinations(PingPongDest[] r) {
        if (r.length != setup.numQps()) {
            throw new RunFailure("peer sent " + r.length + " keys, expected " + setup.numQps());
        }
        remote = r;
    }

    @Override
    public BwReport localReport(int sizeIndex) {
        return new BwReport(65536, 1000, 11.5, 10.5, 0.02);
    }

    @Override
    public void peerReport(BwReport p, int sizeIndex) {
        peer = p;
    }

    @Override
    public void perform(Step step, int sizeIndex) {
        switch (step) {
            case PRINT_LOCAL -> reporter.addresses("local", mine, setup.withGid(), setup.binaryKeys());
            case PRINT_REMOTE -> reporter.addresses("remote", remote, setup.withGid(), setup.binaryKeys());
            case HEADER -> reporter.header(false);
            case PRINT_PEER_ROW -> {
                if (peer != null) {
                    reporter.bwRow(peer);
                    rows.add(peer);
                }
            }
            case PRINT_SUM_ROW -> {
                BwReport sum = localReport(sizeIndex).plus(peer);
                reporter.bwRow(sum);
                rows.add(sum);
            }
            case FOOTER -> reporter.footer();
            default -> {
                // set-up, connect and the loops need a device: not what this fuzzes
            }
        }
    }

    /** After a completed script: the JSON report of the rows (what --out_json writes). */
    void finish() {
        BannerInfo b = BannerInfo.builder(setup.tool(), Role.SERVER).numQps(setup.numQps()).build();
        printed.write(JsonReport.bandwidth(b, Map.of("tool", setup.tool().perftestName()), BwUnit.MB_PER_SEC, rows));
    }

    /** Everything the server printed (and the JSON it wrote). */
    String printed() {
        return printed.toString();
    }
}
