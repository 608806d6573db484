package io.rdmaffm.perftest.cluster;

import java.util.List;

/**
 * One run of a rail test's tools: figures or a failure, and what the tools wrote.
 *
 * @param test    the rail test
 * @param number  1 for the first run, 2 for the retest
 * @param failure null when every tool produced its figures
 * @param bwGbps  bandwidth in Gb/s (10^9 bit/s) from the bandwidth tool's average, NaN when none ran
 * @param latUsec latency in µs from the latency tool (perftest's t_typical, the median; t_avg in duration mode),
 *                NaN when none ran
 * @param runs    each tool's raw output (dropped by {@link #withoutRaw} once streamed to disk)
 */
public record Attempt(RailTest test, int number, Failure failure, double bwGbps, double latUsec, List<ToolRun> runs) {

    /**
     * What one tool left behind.
     *
     * @param tool     e.g. "ib_write_bw"
     * @param exitCode the client's exit status (-1 when stopped)
     * @param json     the client's {@code --out_json} document (perftest-java), else null
     * @param output   the client's text output (C perftest: the source of the figures)
     */
    public record ToolRun(String tool, int exitCode, String json, String output) {
    }

    /** Whether figures came back. */
    public boolean ok() {
        return failure == null;
    }

    /** The same attempt without the raw outputs, to keep the driver's memory small. */
    public Attempt withoutRaw() {
        return new Attempt(test, number, failure, bwGbps, latUsec, List.of());
    }
}
