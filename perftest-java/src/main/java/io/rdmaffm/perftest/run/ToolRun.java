package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.perftest.engine.PerftestEngine;
import io.rdmaffm.perftest.engine.Warmup;
import io.rdmaffm.perftest.exchange.ExchangeChannel;
import io.rdmaffm.perftest.exchange.ExchangeListener;
import io.rdmaffm.perftest.exchange.ExchangeTimeouts;
import io.rdmaffm.perftest.exchange.HandshakeScript;
import io.rdmaffm.perftest.exchange.PerftestExchange;
import io.rdmaffm.perftest.exchange.RdmaCmControlChannel;
import io.rdmaffm.perftest.exchange.ScriptRunner;
import io.rdmaffm.perftest.exchange.TcpExchangeChannel;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.report.RunReporter;

import java.io.PrintWriter;
import java.time.Duration;

/** One run of a tool with validated parameters, from the first connection to the JSON file. */
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
        RunParameters p = given.withDevice(OpenDevice.deviceName(given));
        RunParameters.Limits l = p.limits();
        Duration peerRun = Duration.ofSeconds(l.peerTimeoutSeconds() + p.workload().durationSeconds());
        ExchangeTimeouts timeouts = new ExchangeTimeouts(Duration.ofSeconds(l.timeoutSeconds()),
                Duration.ofSeconds(l.acceptTimeoutSeconds()), Duration.ofSeconds(l.timeoutSeconds()), peerRun);
        try (OpenDevice dev = OpenDevice.open(p)) {
            RunPlan plan = RunPlan.derive(p, dev.facts());
            RunReporter reporter = new RunReporter(p.tool(), p.role(), p.output().unit(), out, p.output().hgrmFile(),
                    plan.sizes().size() > 1, p.output().printUnsorted());
            ExchangeChannel channel = connect(p, plan, dev, reporter, timeouts);
            try (PerftestEngine engine = new PerftestEngine(p, plan, dev);
                    PerftestExchange exchange = new PerftestExchange(channel, timeouts, dev.withGid())) {
                exchange.binaryKeyGidIndex(dev.gidIndex());
                HandshakeScript script = HandshakeScript.of(p.tool(), p.role(), p.workload().allSizes(),
                        p.workload().bidirectional(), p.endpoint().rdmaCm());
                ScriptRunner.run(script, exchange, plan.sizes().size(),
                        new ToolParticipant(p, plan, dev, engine, reporter));
            }
            if (p.output().jsonFile() != null) {
                reporter.writeJson(p.describe(), p.output().jsonFile());
            }
            return reporter.mismatches() == 0 ? 0 : 1;
        }
    }

    private static ExchangeChannel connect(RunParameters p, RunPlan plan, OpenDevice dev, RunReporter reporter,
            ExchangeTimeouts timeouts) throws Exception {
        int port = p.endpoint().tcpPort();
        if (p.isClient()) {
            Warmup.run(p, plan, dev);
            reporter.preamble();
            return p.endpoint().rdmaCmExchange()
                    ? RdmaCmControlChannel.connect(p.endpoint().server(), port, timeouts.connect())
                    : TcpExchangeChannel.connect(p.endpoint().server(), port, timeouts.connect(), false);
        }
        if (p.endpoint().rdmaCmExchange()) {
            try (RdmaCmControlChannel.Listener listener = RdmaCmControlChannel.listen(port)) {
                Warmup.run(p, plan, dev);
                reporter.preamble();
                return listener.accept(timeouts.accept());
            }
        }
        // Listen before the warm-up: a client that connects meanwhile waits in the backlog.
        try (ExchangeListener listener = ExchangeListener.listen(null, port, false)) {
            Warmup.run(p, plan, dev);
            reporter.preamble();
            return listener.accept(timeouts.accept());
        }
    }
}
