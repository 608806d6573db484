package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.engine.RunFailure;
import io.rdmaffm.perftest.exchange.ExchangeException;
import io.rdmaffm.perftest.exchange.Untrusted;
import picocli.CommandLine;

/**
 * Turns an exception escaping a command into one clear line on stderr and the exit status the README
 * documents: 1 for a run that failed (its peer died, stalled or sent nonsense, the link or device failed, a
 * completion failed), 2 for bad input or a set-up failure (no device, a port taken, no peer to connect to).
 * The line is made printable ({@link Untrusted#line}): messages may quote what a peer or a file said. The stack
 * trace only with {@code --debug} (or RDMAFFM_DEBUG=1).
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
    /** A failed run or verification. */
    static final int FAILED_RUN = 1;
    /** Bad input or a set-up failure. */
    static final int EXIT_FAILURE = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
        boolean debug = "1".equals(System.getenv("RDMAFFM_DEBUG"));
        for (CommandLine.ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
            if (pr.hasMatchedOption("--debug")) {
                debug = true;
            }
        }
        cl.getErr().println(line(cl.getCommandName(), ex));
        if (debug) {
            ex.printStackTrace(cl.getErr());
        }
        cl.getErr().flush();
        return exitCode(ex);
    }

    /** The one line printed for {@code ex}: "COMMAND: error: MESSAGE", printable. */
    static String line(String command, Throwable ex) {
        String msg = ex.getMessage() == null || ex.getMessage().isBlank() ? ex.getClass().getSimpleName()
                : ex.getMessage();
        return command + ": error: " + Untrusted.line(msg);
    }

    /**
     * The exit status for {@code ex}: {@link #FAILED_RUN} once a peer took part (a {@link RunFailure}, an
     * {@link ExchangeException} after the control connection came up), {@link #EXIT_FAILURE} for everything
     * else: bad input, and set-up that failed before there was a run (device, resources, listen, connect).
     */
    static int exitCode(Throwable ex) {
        if (ex instanceof RunFailure) {
            return FAILED_RUN;
        }
        if (ex instanceof ExchangeException e) {
            return e.beforeConnection() ? EXIT_FAILURE : FAILED_RUN;
        }
        return EXIT_FAILURE;
    }
}
