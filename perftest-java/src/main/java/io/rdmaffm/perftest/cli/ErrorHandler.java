package io.rdmaffm.perftest.cli;

import picocli.CommandLine;

/**
 * Turns an exception escaping a command into one clear line on stderr and exit code 2; the stack trace
 * only with {@code --debug} (or RDMAFFM_DEBUG=1).
 */
final class ErrorHandler implements CommandLine.IExecutionExceptionHandler {
    static final int EXIT_FAILURE = 2;

    @Override
    public int handleExecutionException(Exception ex, CommandLine cl, CommandLine.ParseResult parseResult) {
        boolean debug = "1".equals(System.getenv("RDMAFFM_DEBUG"));
        for (CommandLine.ParseResult pr = parseResult; pr != null; pr = pr.subcommand()) {
            if (pr.hasMatchedOption("--debug")) {
                debug = true;
            }
        }
        String msg = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        cl.getErr().println(cl.getCommandName() + ": error: " + msg);
        if (debug) {
            ex.printStackTrace(cl.getErr());
        }
        return EXIT_FAILURE;
    }
}
