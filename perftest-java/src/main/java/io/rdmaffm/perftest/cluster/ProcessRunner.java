package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Starts local processes (ssh, srun, scontrol). The matrix never talks to a remote host any other way; tests
 * replace this with a fake that records the command lines and plays scripted output, exit codes and stalls.
 */
public interface ProcessRunner {

    /**
     * Starts {@code command} (no shell) with standard input closed.
     *
     * @throws IOException when the program cannot be started (e.g. not installed)
     */
    Running start(List<String> command) throws IOException;

    /**
     * Starts {@code command} (no shell) with a pipe to its standard input, for a session that takes orders line
     * by line ({@link WorkerSession}).
     *
     * @throws IOException when the program cannot be started, or this runner cannot hold sessions
     */
    default Conversation converse(List<String> command) throws IOException {
        throw new IOException("this runner cannot hold a session with " + command.getFirst());
    }

    /**
     * Runs {@code command} to its end, at most {@code timeout}; a process still running then is destroyed.
     *
     * @throws IOException when it cannot be started
     */
    default Finished run(List<String> command, Duration timeout) throws IOException, InterruptedException {
        Running p = start(command);
        boolean ended = p.waitFor(timeout);
        if (!ended) {
            p.destroy();
            p.waitFor(Duration.ofSeconds(2));
        }
        return new Finished(ended ? p.exitCode() : -1, p.stdout(), p.stderr(), !ended);
    }

    /**
     * A finished run.
     *
     * @param exitCode the exit status, -1 when it timed out
     * @param stdout   what it printed
     * @param stderr   what it printed on stderr
     * @param timedOut whether it was destroyed at the timeout
     */
    record Finished(int exitCode, String stdout, String stderr, boolean timedOut) {
    }

    /** One started process. Every wait is bounded; output is collected as it arrives. */
    interface Running {
        /**
         * Waits until a line of standard output satisfies {@code match}, the process ends, or the timeout passes.
         *
         * @return the line, or null when the process ended or the time ran out first
         */
        String awaitLine(Predicate<String> match, Duration timeout) throws InterruptedException;

        /** @return true when the process ended within the timeout (its output fully read) */
        boolean waitFor(Duration timeout) throws InterruptedException;

        /** @return the exit status; only after {@link #waitFor} returned true */
        int exitCode();

        /** @return standard output so far (capped; the cap is noted at its end) */
        String stdout();

        /** @return standard error so far (capped) */
        String stderr();

        /** @return whether the process is still running */
        boolean alive();

        /** Ends the local process (SIGTERM, then SIGKILL a moment later when it lingers). */
        void destroy();
    }

    /**
     * A started process we talk to: lines to its standard input, its standard output line by line as it comes
     * (never accumulated: a session lives as long as the run), its standard error kept (the tail, capped).
     */
    interface Conversation {
        /** Writes one line to its standard input and flushes it. */
        void send(String line) throws IOException;

        /** Closes its standard input (a worker reads that as "no more orders"). */
        void closeInput();

        /** @return the next line of its standard output, or null at its end; blocks */
        String readLine() throws IOException;

        /** @return true when the process ended within the timeout */
        boolean waitFor(Duration timeout) throws InterruptedException;

        /** @return the exit status; only after {@link #waitFor} returned true */
        int exitCode();

        /** @return the last part of its standard error (capped) */
        String stderr();

        /** @return whether the process is still running */
        boolean alive();

        /** Ends the local process (SIGTERM, then SIGKILL a moment later when it lingers). */
        void destroy();
    }
}
