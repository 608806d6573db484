package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.MatrixInputException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The argument checks {@code matrix} and {@code fabric} share: their timeouts and their output files. */
final class ClusterArguments {
    private ClusterArguments() {
    }

    /** A timeout option in seconds, or {@code dflt} when not given. */
    static Duration seconds(Double value, Duration dflt, String option) {
        if (value == null) {
            return dflt;
        }
        if (!(value > 0) || value.isInfinite()) {
            throw new MatrixInputException(option + " must be a positive number of seconds, got " + value);
        }
        return Duration.ofMillis(Math.max(1, Math.round(value * 1000)));
    }

    /** An output file must be creatable before anything runs: a run's results are not lost at its end. */
    static void writable(Path file, String option) {
        if (file == null) {
            return;
        }
        Path dir = file.toAbsolutePath().getParent();
        if (Files.isDirectory(file) || dir == null || !Files.isDirectory(dir) || !Files.isWritable(dir)) {
            throw new MatrixInputException(option + " " + file + ": " + (Files.isDirectory(file) ? "is a directory"
                    : "its directory does not exist or is not writable"));
        }
    }
}
