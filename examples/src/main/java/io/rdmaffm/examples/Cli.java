package io.rdmaffm.examples;

import io.rdmaffm.verbs.VerbsException;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The examples' command lines: positional arguments and {@code --name value} options, parsed strictly (an unknown
 * option or a bad value is one line on stderr and exit status 2), and the run wrapped so that a failure is one line
 * and exit status 1.
 */
public final class Cli {
    /** Exit status of a failed run (a connection failure, a checksum mismatch). */
    public static final int FAILED = 1;
    /** Exit status of bad input. */
    public static final int BAD_INPUT = 2;

    /** A command's body; its exceptions become the exit status. */
    @FunctionalInterface
    public interface Body {
        int run(Cli cli) throws Exception;
    }

    /** Bad input: printed as one line, exit status 2. */
    public static final class BadInput extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public BadInput(String message) {
            super(message);
        }
    }

    private final String program;
    private final List<String> positional = new ArrayList<>();
    private final Map<String, String> options = new HashMap<>();

    private Cli(String program, String[] args, Set<String> known) {
        this.program = program;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                String name = a.substring(2);
                if (!known.contains(name)) {
                    throw new BadInput("unknown option " + a + " (known: " + String.join(", ", known.stream()
                            .sorted().map(k -> "--" + k).toList()) + ")");
                }
                if (i + 1 >= args.length) {
                    throw new BadInput("option " + a + " needs a value");
                }
                options.put(name, args[++i]);
            } else {
                positional.add(a);
            }
        }
    }

    /** Parses {@code args} and runs {@code body}; returns the exit status (0, 1 failed, 2 bad input). */
    public static int run(String program, String[] args, Set<String> knownOptions, Body body) {
        try {
            return body.run(new Cli(program, args, knownOptions));
        } catch (BadInput e) {
            System.err.println(program + ": " + e.getMessage());
            return BAD_INPUT;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            System.err.println(program + ": " + e.getMessage());
            return BAD_INPUT;
        } catch (VerbsException | IllegalStateException | java.io.IOException e) {
            System.err.println(program + ": " + e.getMessage());
            return FAILED;
        } catch (Exception e) {
            System.err.println(program + ": " + e);
            return FAILED;
        }
    }

    public String program() {
        return program;
    }

    /** Positional argument {@code i}, named {@code what} in the error when it is missing. */
    public String arg(int i, String what) {
        if (i >= positional.size()) {
            throw new BadInput("missing " + what);
        }
        return positional.get(i);
    }

    /** Fails on positional arguments beyond the first {@code n}. */
    public void noMoreThan(int n) {
        if (positional.size() > n) {
            throw new BadInput("unexpected argument " + positional.get(n));
        }
    }

    public String option(String name, String otherwise) {
        return options.getOrDefault(name, otherwise);
    }

    public int intOption(String name, int otherwise, int min, int max) {
        String v = options.get(name);
        if (v == null) {
            return otherwise;
        }
        try {
            int n = Integer.parseInt(v);
            if (n < min || n > max) {
                throw new BadInput("--" + name + " must be in " + min + ".." + max + ", not " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new BadInput("--" + name + " must be a number, not '" + v + "'");
        }
    }

    /** {@code --name} in seconds (default {@code otherwise}), positive. */
    public Duration seconds(String name, int otherwise) {
        return Duration.ofSeconds(intOption(name, otherwise, 1, 86_400));
    }

    /** {@code host:port}, {@code [ipv6]:port} or {@code [fe80::1%eth0]:port}, resolved. */
    public static InetSocketAddress address(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new BadInput("expected HOST:PORT (or [IPv6]:PORT), not '" + text + "'");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new BadInput("bad port in '" + text + "'");
        }
        if (port < 0 || port > 65535) {
            throw new BadInput("port " + port + " is outside 0..65535");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(host), port);
        } catch (UnknownHostException e) {
            throw new BadInput("unknown host '" + host + "'");
        }
    }
}
