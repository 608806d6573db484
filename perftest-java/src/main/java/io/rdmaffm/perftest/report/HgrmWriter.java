package io.rdmaffm.perftest.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.HdrHistogram.AbstractHistogram;

/**
 * Writes a latency histogram as an {@code .hgrm} percentile distribution (the format HdrHistogram's plotter
 * reads). The engine records nanoseconds; the file shows microseconds, like perftest's tables.
 */
public final class HgrmWriter {
    /** Recorded values are ns; dividing by this prints µs. */
    public static final double NANOS_PER_MICRO = 1000.0;

    private HgrmWriter() {
    }

    /** Writes the distribution of {@code histogram} (values in ns) to {@code out}, in µs. */
    public static void write(AbstractHistogram histogram, PrintStream out) {
        histogram.outputPercentileDistribution(out, NANOS_PER_MICRO);
        out.flush();
    }

    /** Writes the distribution to a file, replacing it. */
    public static void write(AbstractHistogram histogram, Path file) throws IOException {
        try (OutputStream os = Files.newOutputStream(file);
                PrintStream ps = new PrintStream(os, false, StandardCharsets.US_ASCII)) {
            write(histogram, ps);
            if (ps.checkError()) {
                throw new IOException("writing " + file + " failed");
            }
        }
    }
}
