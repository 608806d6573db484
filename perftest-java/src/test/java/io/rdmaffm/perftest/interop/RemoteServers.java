package io.rdmaffm.perftest.interop;

import io.rdmaffm.perftest.cli.Main;
import picocli.CommandLine;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Java servers of the cross-host tests, all in one JVM on the peer host, started once over ssh: a JVM start
 * under the emulated CPU costs tens of seconds, one per server would cost minutes. Each server runs at once, in
 * its own thread, exactly as the in-process Java peers of PerftestPeers do (perftest-java's CLI, Main).
 *
 * <p>usage: {@code RemoteServers PORT tcp|rdma_cm TOOL ARG... [-- PORT ...]}, where TOOL is a perftest-java tool
 * (its server side: no host argument) or {@code cm-echo ADDRESS COUNT SIZE} (CmEcho's server). For each server
 * it prints {@code remote-server: listening on PORT} once it listens, then, when it ends, its whole output between
 * {@code === begin PORT ===} and {@code === end PORT exit STATUS ===}. Exits when every server has ended.
 */
public final class RemoteServers {
    private static final PrintStream OUT = System.out;
    private static final Duration ECHO_ACCEPT_WITHIN = Duration.ofSeconds(900);

    private RemoteServers() {
    }

    public static void main(String[] args) throws Exception {
        List<Thread> threads = new ArrayList<>();
        int from = 0;
        for (int i = 0; i <= args.length; i++) {
            if (i == args.length || args[i].equals("--")) {
                String[] spec = Arrays.copyOfRange(args, from, i);
                if (spec.length < 3) {
                    System.err.println("usage: RemoteServers PORT tcp|rdma_cm TOOL ARG... [-- PORT ...]");
                    System.exit(2);
                }
                threads.add(Thread.ofPlatform().name("server-" + spec[0]).start(() -> serve(spec)));
                from = i + 1;
            }
        }
        for (Thread t : threads) {
            t.join();
        }
    }

    private static void serve(String[] spec) {
        int port = Integer.parseInt(spec[0]);
        boolean rdmaCm = spec[1].equals("rdma_cm");
        String[] command = Arrays.copyOfRange(spec, 2, spec.length);
        Thread listening = Thread.ofPlatform().daemon().start(() -> {
            try {
                if (rdmaCm) {
                    PerftestPeers.awaitRdmaCmListening(port, 300);
                } else {
                    PerftestPeers.awaitListening(port, 300);
                }
                say("remote-server: listening on " + port);
            } catch (Exception | AssertionError e) {
                say("remote-server: " + e.getMessage());
            }
        });
        StringWriter sw = new StringWriter();
        int rc;
        try {
            if (command[0].equals("cm-echo")) {
                // As long as the perftest servers' --accept-timeout: the echo's client comes after every case
                // of its class (about 160 s in CI), and a 120 s wait had closed the listener by then (the
                // client saw REJECTED, reason 8: nothing listens).
                sw.write(CmEcho.serve(new InetSocketAddress(InetAddress.getByName(command[1]), port),
                        Integer.parseInt(command[2]), Integer.parseInt(command[3]), ECHO_ACCEPT_WITHIN) + "\n");
                rc = 0;
            } else {
                PrintWriter pw = new PrintWriter(sw, true);
                CommandLine cl = Main.commandLine();
                cl.setOut(pw);
                cl.setErr(pw);
                rc = cl.execute(command);
                pw.flush();
            }
        } catch (Exception | AssertionError e) {
            sw.write(e + "\n");
            rc = 1;
        }
        listening.interrupt();
        say("=== begin " + port + " ===\n" + sw + "=== end " + port + " exit " + rc + " ===");
    }

    private static synchronized void say(String text) {
        OUT.println(text);
        OUT.flush();
    }
}
