package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import io.rdmaffm.perftest.cluster.HostInput;
import io.rdmaffm.perftest.cluster.MatrixInputException;
import io.rdmaffm.perftest.cluster.MatrixPlan;
import io.rdmaffm.perftest.cluster.MatrixPlanner;
import io.rdmaffm.perftest.cluster.Names;
import io.rdmaffm.perftest.cluster.ProcessRunner;
import io.rdmaffm.perftest.cluster.HostDiscovery;
import io.rdmaffm.perftest.fabric.FabricOptions;
import io.rdmaffm.perftest.fabric.FabricPattern;
import io.rdmaffm.perftest.fabric.SendRate;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a {@link FabricRequest} and plans its ranks; runs nothing but what the matrix's host input needs
 * ({@code scontrol} for {@code --slurm}). Everything bad is found here, before any worker starts: one line
 * ({@link MatrixInputException}, exit 2).
 */
public final class FabricPlanner {
    private FabricPlanner() {
    }

    /**
     * Everything that can be checked before asking the hosts anything: the matrix's checks of the shared options
     * and its host input, then the pattern's (host count, {@code -s} against the ring's chunks, the receiver).
     *
     * @return the hosts
     * @throws MatrixInputException one line naming the first problem
     */
    public static HostInput.Hosts hosts(FabricRequest o, ProcessRunner runner) {
        checkNumbers(o);
        HostInput.Hosts hosts = MatrixPlanner.hosts(o.hosts(), runner);
        checkHosts(o, hosts.names());
        return hosts;
    }

    /**
     * The plan on the hosts as discovered: the matrix's rails (device i on every host; the rails all hosts have).
     *
     * @throws MatrixInputException one line naming the first problem
     */
    public static FabricPlan plan(FabricRequest o, DiscoveredHosts found) {
        checkNumbers(o);
        List<String> names = found.hosts().names();
        checkHosts(o, names);
        MatrixPlan rails = MatrixPlanner.plan(o.hosts(), found);
        List<String> notes = new ArrayList<>(rails.notes());
        int railCount = Integer.MAX_VALUE;
        for (String h : names) {
            railCount = Math.min(railCount, rails.devices().get(h).size());
        }
        boolean defaultDevice = railCount == 0;
        if (defaultDevice) {
            railCount = 1;
        }
        if (o.port() + railCount - 1 > 65535) {
            throw new MatrixInputException("--port " + o.port() + " leaves no room for " + railCount
                    + " rails (one port each)");
        }
        if ((long) railCount * names.size() > o.hosts().maxConnections()) {
            throw new MatrixInputException(railCount * names.size() + " ranks need as many launcher processes at"
                    + " once; --max-connections is " + o.hosts().maxConnections() + " (raise it, or run per rail)");
        }
        List<FabricPlan.Rank> ranks = new ArrayList<>();
        for (int rail = 0; rail < railCount; rail++) {
            for (int i = 0; i < names.size(); i++) {
                String h = names.get(i);
                ranks.add(new FabricPlan.Rank(rail, i, h, defaultDevice ? null : rails.devices().get(h).get(rail)));
            }
        }
        int receiver = o.receiver() == null ? -1 : names.indexOf(o.receiver());
        checkPortRates(o, found, ranks, receiver);
        return new FabricPlan(o, found, ranks, railCount, receiver, notes, sizes(o, names.size()));
    }

    /**
     * {@code --rate} against the port rate each sender's host told of (docs/fabric-design.md §12): one above any is
     * refused before launch. A sender whose port rate is not known here (a host not asked, or not answering, or the
     * worker's default device) is checked by its worker on its own host, before it creates any QP. Incast's
     * receiver and bisection's idle rank send nothing: their ports are not the cap's.
     */
    private static void checkPortRates(FabricRequest o, DiscoveredHosts found, List<FabricPlan.Rank> ranks,
            int receiver) {
        if (o.rate() == null) {
            return;
        }
        int n = found.hosts().names().size();
        for (FabricPlan.Rank r : ranks) {
            HostDiscovery.HostInfo h = found.answers().get(r.host());
            boolean sends = !(o.pattern() == Pattern.INCAST && r.rank() == receiver)
                    && !(o.pattern() == Pattern.BISECTION && n % 2 == 1 && r.rank() == n - 1);
            if (h == null || r.device() == null || !sends) {
                continue;
            }
            for (HostDiscovery.Nic nic : h.nics()) {
                if (nic.device().equals(r.device()) && nic.portGbps() != null && o.rate().above(nic.portGbps())) {
                    throw new MatrixInputException("--rate " + o.rate().text() + " is above the port rate of "
                            + Names.printable(r.host()) + " " + Names.printable(nic.device()) + " port 1 ("
                            + new SendRate(Math.round(nic.portGbps() * 1e9)).text() + ")");
                }
            }
        }
    }

