package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.exchange.ExchangeListener;
import io.rdmaffm.perftest.params.Flag;

import java.io.IOException;
import java.net.InetAddress;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A tool's server listens before picocli has modelled its command line, so a peer started a second later finds
 * it, as it finds C perftest: under an emulated CPU, picocli's model alone costs seconds before {@code main}
 * could reach {@code listen}. This scans argv with the {@link Flag} table (which options take a value; a test
 * holds it equal to the picocli model) and binds the TCP port only when it is sure: a server (no host argument) that
 * exchanges over TCP. Anything it does not recognize leaves the listen where it always was, after parsing.
 *
 * <p>The bound socket waits in {@link ExchangeListener} until the run listens on the same port; a command line
 * that turns out to be bad exits, and the socket closes with the process.
 */
public final class EarlyListen {
    /** perftest's default port. */
    static final int DEFAULT_PORT = 18515;

    /** Options without a value, every tool's: the boolean {@link Flag}s and picocli's help and version. */
    static final Set<String> FLAGS = names(true);

    /** Options that take one value, every tool's. */
    static final Set<String> WITH_VALUE = names(false);

    /** Flags after which the TCP listen is not the first thing the run does (rdma_cm, IPv6) or never comes. */
    private static final Set<String> NO_TCP_LISTEN = Set.of("-R", "--rdma_cm", "-z", "--comm_rdma_cm", "--ipv6",
            "-h", "--help", "-V", "--version");

    private EarlyListen() {
    }

    /**
     * The launchers' entry point: binds a server's port, then runs {@link Main}. Not {@code Main.main} itself:
     * linking {@code Main} loads picocli (its types are in {@code Main}'s signatures and handlers), which opens
     * picocli's jar, whose first use spins a JDK lambda; here the listen comes before all of that.
     */
    public static void main(String[] args) {
        claim(args);
        Main.execute(args);
    }

    /** The names of every tool's boolean options ({@code flags}) or of those with a value; plain data, no parser. */
    private static Set<String> names(boolean flags) {
        Set<String> names = new HashSet<>();
        for (Flag f : Flag.values()) {
            if ((f.kind() == Flag.Kind.BOOLEAN) == flags) {
                names.addAll(f.names());
            }
        }
        if (flags) {
            names.addAll(List.of("-h", "--help", "-V", "--version"));
        }
        return Set.copyOf(names);
    }

    /**
     * The port a tool's command line will listen on over TCP, or -1 when it is a client, exchanges over
     * rdma_cm, asks for help, or holds anything this scan does not understand.
     */
    static int serverPort(String[] args) {
        if (args.length == 0 || !args[0].startsWith("ib_")) {
            return -1;
        }
        int port = DEFAULT_PORT;
        for (int i = 1; i < args.length; i++) {
            String a = args[i];
            String name;
            String value = null;
            if (a.startsWith("--") && a.length() > 2) {
                int eq = a.indexOf('=');
                name = eq < 0 ? a : a.substring(0, eq);
                value = eq < 0 ? null : a.substring(eq + 1);
            } else if (a.startsWith("-") && a.length() > 1) {
                // A POSIX cluster such as -bN or -p18515: flags, then at most one option whose value follows.
                int j = 1;
                while (j < a.length() - 1 && FLAGS.contains(shortOption(a, j))) {
                    if (NO_TCP_LISTEN.contains(shortOption(a, j))) {
                        return -1;
                    }
                    j++;
                }
                name = shortOption(a, j);
                value = j + 1 < a.length() ? a.substring(j + 1) : null;
            } else {
                return -1; // the positional argument: the server's address, so this is a client
            }
            if (NO_TCP_LISTEN.contains(name)) {
                return -1;
            }
            if (FLAGS.contains(name)) {
                if (value != null) {
                    return -1;
                }
                continue;
            }
            if (!WITH_VALUE.contains(name)) {
                return -1;
            }
            if (value == null) {
                if (++i >= args.length) {
                    return -1;
                }
                value = args[i];
            }
            if (name.equals("-p") || name.equals("--port")) {
                try {
                    port = Integer.parseInt(value);
                } catch (NumberFormatException e) {
                    return -1;
                }
                if (port < 1 || port > 65535) {
                    return -1;
                }
            }
        }
        return port;
    }

    /**
     * "-" and the option letter at {@code j} of a POSIX cluster. Not {@code "-" + c}: string concatenation is an
     * invokedynamic whose first use spins a hidden class with the class-file API (34 more classes loaded before
     * the listen without the AOT cache, 160 with a cache loaded on demand; docs/startup.md). It now first happens
     * after the listen.
     */
    private static String shortOption(String a, int j) {
        return "-".concat(String.valueOf(a.charAt(j)));
    }

    /**
     * Binds the server's port now when {@link #serverPort} is sure of it; a port that cannot be bound is left
     * for the regular listen to report.
     */
    static void claim(String[] args) {
        int port = serverPort(args);
        if (port < 0) {
            return;
        }
        try {
            ExchangeListener.offer(ExchangeListener.bindListening(InetAddress.getByAddress(new byte[4]), port));
        } catch (IOException e) {
            // the regular listen reports it
        }
    }
}
