package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.cluster.MatrixInputException;
import io.rdmaffm.perftest.cluster.MatrixRequest;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Which hosts a cluster command runs on and how their ends are reached: declared once for {@code matrix} and
 * {@code fabric}, which mix them in with picocli's {@code @Mixin} and fill the hosts part of a
 * {@link MatrixRequest} from them ({@link #applyTo}). The setting is the same in both; what it means to a user is
 * told in each command's terms, so each command words these options in its own {@link OptionWording} (only
 * {@code --connect-timeout} reads the same in both and carries its text here).
 */
final class HostOptions {
    @Option(names = "--hosts", paramLabel = "H1,H2,...")
    String hosts;

    @Option(names = "--hostfile", paramLabel = "FILE")
    Path hostfile;

    @Option(names = "--slurm")
    boolean slurm;

    @Option(names = "--device", paramLabel = "DEV,...")
    String device;

    @Option(names = "--launcher", paramLabel = "ssh|srun")
    String launcher;

    @Option(names = "--tool-path", paramLabel = "PATH")
    String toolPath;

    @Option(names = "--listen-timeout", paramLabel = "SEC")
    Double listenTimeout;

    @Option(names = "--test-timeout", paramLabel = "SEC")
    Double testTimeout;

    @Option(names = "--connect-timeout", paramLabel = "SEC", description = "ssh's ConnectTimeout. Default: 10.")
    Integer connectTimeout;

    @Option(names = "--max-connections", paramLabel = "N")
    Integer maxConnections;

    /** Creates the options; picocli fills them in. */
    HostOptions() {
    }

    /**
     * Sets the hosts part of a request from these options (what was not given keeps the builder's default); the
     * Slurm node list comes from {@code env}.
     *
     * @throws MatrixInputException for a launcher other than ssh or srun, or a timeout that is not a positive
     *                              number of seconds
     */
    void applyTo(MatrixRequest.Builder o, Map<String, String> env) {
        o.hosts = hosts;
        o.hostfile = hostfile;
        o.slurm = slurm;
        o.slurmNodelist = env.get("SLURM_JOB_NODELIST");
        o.devices = device == null ? List.of() : List.of(device.split(",", -1));
        o.launcher = launcher == null ? o.launcher : switch (launcher) {
            case "ssh" -> MatrixRequest.LauncherKind.SSH;
            case "srun" -> MatrixRequest.LauncherKind.SRUN;
            default -> throw new MatrixInputException("--launcher must be ssh or srun, got '" + launcher + "'");
        };
        o.toolPath = toolPath;
        o.listenTimeout = ClusterArguments.seconds(listenTimeout, o.listenTimeout, "--listen-timeout");
        o.testTimeout = ClusterArguments.seconds(testTimeout, o.testTimeout, "--test-timeout");
        o.connectTimeoutSeconds = connectTimeout == null ? o.connectTimeoutSeconds : connectTimeout;
        o.maxConnections = maxConnections == null ? o.maxConnections : maxConnections;
    }
}
