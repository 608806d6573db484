package io.rdmaffm.perftest.cluster;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Checks a {@link MatrixRequest} and reads its hosts ({@link #hosts}), then makes the {@link MatrixPlan} from
 * the {@link DiscoveredHosts} ({@link #plan(MatrixRequest, DiscoveredHosts)}); every problem is found here,
 * before any test is launched.
 */
public final class MatrixPlanner {
    /** The perftest tools the matrix can run (the same names in perftest-java and C perftest). */
    static final List<String> TOOLS = List.of("ib_write_bw", "ib_write_lat", "ib_read_bw", "ib_read_lat",
            "ib_send_bw", "ib_send_lat", "ib_atomic_bw", "ib_atomic_lat");
    /** Set by the matrix for each end; the user may not set them through the tool arguments. */
    private static final Set<String> RESERVED = Set.of("-d", "--ib-dev", "-p", "--port", "--out_json",
            "--out_json_file", "-h", "--help", "-V", "--version", "--accept-timeout");
    private static final Pattern TOOL_PATH = Pattern.compile("[A-Za-z0-9_.+/][A-Za-z0-9_.+/-]*");

    private MatrixPlanner() {
    }

    /**
     * The pipeline's first checks, for a caller that asks the hosts nothing: {@link #hosts} then {@link #plan}
     * with the request's devices on every host.
     *
     * @param runner runs {@code scontrol show hostnames} for {@code --slurm}
     * @throws MatrixInputException one line naming the first problem
     */
    public static MatrixPlan plan(MatrixRequest o, ProcessRunner runner) {
        return plan(o, DiscoveredHosts.notAsked(hosts(o, runner)));
    }

    /**
     * Everything that can be checked before asking the hosts anything: numbers, tools, the hosts (for
     * {@code --slurm}: {@code scontrol show hostnames} through {@code runner}, the only time it runs) and the
     * pairs file. The caller may then ask the hosts ({@link HostDiscovery}) and {@link #plan} with their answers.
     *
     * @return the hosts
     * @throws MatrixInputException one line naming the first problem
     */
    public static HostInput.Hosts hosts(MatrixRequest o, ProcessRunner runner) {
        checkNumbers(o);
        checkTools(o);
        HostInput.Hosts hosts = readHosts(o, runner);
        if (o.mode() == MatrixRequest.Mode.PAIRS) {
            pairs(o, hosts);
        }
        return hosts;
    }

    /**
     * The plan of a checked request ({@link #hosts}) on the hosts as discovered; runs nothing.
     *
     * @throws MatrixInputException one line naming the first problem
     */
    public static MatrixPlan plan(MatrixRequest o, DiscoveredHosts found) {
        HostInput.Hosts hosts = found.hosts();
        if (!Double.isNaN(o.minPercentOfLink()) && found.linkGbps().isEmpty()) {
            throw new MatrixInputException("--min-percent-of-link needs each NIC's expected rate");
        }
        for (Map.Entry<String, Double> e : found.linkGbps().entrySet()) {
            if (e.getValue() == null || !(e.getValue() > 0)) {
                throw new MatrixInputException("expected rate of " + Names.printable(e.getKey()) + " must be > 0");
            }
        }
        List<String> notes = new ArrayList<>(hosts.notes());
        Map<String, List<String>> devices = devices(o, found.devicesByHost(), hosts.names(), notes);
        List<List<Schedule.HostPair>> rounds = switch (o.mode()) {
            case ALL -> Schedule.roundRobin(hosts.names());
            case QUICK -> Schedule.quick(hosts.names());
            case PAIRS -> Schedule.greedy(pairs(o, hosts));
        };
        if (o.mode() == MatrixRequest.Mode.QUICK && hosts.names().size() % 2 == 1) {
            notes.add("--quick with an odd number of hosts: " + hosts.names().get(hosts.names().size() - 1)
                    + " is tested with " + hosts.names().get(0) + " in a second round");
        }
        MatrixPlan plan = new MatrixPlan(o, found, devices, rounds, List.copyOf(notes));
        if (o.basePort() + 2 * plan.maxRails() - 1 > 65535) {
            throw new MatrixInputException("--base-port " + o.basePort() + " leaves no room for "
                    + 2 * plan.maxRails() + " ports (2 per rail)");
        }
        return plan;
    }

    private static List<Schedule.HostPair> pairs(MatrixRequest o, HostInput.Hosts hosts) {
        return Schedule.parsePairs(read(o.pairsFile(), "--pairs"), hosts.names(), "pairs file " + o.pairsFile());
    }

    private static HostInput.Hosts readHosts(MatrixRequest o, ProcessRunner runner) {
        int given = (o.hosts() != null ? 1 : 0) + (o.hostfile() != null ? 1 : 0) + (o.slurm() ? 1 : 0);
        if (given != 1) {
            throw new MatrixInputException(given == 0 ? "no hosts: give --hosts, --hostfile or --slurm"
                    : "give only one of --hosts, --hostfile and --slurm");
        }
        if (o.hosts() != null) {
            return HostInput.fromList(o.hosts());
        }
        if (o.hostfile() != null) {
            return HostInput.fromHostfile(read(o.hostfile(), "--hostfile"), o.hostfile().toString());
        }
        return HostInput.fromSlurm(o.slurmNodelist(), runner, Duration.ofSeconds(30));
    }

    private static Map<String, List<String>> devices(MatrixRequest o, Map<String, List<String>> byHost,
            List<String> hosts, List<String> notes) {
        for (String h : byHost.keySet()) {
            if (!hosts.contains(h)) {
                throw new MatrixInputException("devices given for '" + Names.printable(h)
                        + "', which is not among the hosts");
            }
        }
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (String h : hosts) {
            List<String> given = byHost.getOrDefault(h, o.devices());
            String where = byHost.containsKey(h) ? "devices of " + h : "--device";
            Set<String> seen = new HashSet<>();
            for (String d : given) {
                Names.device(d, where);
                if (!seen.add(d)) {
                    throw new MatrixInputException(where + ": device '" + d + "' is given twice");
                }
            }
            out.put(h, List.copyOf(given));
        }
        int least = Integer.MAX_VALUE;
        int most = 0;
        for (List<String> d : out.values()) {
            least = Math.min(least, d.size());
            most = Math.max(most, d.size());
        }
        if (least != most) {
            notes.add("hosts have " + least + " to " + most + " devices: a pair tests the rails both have"
                    + " (device i with device i); the extra NICs are not tested");
        }
        return out;
    }

    private static void checkNumbers(MatrixRequest o) {
        if (o.basePort() < 1 || o.basePort() > 65535) {
            throw new MatrixInputException("invalid --base-port " + o.basePort());
        }
        if (o.maxConnections() < 2) {
            throw new MatrixInputException("--max-connections must be at least 2 (a server and a client)");
        }
        if (o.connectTimeoutSeconds() < 1) {
            throw new MatrixInputException("--connect-timeout must be at least 1 s");
        }
        for (Duration d : List.of(o.perTest(), o.listenTimeout(), o.testTimeout())) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new MatrixInputException("timeouts and --per-test must be positive");
            }
        }
        if (!(o.bwFractionOfBest() >= 0 && o.bwFractionOfBest() <= 1) && !Double.isNaN(o.bwFractionOfBest())) {
            throw new MatrixInputException("the bandwidth share of the best pair must be within 0..100%");
        }
        if (!(o.latFactorOfBest() >= 1) && !Double.isNaN(o.latFactorOfBest()) && o.latFactorOfBest() != 0) {
            throw new MatrixInputException("the latency factor of the best pair must be at least 1");
        }
        if (!Double.isNaN(o.minPercentOfLink()) && !(o.minPercentOfLink() > 0 && o.minPercentOfLink() <= 100)) {
            throw new MatrixInputException("--min-percent-of-link must be within 0..100, got " + o.minPercentOfLink());
        }
    }

    private static void checkTools(MatrixRequest o) {
        int bw = 0;
        int lat = 0;
        if (o.tools().isEmpty()) {
            throw new MatrixInputException("no tool to run");
        }
        for (String t : o.tools()) {
            if (!TOOLS.contains(t)) {
                throw new MatrixInputException("unknown tool '" + Names.printable(t) + "' (one of "
                        + String.join(", ", TOOLS) + ")");
            }
            if (t.endsWith("_bw")) {
                bw++;
            } else {
                lat++;
            }
        }
        if (bw > 1 || lat > 1) {
            throw new MatrixInputException("at most one bandwidth and one latency tool, got " + o.tools());
        }
        for (String a : o.toolArgs()) {
            String name = a.contains("=") ? a.substring(0, a.indexOf('=')) : a;
            if (RESERVED.contains(name)) {
                throw new MatrixInputException("tool argument " + name + " is set by the matrix for each end");
            }
            if (a.chars().anyMatch(c -> c < 0x20)) {
                throw new MatrixInputException("tool argument '" + Names.printable(a) + "' has control characters");
            }
        }
        if (o.toolPath() != null && !TOOL_PATH.matcher(o.toolPath()).matches()) {
            throw new MatrixInputException("--tool-path '" + Names.printable(o.toolPath())
                    + "' is not a plain path (letters, digits, '_', '.', '+', '-', '/'; not starting with '-')");
        }
    }

    private static String read(Path file, String option) {
        if (file == null) {
            throw new MatrixInputException(option + " needs a file");
        }
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new MatrixInputException(option + " " + file + ": cannot read it ("
                    + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage()) + ")");
        }
    }
}
