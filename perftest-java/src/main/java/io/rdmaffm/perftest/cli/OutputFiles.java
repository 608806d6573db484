package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.MatrixInputException;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The files a cluster command writes its results to, {@code --json} and {@code --csv}: declared once for
 * {@code matrix} and {@code fabric} (picocli's {@code @Mixin}), each of which words them in its own
 * {@link OptionWording}, since each writes its own results.
 */
final class OutputFiles {
    @Option(names = "--json", paramLabel = "FILE")
    Path json;

    @Option(names = "--csv", paramLabel = "FILE")
    Path csv;

    /** Creates the options; picocli fills them in. */
    OutputFiles() {
    }

    /**
     * Refuses, before anything runs, a file that could not be written at the end.
     *
     * @throws MatrixInputException naming the option and the file
     */
    void check() {
        ClusterArguments.writable(json, "--json");
        ClusterArguments.writable(csv, "--csv");
    }
}
