package io.rdmaffm.perftest.interop;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.interop.CrossHostInteropRdmaTest.Pairing;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** Both sides of a run across the two guests of {@link CrossHostNetworkFaultsRdmaTest}, server first. */
record FaultPair(FaultSide client, FaultSide server, long started) {
    private static final Pattern MISMATCHES = Pattern.compile(" verify: (\\d+) mismatching bytes");

    /** The two guests a run spans: the network between them, each one's GID table, the JVM options of a side. */
    record Hosts(GuestNetwork net, RemoteHost.GidTable here, RemoteHost.GidTable there, String javaOpts) {
        /** Starts the server (on the peer unless a C client runs there), waits until it listens, starts the client. */
        FaultPair start(Path dir, String tool, Pairing pairing, List<String> workload, int limitSeconds)
                throws Exception {
            int port = PerftestPeers.freshPort();
            List<String> common = PerftestPeers.args("-d", net.device, "-p", String.valueOf(port));
            common.addAll(workload);
            List<String> java = new ArrayList<>(common);
            java.addAll(List.of("--warmup", "0"));
            if (pairing == Pairing.JAVA_CLIENT_JAVA_SERVER) {
                java.add("--verify");
            }
            // C perftest takes the -x of its own host's IPv4 GID; perftest-java chooses it by itself.
            List<String> c = RemoteHost.concat(List.of("stdbuf", "-oL", "/usr/bin/" + tool),
                    common.toArray(String[]::new));
            c.addAll(List.of("-x", String.valueOf(there.ipv4Index())));
            String hereIp = here.address(here.ipv4Index()).getHostAddress();
            String thereIp = there.address(there.ipv4Index()).getHostAddress();
            boolean serverThere = pairing != Pairing.C_CLIENT_JAVA_SERVER;
            FaultSide server = FaultSide.start(serverThere ? net.peer : null, "server", dir, limitSeconds, port,
                    javaOpts, pairing == Pairing.JAVA_CLIENT_C_SERVER ? c : FaultSide.launcher(tool, java));
            server.awaitListening(240);
            long started = System.nanoTime();
            FaultSide client = FaultSide.start(serverThere ? null : net.peer, "client", dir, limitSeconds, 0, javaOpts,
                    pairing == Pairing.C_CLIENT_JAVA_SERVER ? RemoteHost.concat(c, hereIp)
                            : FaultSide.launcher(tool, RemoteHost.concat(java, thereIp)));
            return new FaultPair(client, server, started);
        }
    }

    void stop() throws Exception {
        client.stop();
        server.stop();
    }

    /** "client (here) exit 1 after 5.3 s: TOOL: error: ...; server (...) ...", seconds from {@code t0}. */
    String outcome(long t0) throws IOException {
        return side(client, t0) + "; " + side(server, t0);
    }

    private static String side(FaultSide s, long t0) throws IOException {
        String line = PerftestPeers.errorLine(s.output());
        return s.name + " exit " + s.exitCode() + (s.ended() ? " after " + secs(s.secondsAfter(t0)) + " s" : "")
                + (line.isEmpty() ? "" : ": " + line);
    }

    String both() throws IOException {
        return "\n--- client (" + client.where() + ") ---\n" + client.output() + "\n--- server (" + server.where()
                + ") ---\n" + server.output();
    }

    /** No stack trace (no --debug given), no hs_err file of a JVM crash in the case folder. */
    void assertNoCrash() throws IOException {
        String out = both();
        assertFalse(out.contains("\tat ") || out.contains("Exception in thread"), "a stack trace" + out);
        try (Stream<Path> files = Files.list(client.dir())) {
            List<Path> crashes = files.filter(p -> p.getFileName().toString().startsWith("hs_err")).toList();
            assertTrue(crashes.isEmpty(), "JVM crash files " + crashes + out);
        }
    }

    /**
     * The corrupt bytes a --verify side reported (the largest running total), 0 when all was as expected, -1 when
     * no side checked.
     */
    static long corruptBytes(String outputs) {
        long found = outputs.contains(" verify: all data as expected") ? 0 : -1;
        Matcher m = MISMATCHES.matcher(outputs);
        while (m.find()) {
            found = Math.max(found, Long.parseLong(m.group(1)));
        }
        return found;
    }

    static String secs(double s) {
        return String.format(Locale.ROOT, "%.1f", s);
    }
}
