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
 * @param receiver   incast's receiving rank within each rail (the host's index)
 * @param notes      what the user should know
 */
public record FabricPlan(FabricRequest request, DiscoveredHosts discovered, List<Rank> ranks, int rails,
        int receiver, List<String> notes) {

    /** Grace after the workers' own bounds before the driver stops what still runs. */
    static final Duration GRACE = Duration.ofSeconds(15);

    /** Copies the lists. */
    public FabricPlan {
        ranks = List.copyOf(ranks);
        notes = List.copyOf(notes);
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
        a.addAll(List.of("-s", Long.toString(o.bytes()), "--iters", Integer.toString(o.iters()), "--warmup",
                Integer.toString(o.warmup())));
        if (!o.reduce()) {
            a.add("--no-reduce");
        }
        if (o.pattern() == Pattern.INCAST) {
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
     * join timeout, the test timeout (which bounds the pattern and each of its steps), and a grace.
     */
    public Duration deadline() {
        return Duration.ofSeconds(request.hosts().connectTimeoutSeconds()).plus(request.hosts().listenTimeout())
                .plus(request.hosts().testTimeout()).plus(GRACE);
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
        if (o.pattern().ring()) {
            b.append("S = ").append(o.bytes()).append(" B of float32 (chunk ").append(o.bytes() / n()).append(" B), ")
                    .append(steps()).append(" steps per rank");
        } else {
            b.append("m = ").append(o.bytes()).append(" B per peer");
            if (o.pattern() == Pattern.INCAST) {
                b.append(", ").append(senders()).append(" senders to ").append(hosts().get(receiver));
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
