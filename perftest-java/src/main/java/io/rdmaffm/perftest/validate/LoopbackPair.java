package io.rdmaffm.perftest.validate;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.ParameterRules;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.ToolOptions;
import io.rdmaffm.perftest.report.model.Row;
import io.rdmaffm.perftest.report.model.RunDocument;
import io.rdmaffm.perftest.report.model.RunReader;
import io.rdmaffm.perftest.run.ToolRun;
import io.rdmaffm.perftest.vocab.Tool;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A loopback {@code ib_write_bw} on one port: server and client of perftest-java's own engine ({@link ToolRun}) in
 * this JVM, on two threads, connected over TCP on 127.0.0.1 and with their QPs on the same port. One JVM rather
 * than two processes: no second JVM start (seconds in the CI VM), no launcher or module path to find, a failure of
 * either side comes back as an exception with its one line, and the engine is the one the tools run. The client
 * writes its run document ({@code --out_json_file}) into {@code runsDir}; its average is the measurement.
 */
public final class LoopbackPair implements Loopback {
    /** Slack on top of the runs' own time before the pair is declared hung: connect, set-up, warm-up (30 s cap). */
    private static final long SLACK_SECONDS = 120;

    private final Settings settings;
    private final Path runsDir;

    /**
     * @param settings how to run
     * @param runsDir  where the client's run documents go ({@code DEVICE-PORT-write_bw[-b].json})
     */
    public LoopbackPair(Settings settings, Path runsDir) {
        this.settings = settings;
        this.runsDir = runsDir;
    }

    @Override
    public Measured run(Expectation port, boolean bidirectional) throws Exception {
        Path json = runsDir.resolve(port.device() + "-" + port.port() + "-write_bw" + (bidirectional ? "-b" : "")
                + ".json");
        Files.deleteIfExists(json);
        int tcpPort = freeTcpPort();
        RunParameters server = ParameterRules.check(Tool.WRITE_BW, options(port, bidirectional, tcpPort));
        RunParameters client = ParameterRules.check(Tool.WRITE_BW, options(port, bidirectional, tcpPort)
                .server("127.0.0.1").with(Flag.OUT_JSON).with(Flag.OUT_JSON_FILE, json));
        StringWriter serverOut = new StringWriter();
        StringWriter clientOut = new StringWriter();
        FutureTask<Integer> serverSide = start("validate-server", server, serverOut);
        awaitListening(tcpPort, serverSide);
        FutureTask<Integer> clientSide = start("validate-client", client, clientOut);
        long limit = 2L * settings.durationSeconds() + SLACK_SECONDS;
        int clientRc;
        try {
            clientRc = outcome(clientSide, limit, "client");
        } catch (Exception e) {
            serverSide.cancel(true); // its own --accept-timeout ends it if it still waits
            throw e;
        }
        int serverRc = outcome(serverSide, SLACK_SECONDS, "server");
        if (clientRc != 0 || serverRc != 0) {
            throw new IllegalStateException("loopback ib_write_bw exited " + clientRc + "/" + serverRc + ": "
                    + lastLine(clientOut + "\n" + serverOut));
        }
        RunDocument doc = RunReader.read(json);
        for (Row r : doc.rows()) {
            if (r instanceof Row.Bandwidth bw) {
                // No message completed inside the -D window: the average is 0/0, written as null.
                if (bw.bwAverage() == null || bw.bwAverage() <= 0) {
                    throw new IllegalStateException("measured nothing: no message completed inside the "
                            + settings.durationSeconds() + " s window (-D)");
                }
                return new Measured(bw.gbps(bw.bwAverage()), doc);
            }
        }
        throw new IllegalStateException("the run document " + json + " has no bandwidth row");
    }

    private ToolOptions options(Expectation port, boolean bidirectional, int tcpPort) {
        return new ToolOptions().with(Flag.DEVICE, port.device()).with(Flag.IB_PORT, port.port())
                .with(Flag.TCP_PORT, tcpPort).with(Flag.SIZE, Integer.toString(settings.sizeBytes()))
                .with(Flag.DURATION, settings.durationSeconds()).with(Flag.QPS, settings.qpsFor(port))
                .with(Flag.BIDIRECTIONAL, bidirectional).with(Flag.WARMUP, settings.warmup())
                .with(Flag.ACCEPT_TIMEOUT, (int) SLACK_SECONDS);
    }

    private static FutureTask<Integer> start(String name, RunParameters p, StringWriter out) {
        FutureTask<Integer> task = new FutureTask<>(() -> ToolRun.execute(p, new PrintWriter(out, true)));
        Thread t = new Thread(task, name);
        t.setDaemon(true);
        t.start();
        return task;
    }

    private static int outcome(FutureTask<Integer> side, long seconds, String which) throws Exception {
        try {
            return side.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            side.cancel(true);
            throw new IllegalStateException("loopback " + which + " did not finish within " + seconds + " s");
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof Exception ex ? ex : new IllegalStateException(String.valueOf(c), c);
        }
    }

    private static String lastLine(String text) {
        List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
        return lines.isEmpty() ? "(no output)" : lines.getLast().strip();
    }

    /** A port nobody listens on now; the server binds it a moment later (a race only with another binder). */
    private static int freeTcpPort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * Waits until the server listens (from {@code /proc/net/tcp*}: a probing connection would be accepted as the
     * client), or the server has already ended.
     */
    private static void awaitListening(int port, FutureTask<Integer> server) throws Exception {
        String local = String.format(Locale.ROOT, ":%04X ", port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SLACK_SECONDS);
        while (System.nanoTime() < deadline && !server.isDone()) {
            for (String f : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
                Path p = Path.of(f);
                if (Files.isReadable(p)) {
                    for (String line : Files.readAllLines(p)) {
                        String[] cols = line.trim().split("\\s+");
                        // local_address, then rem_address, then st: 0A is LISTEN
                        if (cols.length > 3 && (cols[1] + " ").endsWith(local) && cols[3].equals("0A")) {
                            return;
                        }
                    }
                }
            }
            Thread.sleep(20);
        }
        if (server.isDone()) {
            outcome(server, 1, "server");
            throw new IllegalStateException("loopback server ended before the client connected");
        }
        throw new IllegalStateException("loopback server did not listen on port " + port + " within "
                + SLACK_SECONDS + " s");
    }
}
