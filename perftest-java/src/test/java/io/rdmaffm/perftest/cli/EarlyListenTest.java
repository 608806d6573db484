package io.rdmaffm.perftest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.exchange.ExchangeListener;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The argv scan that lets a server listen before picocli runs must read argv exactly as picocli will. */
class EarlyListenTest {
    private static final List<String> TOOLS = List.of("ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat",
            "ib_send_bw", "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat");

    @Test
    void theScanKnowsEveryOptionOfEveryToolWithItsArity() {
        CommandLine launcher = Main.commandLine();
        Set<String> flags = new TreeSet<>();
        Set<String> withValue = new TreeSet<>();
        for (String tool : TOOLS) {
            for (OptionSpec o : launcher.getSubcommands().get(tool).getCommandSpec().options()) {
                CommandLine.Range arity = o.arity();
                assertTrue(arity.min() == arity.max() && arity.max() <= 1,
                        tool + " " + o.longestName() + " has arity " + arity + ": the scan cannot tell its value");
                (arity.max() == 0 ? flags : withValue).addAll(List.of(o.names()));
            }
        }
        assertEquals(flags, new TreeSet<>(EarlyListen.FLAGS), "options without a value");
        assertEquals(withValue, new TreeSet<>(EarlyListen.WITH_VALUE), "options with a value");
        Set<String> both = new HashSet<>(flags);
        both.retainAll(withValue);
        assertTrue(both.isEmpty(), "an option is a flag in one tool and takes a value in another: " + both);
    }

    @Test
    void aServerOverTcpListensOnItsPort() {
        assertEquals(EarlyListen.DEFAULT_PORT, EarlyListen.serverPort(new String[] {"ib_write_bw"}));
        assertEquals(19000, EarlyListen.serverPort(new String[] {"ib_write_bw", "-d", "rxe0", "-p", "19000", "-a"}));
        assertEquals(19001, EarlyListen.serverPort(new String[] {"ib_send_lat", "--port=19001", "-s", "2"}));
        assertEquals(19002, EarlyListen.serverPort(new String[] {"ib_read_bw", "-p19002", "-bN", "-x", "1"}));
        assertEquals(19003, EarlyListen.serverPort(new String[] {"ib_send_bw", "-bp", "19003"}));
        assertEquals(19004, EarlyListen.serverPort(new String[] {"ib_write_lat", "--out_json_file", "x.json",
                "--port", "19004", "--out_json"}));
    }

    @Test
    void anythingElseIsLeftToTheRegularListen() {
        for (String[] args : List.of(new String[] {"ib_write_bw", "-p", "19000", "10.0.0.1"},
                new String[] {"ib_write_bw", "-d", "rxe0", "host"}, new String[] {"ib_write_bw", "-R"},
                new String[] {"ib_send_lat", "-bR"}, new String[] {"ib_send_bw", "--rdma_cm", "-p", "19000"},
                new String[] {"ib_read_lat", "-z"}, new String[] {"ib_write_bw", "--help"},
                new String[] {"ib_write_bw", "-p"}, new String[] {"ib_write_bw", "-p", "x"},
                new String[] {"ib_write_bw", "-p", "70000"}, new String[] {"ib_write_bw", "--no-such-option"},
                new String[] {"ib_write_bw", "--all=yes"}, new String[] {"ib_write_bw", "--ipv6"},
                new String[] {"doctor"}, new String[] {"devices", "-p", "1"}, new String[] {})) {
            assertEquals(-1, EarlyListen.serverPort(args), String.join(" ", args));
        }
    }

    @Test
    void theRunTakesTheSocketBoundBeforeParsing() throws Exception {
        int port;
        try (ServerSocket probe = new ServerSocket(0)) {
            port = probe.getLocalPort();
        }
        EarlyListen.claim(new String[] {"ib_write_bw", "-p", String.valueOf(port)});
        // Listening already: a client's connect completes in the backlog before anything else has run.
        try (Socket early = new Socket(InetAddress.getLoopbackAddress(), port);
                ExchangeListener l = ExchangeListener.listen(null, port, false);
                var accepted = l.accept(java.time.Duration.ofSeconds(5))) {
            // The connection made before the run listened is the one the run accepts.
            assertTrue(early.isConnected());
            assertEquals(port, l.port());
        }
    }
}
