package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.counters.CounterReport;
import io.rdmaffm.perftest.engine.CyclePeriod;
import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.perftest.engine.PerftestEngine;
import io.rdmaffm.perftest.engine.Warmup;
import io.rdmaffm.perftest.engine.memory.RunBuffer;
import io.rdmaffm.perftest.exchange.ControlListener;
import io.rdmaffm.perftest.exchange.ExchangeChannel;
import io.rdmaffm.perftest.exchange.ExchangeTimeouts;
import io.rdmaffm.perftest.exchange.HandshakeScript;
import io.rdmaffm.perftest.exchange.KeyMessage;
import io.rdmaffm.perftest.exchange.PerftestExchange;
import io.rdmaffm.perftest.exchange.ScriptRunner;
import io.rdmaffm.perftest.exchange.TcpExchangeChannel;
import io.rdmaffm.perftest.params.ResultLimits;
import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.jvm.WindowRecorder;
import io.rdmaffm.perftest.report.DeviceProvenance;
import io.rdmaffm.perftest.report.Environment;
import io.rdmaffm.perftest.report.JsonReport;
import io.rdmaffm.perftest.report.RunReporter;
import io.rdmaffm.verbs.topology.Sysfs;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.Duration;

/**
 * One run of a tool with validated parameters, from the first connection to the JSON file. Ready at once: the
 * server listens before anything else (before the device is opened and the JIT warmed up), so a client that
 * connects meanwhile waits in the backlog; the client connects before its warm-up, which then runs while the
 * server waits for the first message. C perftest waits forever there; a perftest-java peer allows
 * {@link Warmup#PEER_ALLOWANCE} for it.
 */
public final class ToolRun {
    private ToolRun() {
    }

    /**
     * Runs the tool {@code p} names, printing to {@code out}; returns the exit status (0, or 1 when
     * {@code --verify} found mismatches). Failures propagate as exceptions with a one-line message.
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException when there is no device to run on
     */
    public static int execute(RunParameters given, PrintWriter out) throws Exception {
        return execute(given, out, new PrintWriter(System.err, true));
    }

    /**
     * The same, with perftest's stderr lines of a failed verdict ({@code -w/-y}: exit 1) on {@code err}.
     *
     * @throws io.rdmaffm.perftest.params.InvalidParameterException when there is no device to run on
     */
    public static int execute(RunParameters given, PrintWriter out, PrintWriter err) throws Exception {
        Instant started = Instant.now();
        // A GPU that cannot be had is bad set-up: said before the run listens for or meets its peer.
        RunBuffer.preflight(given.memory());
        if (given.value(Flag.INLINE_RECV) instanceof Integer size && size != 0) {
            // perftest 4.5 parses it into inline_recv_size and reads that nowhere; said, so it is not mistaken for
            // an effect.
            err.println(given.tool().perftestName() + ": --inline_recv has no effect (perftest 4.5 reads the size and "
                    + "uses it nowhere)");
        }
        try (ControlListener listener = given.connects() ? null
                : ControlListener.listen(given.endpoint().rdmaCmExchange(), (String) given.value(Flag.SOURCE_IP),
                        given.endpoint().tcpPort(),
                        (Integer) given.value(Flag.RETRY_COUNT))) {
            RunParameters named = given.withDevice(OpenDevice.deviceName(given));
            // Recording starts before the warm-up, so JFR's own start-up work is over before any window opens.
            try (OpenDevice dev = OpenDevice.open(named); WindowRecorder windows = WindowRecorder.start()) {
                RunParameters p = dev.rateLimited(named);
                RunPlan plan = RunPlan.derive(p, dev.facts());
                RunReporter reporter = new RunReporter(p.tool(), p.role(), p.output().unit(),
                        p.output().verbosity(), p.on(Flag.CPU_UTIL), out,
                        new RunReporter.LatencyOutput(p.output().hgrmFile(), plan.sizes().size() > 1,
                                p.output().printUnsorted(), p.on(Flag.HISTOGRAM),
                                p.on(Flag.CYCLES) ? CyclePeriod.nanosPerCycle() : 0));
                if (p.value(Flag.COUNTERS) instanceof String list) {
                    // Read once before the run, as C does when it sets up: a counter the port lacks is bad set-up.
                    try {
                        reporter.reportCounters(CounterReport.open(new Sysfs(Path.of("/")), dev.name(), dev.ibPort(),
                                list));
                    } catch (IllegalArgumentException e) {
                        throw new InvalidParameterException(e.getMessage());
                    }
                }
                reporter.preamble();
                ExchangeTimeouts timeouts = timeouts(p);
                try (ExchangeChannel channel = channel(p, plan, dev, listener, timeouts, reporter);
                        PerftestEngine engine = new PerftestEngine(p, plan, dev, windows);
                        PerftestExchange exchange = new PerftestExchange(channel, timeouts, dev.withGid());
                        RunProgress progress = RunProgress.forRun(p.tool().perftestName(), plan.sizes(),
                                p.workload().durationSeconds())) {
                    exchange.binaryKeyGidIndex(dev.gidIndex());
                    if (p.on(Flag.NO_VERSIONS)) {
                        exchange.skipVersions();
                    }
                    HandshakeScript script = HandshakeScript.of(p.tool(), p.role(), p.workload().allSizes(),
                            p.workload().bidirectional(), p.endpoint().rdmaCm(), EndlessEnds.bothLoop(p));
                    ScriptRunner.run(script, exchange, plan.sizes().size(),
                            new ToolParticipant(p, plan, dev, engine, reporter, progress, err, channel),
                            p.on(Flag.REVERSED));
                    waitBeforeRelease((Integer) p.value(Flag.WAIT_DESTROY), out);
                }
                reporter.measuredWindows(windows.finish());
                if (p.output().jsonFile() != null) {
                    String clock = PerftestEngine.loopClock();
                    reporter.writeJson(p.describe(clock), p.output().jsonFile(), Environment.capture(started, clock),
                            DeviceProvenance.collect(verbsFacts(dev, plan), Path.of("/")));
                }
                String belowLimit = ResultLimits.verdict(p, reporter.bwRows());
                if (belowLimit != null) {
                    out.flush();
                    err.println(belowLimit);
                    return 1;
                }
                return reporter.mismatches() == 0 ? 0 : 1;
            }
        }
    }

