package io.rdmaffm.perftest.cluster;

import java.io.PrintStream;

/** Progress lines while a matrix runs (rounds done, pairs flagged so far); stderr only, and only on a terminal. */
@FunctionalInterface
public interface Progress {

    /** One line. */
    void line(String line);

    /** Nothing. */
    static Progress none() {
        return line -> {
        };
    }

    /**
     * Lines on {@code err} when {@code terminal} ({@code System.console() != null} at the CLI), else nothing:
     * a log file or a pipe gets the report only.
     */
    static Progress toStderr(PrintStream err, boolean terminal) {
        return terminal ? err::println : none();
    }
}
