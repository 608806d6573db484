package io.rdmaffm.perftest.report.model;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Every latency sample of a row (schema 1, {@code latency_histogram}), as HdrHistogram's compressed V2 encoding
 * in Base64.
 *
 * @param unit the recorded values' unit, {@code "ns"}
 * @param significantDigits the histogram's precision
 * @param encoding {@code "HdrHistogram-V2-compressed-base64"}
 * @param data the encoded histogram
 * @param count samples recorded, as written
 * @param maxNs the largest sample, as written
 */
public record LatencyHistogram(String unit, int significantDigits, String encoding, String data, long count,
                               long maxNs) {

    /** The one encoding schema 1 defines. */
    public static final String ENCODING = "HdrHistogram-V2-compressed-base64";

    /**
     * Decodes the samples.
     *
     * @return the histogram, values in {@link #unit()} (nanoseconds)
     * @throws RunFormatException when the data is not a histogram in the declared encoding
     */
    public Histogram decode() {
        if (!ENCODING.equals(encoding)) {
            throw new RunFormatException("latency_histogram: unknown encoding \"" + encoding + "\" (expected "
                    + ENCODING + ")");
        }
        try {
            ByteBuffer bytes = ByteBuffer.wrap(Base64.getDecoder().decode(data));
            return Histogram.decodeFromCompressedByteBuffer(bytes, 0);
        } catch (IllegalArgumentException | DataFormatException | java.nio.BufferUnderflowException e) {
            throw new RunFormatException("latency_histogram: data is not a compressed HdrHistogram: " + e.getMessage());
        }
    }

    static LatencyHistogram read(Fields f) {
        if (f == null) {
            return null;
        }
        String data = f.string("data");
        if (data == null) {
            throw f.error("data", "a string", null);
        }
        Long count = f.integer("count");
        Long max = f.integer("max_ns");
        String encoding = f.string("encoding");
        return new LatencyHistogram(f.string("unit"), f.intOr("significant_digits", 3),
                encoding == null ? ENCODING : encoding, data, count == null ? -1 : count, max == null ? -1 : max);
    }
}