    /**
     * {@code --wait_destroy}: with every resource still held (the run's end handshake done), perftest's line, then
     * the wait; the engine's resources are released after it.
     */
    static void waitBeforeRelease(int seconds, PrintWriter out) throws InterruptedException {
        if (seconds > 0) {
            out.print(" Waiting " + seconds + " seconds before releasing resources...\n");
            out.flush();
            Thread.sleep(seconds * 1000L);
        }
    }

    /** The warm-up; when it could not make the compiler quiet, one line on stderr says so (stdout is perftest's). */
    private static void warmUp(RunParameters p, RunPlan plan, OpenDevice dev, RunReporter reporter) {
        if (Warmup.wanted(p) && !p.endpoint().rdmaCmExchange()) {
            exerciseExchange();
        }
        Warmup.Outcome outcome = Warmup.run(p, plan, dev);
        if (outcome.rounds() > 0) {
            reporter.warmup(new JsonReport.WarmupFacts(outcome.rounds(), outcome.nanos() / 1e9, outcome.quiet()));
        }
        String complaint = outcome.complaint();
        if (complaint != null) {
            System.err.println(p.tool().perftestName() + ": " + complaint);
        }
    }

    /** Messages of {@link #exerciseExchange}: past C1's threshold (200 invocations), far below C2's (5,000). */
    static final int EXCHANGE_WARMUP_MESSAGES = 300;

    /**
     * The exchange's socket path compiled before the warm-up's quiet rounds rather than on the barrier before a
     * measured loop (see {@link TcpExchangeChannel#exerciseLoopback}); a loopback that cannot be had costs only that.
     */
    private static void exerciseExchange() {
        try {
            TcpExchangeChannel.exerciseLoopback(EXCHANGE_WARMUP_MESSAGES, KeyMessage.SIZE_GID);
        } catch (java.io.IOException e) {
            // no loopback interface: the run goes on, its window may then show the compilations
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static DeviceProvenance.Verbs verbsFacts(OpenDevice dev, RunPlan plan) {
        // The port was ACTIVE when opened (OpenDevice refuses any other state).
        return new DeviceProvenance.Verbs(dev.name(), dev.ibPort(), dev.roce() ? "Ethernet" : "InfiniBand", "ACTIVE",
                RunPlan.mtuBytes(dev.facts().activeMtu()), dev.gidIndex(), dev.gid());
    }

    /** Limits of every wait on the peer; its first message may come after its warm-up. */
    private static ExchangeTimeouts timeouts(RunParameters p) {
        RunParameters.Limits l = p.limits();
        Duration io = Duration.ofSeconds(l.timeoutSeconds());
        // --run_infinitely: the passive side waits as long as the sender runs (a dead sender closes the socket).
        Duration peerRun = p.on(Flag.RUN_INFINITELY) ? Duration.ofDays(3650)
                : Duration.ofSeconds(l.peerTimeoutSeconds() + p.workload().durationSeconds());
        return new ExchangeTimeouts(io, Duration.ofSeconds(l.acceptTimeoutSeconds()), io, peerRun)
                .withFirstMessageAllowance(Warmup.PEER_ALLOWANCE);
    }

    /**
     * The control connection, with the warm-up in the right place: the client connects, then warms up; the
     * server (listening already) warms up, then accepts and stops listening, which frees the port for
     * {@code -R}'s test QPs.
     */
    private static ExchangeChannel channel(RunParameters p, RunPlan plan, OpenDevice dev, ControlListener listener,
            ExchangeTimeouts timeouts, RunReporter reporter) throws Exception {
        if (p.connects()) {
            ExchangeChannel ch = ControlListener.connect(p.endpoint().rdmaCmExchange(),
                    (String) p.value(Flag.SOURCE_IP), p.endpoint().server(),
                    p.endpoint().tcpPort(), timeouts.connect(), Warmup.PEER_ALLOWANCE,
                    (Integer) p.value(Flag.RETRY_COUNT));
            try {
                warmUp(p, plan, dev, reporter);
            } catch (RuntimeException | Error e) {
                ch.close();
                throw e;
            }
            return ch;
        }
        warmUp(p, plan, dev, reporter);
        ExchangeChannel ch = listener.accept(timeouts.accept());
        listener.close();
        return ch;
    }
}
