package io.rdmaffm.perftest.report;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;

/**
 * Writes a latency histogram as an {@code .hgrm} percentile distribution (the format HdrHistogram's plotter
 * reads). The engine records nanoseconds; the file shows microseconds, like perftest's tables. A run's file ends
 * with {@link Samples}'s lines, which say which samples it holds and how its Max relates to the table's t_max.
 */
public final class HgrmWriter {
    /** Recorded values are ns; dividing by this prints µs. */
    public static final double NANOS_PER_MICRO = 1000.0;

    private HgrmWriter() {
    }

    /**
     * What a latency row's histogram holds, beside the table computed from the same samples.
     *
     * @param iterations {@code -n}
     * @param samples    samples recorded: one per pair of consecutive posts, {@code iterations - 1}
     * @param minUsec    the smallest sample as the table computes it (full precision)
     * @param maxUsec    the largest sample, likewise (the histogram's Max is the top of its bucket)
     * @param tableMax   the table's t_max: the second-largest sample
     */
    public record Samples(long iterations, long samples, double minUsec, double maxUsec, double tableMax) {

        /** From the post timestamps (ns) of a row, halved by {@code rttFactor} as the table halves them. */
        static Samples of(long[] tposted, int iters, int rttFactor, double tableMax) {
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (int i = 0; i < iters - 1; i++) {
                long d = tposted[i + 1] - tposted[i];
                min = Math.min(min, d);
                max = Math.max(max, d);
            }
            double q = NANOS_PER_MICRO * rttFactor;
            return new Samples(iters, iters - 1, min / q, max / q, tableMax);
        }

        /** The lines appended to the file, in the footer's {@code #[...]} form. */
        String lines() {
            return String.format(Locale.ROOT, "#[Samples: %d, one round trip per pair of consecutive posts of -n %d;"
                    + " all kept (the table drops the two largest)]%n"
                    + "#[Exact min = %.3f us, exact max = %.3f us (the lines above keep 3 significant digits: Max "
                    + "is the largest sample's bucket top)]%n"
                    + "#[Table t_max = %.2f us: the second-largest sample, as perftest reports it]%n",
                    samples, iterations, minUsec, maxUsec, tableMax);
        }
    }

    /** Writes the distribution of {@code histogram} (values in ns) to {@code out}, in µs. */
    public static void write(AbstractHistogram histogram, PrintStream out) {
        histogram.outputPercentileDistribution(out, NANOS_PER_MICRO);
        out.flush();
    }

    /** Writes the distribution to a file, replacing it, with the lines saying what the samples are. */
    public static void write(AbstractHistogram histogram, Samples samples, Path file) throws IOException {
        try (OutputStream os = Files.newOutputStream(file);
                PrintStream ps = new PrintStream(os, false, StandardCharsets.US_ASCII)) {
            write(histogram, ps);
            ps.print(samples.lines());
            ps.flush();
            if (ps.checkError()) {
                throw new IOException("writing " + file + " failed");
            }
        }
    }
}
