package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.MatrixRequest;
import io.rdmaffm.perftest.fabric.SendRate;
import java.nio.file.Path;

/**
 * What {@code fabric PATTERN} was asked to do, frozen once parsing is done. The hosts, launcher, devices (rails),
 * tool path, timeouts and connection limit are the matrix's, with the same meaning, so they stay in a
 * {@link MatrixRequest} ({@link #hosts}) and go through the matrix's own checks and discovery; the rest is the
 * pattern's.
 *
 * @param hosts      host input, launcher, {@code --device}, {@code --tool-path}, {@code --listen-timeout} (the
 *                   workers' join timeout), {@code --test-timeout} (their per-step timeout),
 *                   {@code --connect-timeout}, {@code --max-connections}; its {@code basePort} is {@link #port}
 * @param pattern    the traffic
 * @param bytes      {@code -s}: the whole array for ring patterns, else bytes per peer per iteration
 * @param iters      timed iterations
 * @param warmup     untimed iterations before them
 * @param reduce     false with {@code --no-reduce}: data movement alone
 * @param receiver   incast's target host ({@code --target}, {@code --receiver} before it), null for every host
 *                   in turn
 * @param threads    {@code --threads} per worker
 * @param expect     what the fabric is set up to do under congestion
 * @param priority   the lossless priority whose pause and discard counters are judged, null for none
 * @param minPercent flag a busbw below this percent of the expected, NaN off
 * @param slowLinkFactor flag a link whose mean write time exceeds this many times the other links' median
 * @param lossOutliers the {@code loss-outlier} rule's parameters ({@code --loss-outlier})
 * @param json       the JSON document to write, or null
 * @param csv        the CSV to write, or null
 * @param port       the coordinator's TCP port (rail i uses port + i)
 * @param rate       {@code --rate}: each sender's cap, null for none
 * @param sweep      {@code -b/-e/-f}: sizes in turn instead of {@code -s} alone; null without
 */
public record FabricRequest(MatrixRequest hosts, Pattern pattern, long bytes, int iters, int warmup, boolean reduce,
        String receiver, int threads, Expect expect, Integer priority, double minPercent, double slowLinkFactor,
        LossOutliers.Rule lossOutliers, Path json, Path csv, int port, SendRate rate, Sweep sweep) {

    /** @return a builder holding the command's defaults (the worker's, docs/fabric-contract) */
    public static Builder builder() {
        return new Builder();
    }

    /** The request as parsing fills it in; only the command line and tests write these fields. */
    public static final class Builder {
        // Each field as the record component of the same name documents it.
        public MatrixRequest.Builder hosts = MatrixRequest.builder();
        public Pattern pattern;
        public long bytes = 1 << 20;
        public int iters = 20;
        public int warmup = 2;
        public boolean reduce = true;
        public String receiver;
        public int threads = 1;
        public Expect expect = Expect.NONE;
        public Integer priority;
        public double minPercent = Double.NaN;
        public double slowLinkFactor = 3.0;
        public LossOutliers.Rule lossOutliers = LossOutliers.Rule.DEFAULT;
        public Path json;
        public Path csv;
        public int port = 18515;
        public SendRate rate;
        public Sweep sweep;

        private Builder() {
        }

        /** @return the frozen request */
        public FabricRequest build() {
            hosts.basePort = port;
            return new FabricRequest(hosts.build(), pattern, bytes, iters, warmup, reduce, receiver, threads, expect,
                    priority, minPercent, slowLinkFactor, lossOutliers, json, csv, port, rate, sweep);
        }
    }
}
