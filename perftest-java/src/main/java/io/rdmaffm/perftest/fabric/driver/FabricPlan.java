package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.DiscoveredHosts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a fabric run will start: one rank per host and rail, all at once. Rail i is device i on every host and
 * forms its own group of n ranks (its own coordinator, port + i, and its own figures), as the matrix's rails;
 * rank 0 of a rail, the first host's, is its coordinator. Made by {@link FabricPlanner}; never changed.
 *
 * @param request    what was asked
 * @param discovered the hosts and what they said about themselves
 * @param ranks      every rank, rail by rail, in host order within a rail
 * @param rails      how many rails
 * @param receiver   incast's target rank within each rail (the host's index); -1: every rank in turn
 * @param notes      what the user should know
 * @param sizes      the sizes run in turn, ascending: {@code -s} alone, or the sweep's rounded for the pattern
 */
public record FabricPlan(FabricRequest request, DiscoveredHosts discovered, List<Rank> ranks, int rails,
        int receiver, List<String> notes, List<Long> sizes) {

    /** Grace after the workers' own bounds before the driver stops what still runs. */
    static final Duration GRACE = Duration.ofSeconds(15);

    /** Copies the lists. */
    public FabricPlan {
        ranks = List.copyOf(ranks);
        notes = List.copyOf(notes);
        sizes = List.copyOf(sizes);
    }

    /** The largest size: what every worker lays its region out for. */
    public long bytes() {
        return sizes.getLast();
    }

    /** Whether every host is incast's target in turn (no {@code --target}). */
    public boolean rotates() {
        return request.pattern() == Pattern.INCAST && receiver < 0;
    }

    /** Incast's targets in the order they run (every rank, or the one); -1 alone for the other patterns. */
    public List<Integer> targets() {
        if (request.pattern() != Pattern.INCAST) {
            return List.of(-1);
        }
        if (!rotates()) {
            return List.of(receiver);
        }
        List<Integer> t = new ArrayList<>();
        for (int i = 0; i < n(); i++) {
            t.add(i);
        }
        return t;
    }

    /** Whether rank {@code rank} is incast's target in some case (every rank when rotating). */
    public boolean receives(int rank) {
        return rotates() || rank == receiver;
    }

    /** Whether rank {@code rank} sends in some case of an incast (every rank when rotating). */
    public boolean sends(int rank) {
        return rotates() || rank != receiver;
    }

    /** The cases every worker runs, in order: each size, and per size each incast target. */
    public List<Case> cases() {
        List<Case> c = new ArrayList<>();
        for (long s : sizes) {
            for (int t : targets()) {
                c.add(new Case(s, t));
            }
        }
        return c;
    }

    /**
     * One case of the run: a size, and incast's target rank (-1 for the other patterns).
     *
     * @param bytes  the size
     * @param target the target rank, or -1
     */
    public record Case(long bytes, int target) {
    }

    /**
     * One worker process.
     *
     * @param rail   its rail (device index)
     * @param rank   its rank within the rail's group, = its host's index
     * @param host   its host
     * @param device its RDMA device, null for the worker's default
     */
    public record Rank(int rail, int rank, String host, String device) {
        /** "host" or "host/device" for reports. */
        public String where() {
            return device == null ? host : host + "/" + device;
        }
    }

    /** The hosts, in order. */
    public List<String> hosts() {
        return discovered.hosts().names();
    }

    /** Ranks per rail: the host count. */
    public int n() {
        return hosts().size();
    }

    /** The ranks of rail {@code rail}, by rank. */
    public List<Rank> rail(int rail) {
        return ranks.stream().filter(r -> r.rail() == rail).toList();
    }

    /** The coordinator's address for rail {@code rail}: the first host, port + rail. */
    public String coordinator(int rail) {
        return hosts().getFirst() + ":" + (request.port() + rail);
    }

    /** Incast's fan-in: every rank but the receiver. */
    public int senders() {
        return n() - 1;
    }

    /** The worker's command line (after the program), as docs/fabric-contract.md fixes it. */
    public List<String> workerArgv(Rank r) {
        FabricRequest o = request;
        List<String> a = new ArrayList<>(List.of("fabric-worker", "--pattern", o.pattern().cli(), "--rank",
                Integer.toString(r.rank()), "--ranks", Integer.toString(n()), "--coordinator", coordinator(r.rail())));
        if (r.device() != null) {
            a.add("-d");
            a.add(r.device());
        }
        if (sizes.size() == 1) {
            a.addAll(List.of("-s", Long.toString(bytes())));
        } else {
            a.addAll(List.of("--sizes", String.join(",", sizes.stream().map(String::valueOf).toList())));
        }
        a.addAll(List.of("--iters", Integer.toString(o.iters()), "--warmup", Integer.toString(o.warmup())));
        if (!o.reduce()) {
            a.add("--no-reduce");
        }
        if (rotates()) {
            a.add("--rotate");
        } else if (o.pattern() == Pattern.INCAST) {
            a.add("--receiver");
            a.add(Integer.toString(receiver));
        }
        a.addAll(List.of("--join-timeout", Long.toString(seconds(o.hosts().listenTimeout())), "--step-timeout",
                Long.toString(seconds(o.hosts().testTimeout())), "--threads", Integer.toString(o.threads())));
        if (o.rate() != null) {
            a.add("--rate");
            a.add(o.rate().arg());
        }
        return a;
    }

    /**
     * How long the driver waits for every result before it stops the workers still running: ssh's connect, the
     * join timeout, the test timeout per case (it bounds a case and each of its steps; a sweep or a rotating incast
     * runs several), and a grace.
     */
    public Duration deadline() {
        return Duration.ofSeconds(request.hosts().connectTimeoutSeconds()).plus(request.hosts().listenTimeout())
                .plus(request.hosts().testTimeout().multipliedBy(cases().size())).plus(GRACE);
    }

    /** Steps per rank in the pattern (the contract's {@code steps}). */
    public int steps() {
        return switch (request.pattern()) {
            case ALLREDUCE -> 2 * (n() - 1);
            case ALLGATHER, REDUCESCATTER -> n() - 1;
            default -> 1;
        };
    }

    /** The plan line printed before launch. */
    public String summary() {
        FabricRequest o = request;
        StringBuilder b = new StringBuilder();
        b.append(o.pattern().cli()).append(" over ").append(n()).append(" hosts x ").append(rails)
                .append(rails == 1 ? " rail" : " rails").append(" = ").append(ranks.size()).append(" ranks, all at once; ");
        String sweep = sizes.size() == 1 ? bytes() + " B" : sizes.getFirst() + ".." + bytes() + " B (" + sizes.size()
                + " sizes, " + o.sweep().cli() + ")";
        if (o.pattern().ring()) {
            b.append("S = ").append(sweep).append(" of float32 (chunk ").append(sizes.size() == 1 ? bytes() / n()
                    + " B" : "S/" + n()).append("), ")
                    .append(steps()).append(" steps per rank");
        } else {
            b.append("m = ").append(sweep).append(" per peer");
            if (o.pattern() == Pattern.INCAST) {
                b.append(", ").append(senders()).append(" senders to ").append(rotates() ? "each host in turn"
                        : hosts().get(receiver));
            }
            if (o.pattern() == Pattern.BISECTION && n() % 2 == 1) {
                b.append(", ").append(hosts().get(n() - 1)).append(" idle (odd host count)");
            }
        }
        if (o.rate() != null) {
            b.append(", each sender at most ").append(o.rate().text());
        }
        b.append("; ").append(o.iters()).append(" iterations after ").append(o.warmup()).append(" warm-up");
        if (!o.reduce()) {
            b.append(", no reduction");
        }
        b.append("; coordinator ").append(coordinator(0)).append(rails > 1 ? " (port + rail)" : "")
                .append("; results within ").append(String.format(Locale.ROOT, "%d s", deadline().toSeconds()));
        return b.toString();
    }

    private static long seconds(Duration d) {
        return Math.max(1, (d.toMillis() + 999) / 1000);
    }
}
