package io.rdmaffm.perftest.report.model;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * The hand-written run documents under {@code report-fixtures/} (docs/run-json.md), and builders for documents
 * a test needs beyond them. Schema 1: two repeats each of an {@code -a} write_bw sweep on an InfiniBand port
 * ({@code bw_sweep_ib*.json}, mlx5_0) and a RoCE port ({@code bw_sweep_roce*.json}, mlx5_2), send_lat runs with
 * histograms and time series on both, a duration-mode read_lat on rxe0, and a real Soft-RoCE write_bw -a -n 40
 * sweep ({@code rxe_write_bw_sweep.json}, scripts/report-screenshot.sh). {@code v0/}: files exactly as the tools
 * wrote them before the schema existed.
 */
public final class ReportFixtures {
    /** The sizes of the sweeps: 2 to 8 MiB, 23 rows. */
    public static final int SWEEP_ROWS = 23;

    private ReportFixtures() {
    }

    /** @return the fixture's text */
    public static String text(String name) {
        try {
            return java.nio.file.Files.readString(file(name));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** @return the fixture's path */
    public static Path file(String name) {
        URL url = ReportFixtures.class.getResource("/report-fixtures/" + name);
        if (url == null) {
            throw new IllegalArgumentException("no fixture " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the fixture, read */
    public static RunDocument read(String name) {
        return RunReader.read(file(name));
    }

    /** @return the fixtures, read, in order */
    public static List<RunDocument> readAll(String... names) {
        return java.util.Arrays.stream(names).map(ReportFixtures::read).toList();
    }

    /** An HdrHistogram (3 significant digits) of these nanosecond samples, compressed and in Base64. */
    public static String histogramBase64(long... samplesNs) {
        Histogram h = new Histogram(3);
        for (long v : samplesNs) {
            h.recordValue(v);
        }
        ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
        int len = h.encodeIntoCompressedByteBuffer(buf);
        byte[] bytes = new byte[len];
        buf.flip().get(bytes);
        return Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * A schema-1 latency sweep with a histogram on every row: row i has {@code samplesPerRow} samples from
     * {@code 1000 * (i + 1)} ns upwards, one per ns.
     */
    public static String latencySweep(String test, int sizes, int samplesPerRow) {
        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < sizes; i++) {
            long[] samples = new long[samplesPerRow];
            for (int k = 0; k < samplesPerRow; k++) {
                samples[k] = 1000L * (i + 1) + k;
            }
            rows.append(i == 0 ? "" : ",").append("{\"MsgSize\":").append(2L << i).append(",\"n_iterations\":")
                    .append(samplesPerRow).append(",\"t_typical\":").append(i + 1).append(",\"unit\":\"usec\",")
                    .append("\"latency_histogram\":{\"unit\":\"ns\",\"significant_digits\":3,\"encoding\":")
                    .append("\"HdrHistogram-V2-compressed-base64\",\"data\":\"").append(histogramBase64(samples))
                    .append("\",\"count\":").append(samplesPerRow).append(",\"max_ns\":").append(samples[samplesPerRow - 1])
                    .append("}}");
        }
        return "{\"schema\":\"rdma-ffm.run/1\",\"test_info\":{\"test\":\"" + test + "\"},\"parameters\":{\"size\":\"all\"},"
                + "\"environment\":null,\"device\":null,\"all_results\":[" + rows + "],\"measured_window\":null}";
    }
}