    private static void checkNumbers(FabricRequest o) {
        if (o.pattern() == null) {
            throw new MatrixInputException("no pattern: give one of " + Pattern.names());
        }
        if (o.bytes() < 1) {
            throw new MatrixInputException("-s must be at least 1 byte, got " + o.bytes());
        }
        if (o.iters() < 1) {
            throw new MatrixInputException("--iters must be at least 1, got " + o.iters());
        }
        if (o.warmup() < 0) {
            throw new MatrixInputException("--warmup must be at least 0, got " + o.warmup());
        }
        if (o.expect() == null) {
            throw new MatrixInputException("--expect must be none, pfc or dcqcn");
        }
        if (o.priority() != null && (o.priority() < 0 || o.priority() > 7)) {
            throw new MatrixInputException("--priority must be 0..7, got " + o.priority());
        }
        if (!Double.isNaN(o.minPercent()) && !(o.minPercent() > 0 && o.minPercent() <= 100)) {
            throw new MatrixInputException("--min-percent must be within 0..100, got " + o.minPercent());
        }
        if (!(o.slowLinkFactor() > 1) || Double.isInfinite(o.slowLinkFactor())) {
            throw new MatrixInputException("--slow-link-factor must be above 1, got " + o.slowLinkFactor());
        }
        if (o.port() < 1 || o.port() > 65535) {
            throw new MatrixInputException("invalid --port " + o.port());
        }
        if (o.receiver() != null && o.pattern() != Pattern.INCAST) {
            throw new MatrixInputException("--target is for incast only");
        }
    }

    private static void checkHosts(FabricRequest o, List<String> names) {
        Pattern p = o.pattern();
        int n = names.size();
        if (n < p.minRanks()) {
            throw new MatrixInputException("fabric " + p.cli() + " needs at least " + p.minRanks() + " hosts, got "
                    + n);
        }
        if (o.sweep() == null && p.ring() && o.bytes() % (4L * n) != 0) {
            throw new MatrixInputException("-s " + o.bytes() + " is not a multiple of 4n = " + 4L * n + " (" + p.cli()
                    + " splits the float32 array into " + n + " equal chunks)");
        }
        for (long s : sizes(o, n)) {
            if (!p.ring() && s > Integer.MAX_VALUE) {
                throw new MatrixInputException("size " + s + " is above 2^31 - 1 (one RDMA write per peer)");
            }
            // The workers' own rule (each thread a share of every link's bytes), checked here before any is launched.
            String threads = FabricOptions.threadsProblem(p.ring(), n, s, o.threads());
            if (threads != null) {
                throw new MatrixInputException(o.sweep() == null ? threads : "size " + s + ": " + threads);
            }
            // The workers' own rule (a ring takes no cap; each case's paced iterations fit the driver's time for a
            // case, --test-timeout), before any is launched.
            String rate = FabricOptions.rateProblem(FabricPattern.of(p.cli()), n, s, o.iters(), o.rate(),
                    o.hosts().testTimeout().toNanos(), "--test-timeout");
            if (rate != null) {
                throw new MatrixInputException(o.sweep() == null ? rate : "size " + s + ": " + rate);
            }
        }
        // A float32 sum of n inputs below 251 stays exact only while 250·n < 2^24 (docs/fabric-design.md §5).
        if (p == Pattern.ALLREDUCE || p == Pattern.REDUCESCATTER) {
            if (250L * n >= (1L << 24)) {
                throw new MatrixInputException(n + " hosts: the check's float32 sums would no longer be exact");
            }
        }
        if (o.receiver() != null && !names.contains(o.receiver())) {
            throw new MatrixInputException("--target '" + Names.printable(o.receiver())
                    + "' is not among the hosts");
        }
    }

    /** The sizes the workers run in turn: {@code -s} alone, or the sweep's rounded for the pattern on n hosts. */
    static List<Long> sizes(FabricRequest o, int n) {
        return o.sweep() == null ? List.of(o.bytes()) : o.sweep().sizes(o.pattern(), n);
    }
}
