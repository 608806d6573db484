package io.rdmaffm.perftest.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the {@code matrix} command was asked to do, as plain values (the CLI fills these from its options;
 * nothing here knows picocli). Defaults are the command's defaults. {@link MatrixPlanner#plan} checks them.
 */
public final class MatrixOptions {
    /** How pairs are chosen. */
    public enum Mode {
        /** Every pair once (round robin). */
        ALL,
        /** Every host once, in one round ({@code --quick}). */
        QUICK,
        /** The pairs of {@link #pairsFile} ({@code --pairs FILE}). */
        PAIRS
    }

    /** Which launcher starts the remote processes. */
    public enum LauncherKind { SSH, SRUN }

    /** What runs on both ends. */
    public enum Peer {
        /** perftest-java ({@code rdma-perftest TOOL}), results as its {@code --out_json} document. */
        JAVA,
        /** Debian's C perftest binaries ({@code ib_write_bw}…), results parsed from their text. */
        C
    }

    /** {@code --hosts a,b,c}; exactly one of hosts, hostfile and slurm. */
    public String hosts;
    /** {@code --hostfile FILE}. */
    public Path hostfile;
    /** {@code --slurm}: the hosts of the allocation. */
    public boolean slurm;
    /** The value of {@code SLURM_JOB_NODELIST} (the CLI passes the environment's). */
    public String slurmNodelist;

    /** {@code --device mlx5_0,mlx5_1}: the same RDMA devices on every host, rail i = device i; empty: each
     *  tool's default device, one rail. */
    public List<String> devices = List.of();
    /** Per-host device lists (e.g. from each host's doctor); a host listed here overrides {@link #devices}. */
    public Map<String, List<String>> devicesByHost = Map.of();

    /** {@code --quick}, {@code --pairs FILE}, or every pair. */
    public Mode mode = Mode.ALL;
    /** The pairs file of {@link Mode#PAIRS}. */
    public Path pairsFile;

    /** {@code --launcher ssh|srun}. */
    public LauncherKind launcher = LauncherKind.SSH;
    /** {@code --peer java|c}. */
    public Peer peer = Peer.JAVA;
    /** The tools run on each rail, in order; at most one bandwidth and one latency tool. */
    public List<String> tools = List.of("ib_write_bw", "ib_write_lat");
    /** Extra arguments for every tool (after {@code --}), e.g. {@code -s 65536 -x 3}. */
    public List<String> toolArgs = List.of();
    /** {@code --tool-path}: perftest-java's launcher on the hosts (default {@code rdma-perftest} on PATH), or with
     *  {@code --peer c} the directory of the C binaries (default: PATH). */
    public String toolPath;
    /** First TCP port of the tools' exchange. */
    public int basePort = 18515;

    /** {@code --per-test SEC}: how long one rail's tools take together, for the estimate printed up front. */
    public Duration perTest = Duration.ofSeconds(12);
    /** How long a server may take to listen (remote start-up, JVM start) before the pair counts as stalled. */
    public Duration listenTimeout = Duration.ofSeconds(30);
    /** How long one tool run may take end to end before the pair counts as stalled and is stopped. */
    public Duration testTimeout = Duration.ofSeconds(120);
    /** ssh's ConnectTimeout, seconds. */
    public int connectTimeoutSeconds = 10;
    /** {@code --max-connections}: launcher processes (ssh or srun) alive at once; two per running rail. */
    public int maxConnections = 64;

    /** Relative rule: a bandwidth below this fraction of the best pair's is flagged (ClusterKit: 0.93). */
    public double bwFractionOfBest = 0.93;
    /** Relative rule: a latency above this multiple of the best pair's is flagged (ClusterKit: 2.1). */
    public double latFactorOfBest = 2.1;
    /** {@code --min-percent-of-link P}: a bandwidth below P% of the slower end's expected rate is flagged;
     *  NaN = off. */
    public double minPercentOfLink = Double.NaN;
    /** Expected rate in Gb/s per "host/device" (or per "host" for all its devices), e.g. doctor's port rate
     *  capped by its PCIe model. */
    public Map<String, Double> linkGbps = Map.of();
    /** What each host said about its devices before the run ({@link HostDiscovery}), for the JSON's provenance;
     *  empty when the hosts were not asked. */
    public Map<String, HostDiscovery.HostInfo> discovered = Map.of();
    /** Retest flagged (and stalled or failed-run) pairs once. */
    public boolean retest = true;
}
