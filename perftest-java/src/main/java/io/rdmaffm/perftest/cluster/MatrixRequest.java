package io.rdmaffm.perftest.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the {@code matrix} command was asked to do, as plain values, frozen once parsing is done: the first stage
 * of the matrix's one-way pipeline (request, hosts, {@link DiscoveredHosts}, {@link MatrixPlan}, run, verdicts,
 * sinks). Nothing here knows picocli; the command fills a {@link Builder} and {@link Builder#build}s it.
 * {@link MatrixPlanner} checks it. What the hosts say about themselves is not a request: see
 * {@link DiscoveredHosts}.
 *
 * @param hosts                 {@code --hosts a,b,c} or {@code node[01-04]}; exactly one of hosts, hostfile and slurm
 * @param hostfile              {@code --hostfile FILE}
 * @param slurm                 {@code --slurm}: the hosts of the allocation
 * @param slurmNodelist         the value of {@code SLURM_JOB_NODELIST}
 * @param devices               {@code --device}: the same devices on every host, rail i = device i; empty: each
 *                              host's own (asked) or the tools' default device
 * @param mode                  how pairs are chosen
 * @param pairsFile             the pairs file of {@link Mode#PAIRS}
 * @param launcher              ssh or srun
 * @param peer                  what runs on both ends
 * @param tools                 the tools run on each rail, in order
 * @param toolArgs              extra arguments for every tool
 * @param toolPath              {@code --tool-path}, null for PATH
 * @param basePort              first TCP port of the tools' exchange
 * @param perTest               how long one rail's tools take together, for the estimate
 * @param listenTimeout         how long a server (or a host asked for its devices) may take to answer
 * @param testTimeout           how long one tool run may take end to end
 * @param connectTimeoutSeconds ssh's ConnectTimeout
 * @param maxConnections        launcher processes alive at once
 * @param bwFractionOfBest      relative bandwidth rule (0.93), NaN or 0 off
 * @param latFactorOfBest       relative latency rule (2.1), NaN or 0 off
 * @param minPercentOfLink      absolute bandwidth rule in percent of the slower end's expected rate, NaN off
 * @param retest                retest flagged (and stalled or failed-run) pairs once
 * @param launch                one worker JVM per host and rail for the run, or one launch per end and tool
 */
public record MatrixRequest(String hosts, Path hostfile, boolean slurm, String slurmNodelist, List<String> devices,
        Mode mode, Path pairsFile, LauncherKind launcher, Peer peer, List<String> tools, List<String> toolArgs,
        String toolPath, int basePort, Duration perTest, Duration listenTimeout, Duration testTimeout,
        int connectTimeoutSeconds, int maxConnections, double bwFractionOfBest, double latFactorOfBest,
        double minPercentOfLink, boolean retest, Launch launch) {

    /** How pairs are chosen. */
    public enum Mode {
        /** Every pair once (round robin). */
        ALL,
        /** Every host once, in one round ({@code --quick}). */
        QUICK,
        /** The pairs of {@link MatrixRequest#pairsFile} ({@code --pairs FILE}). */
        PAIRS
    }

    /** Which launcher starts the remote processes. */
    public enum LauncherKind { SSH, SRUN }

    /**
     * How perftest-java's ends are started (C perftest's are always started per test: its tools are separate
     * programs that start in a moment, with no JVM to keep warm).
     */
    public enum Launch {
        /** One {@code rdma-perftest matrix-worker} per host and rail for the whole run ({@link WorkerPool}). */
        WORKER,
        /** A launcher process and a JVM per end and tool, as before workers (hosts with an older rdma-perftest). */
        PER_TEST
    }

    /** Whether perftest-java's ends are orders to the hosts' workers. */
    public boolean workers() {
        return peer == Peer.JAVA && launch == Launch.WORKER;
    }

    /** What runs on both ends. */
    public enum Peer {
        /** perftest-java ({@code rdma-perftest TOOL}), results as its {@code --out_json} document. */
        JAVA,
        /** Debian's C perftest binaries ({@code ib_write_bw}…), results parsed from their text. */
        C
    }

    /** @return a builder holding the command's defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether the hosts must be asked for their devices or expected rates before planning. */
    public boolean asksHosts() {
        return devices.isEmpty() || !Double.isNaN(minPercentOfLink);
    }

    /**
     * The request as parsing fills it in, one option at a time, with the command's defaults (declared here
     * only). Only the command line and tests write these fields; {@link #build} freezes them.
     */
    public static final class Builder {
        // Each field as the record component of the same name documents it.
        public String hosts;
        public Path hostfile;
        public boolean slurm;
        public String slurmNodelist;

        public List<String> devices = List.of();

        public Mode mode = Mode.ALL;
        public Path pairsFile;

        public LauncherKind launcher = LauncherKind.SSH;
        public Peer peer = Peer.JAVA;
        public List<String> tools = List.of("ib_write_bw", "ib_write_lat");
        public List<String> toolArgs = List.of();
        public String toolPath;
        public int basePort = 18515;

        public Duration perTest = Duration.ofSeconds(12);
        public Duration listenTimeout = Duration.ofSeconds(30);
        public Duration testTimeout = Duration.ofSeconds(120);
        public int connectTimeoutSeconds = 10;
        public int maxConnections = 64;

        public double bwFractionOfBest = 0.93;
        public double latFactorOfBest = 2.1;
        public double minPercentOfLink = Double.NaN;
        public boolean retest = true;
        public Launch launch = Launch.WORKER;

        private Builder() {
        }

        /** @return the frozen request */
        public MatrixRequest build() {
            return new MatrixRequest(hosts, hostfile, slurm, slurmNodelist, List.copyOf(devices), mode, pairsFile,
                    launcher, peer, List.copyOf(tools), List.copyOf(toolArgs), toolPath, basePort, perTest,
                    listenTimeout, testTimeout, connectTimeoutSeconds, maxConnections, bwFractionOfBest,
                    latFactorOfBest, minPercentOfLink, retest, launch);
        }
    }
}
