package io.rdmaffm.perftest.cli;

import io.rdmaffm.perftest.fabric.FabricOptions;
import io.rdmaffm.perftest.fabric.FabricPattern;
import io.rdmaffm.perftest.fabric.FabricWorker;
import io.rdmaffm.perftest.fabric.SendRate;
import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.perftest.params.ParameterRules;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code rdma-perftest fabric-worker}: one rank of a {@code fabric} run (hidden: the driver starts it on every host,
 * people do not). Options and result line as docs/fabric-contract.md fixes them; bad input is one line, exit 2.
 * SIGTERM/SIGINT end the run the same way as a failure (QPs to ERR, drained, deregistered; result line with error
 * "interrupted"; exit 2).
 */
@Command(name = FabricWorkerCommand.NAME, hidden = true,
        description = "Runs one rank of a fabric pattern (started by fabric).")
final class FabricWorkerCommand implements Callable<Integer> {
    static final String NAME = "fabric-worker";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--pattern", required = true, paramLabel = "P",
            description = "allreduce, allgather, reducescatter, incast, alltoall or bisection.")
    String pattern;

    @Option(names = "--rank", required = true, paramLabel = "R", description = "This worker's rank (0 coordinates).")
    int rank;

    @Option(names = "--ranks", required = true, paramLabel = "N", description = "How many ranks.")
    int ranks;

    @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT",
            description = "Rank 0's host and port (rank 0 listens there).")
    String coordinator;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEVICE", description = "RDMA device (default: the first).")
    String device;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "IBPORT", defaultValue = "1", description = "Port (default 1).")
    int ibPort;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "GID_INDEX", defaultValue = "-1",
            description = "GID index (default: as the tools choose).")
    int gidIndex;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "1048576",
            description = "Ring patterns: the whole float32 array; others: bytes per peer per iteration. K, M and G"
                    + " suffixes, as fabric's -s.")
    String size;

    @Option(names = "--iters", paramLabel = "K", defaultValue = "20", description = "Timed iterations.")
    int iters;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "2", description = "Untimed iterations first.")
    int warmup;

    @Option(names = "--no-reduce", description = "Ring patterns: move the data without adding.")
    boolean noReduce;

    @Option(names = "--receiver", paramLabel = "RANK", defaultValue = "0", description = "Incast's receiving rank.")
    int receiver;

    @Option(names = "--sizes", paramLabel = "B1,B2,...", split = ",",
            description = "A sweep: these sizes in turn, ascending (each as -s; -s is then left out).")
    String[] sizes;

    @Option(names = "--rotate", description = "Incast: every rank the receiver in turn (--receiver unused).")
    boolean rotate;

    @Option(names = "--join-timeout", paramLabel = "SECONDS", defaultValue = "60",
            description = "Seconds for every rank to join.")
    int joinTimeout;

    @Option(names = "--step-timeout", paramLabel = "SECONDS", defaultValue = "30",
            description = "Seconds any later wait may take.")
    int stepTimeout;

    @Option(names = "--threads", paramLabel = "T", defaultValue = "1",
            description = "Threads, each with its own QP to every peer and a share of every link's bytes.")
    int threads;

    @Option(names = "--rate", paramLabel = "RATE", description = "Each sender's cap in bits per second, as fabric's"
            + " --rate (25G, 800Mb/s); above this port's rate: exit 2 before any QP.")
    String rate;

    @Override
    public Integer call() {
        FabricOptions o = options();
        AtomicBoolean interrupted = new AtomicBoolean();
        CountDownLatch finished = new CountDownLatch(1);
        AtomicBoolean done = new AtomicBoolean();
        // SIGTERM/SIGINT: the run notices the flag at its next poll, cleans up and prints its result; exit 2.
        Thread hook = new Thread(() -> {
            if (done.get()) {
                return;
            }
            interrupted.set(true);
            try {
                finished.await(o.stepTimeoutS() + 5L, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            System.out.flush();
            Runtime.getRuntime().halt(ErrorHandler.EXIT_FAILURE);
        }, "fabric-worker-signal");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return new FabricWorker(o, System.out, System.err, interrupted::get).run();
        } finally {
            finished.countDown();
            if (!interrupted.get()) {
                done.set(true);
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException e) {
                    // shutting down already: the hook sees done and returns
                }
            }
        }
    }

    /** The options as one checked record; a bad one is a parameter error (one line, exit 2). */
    FabricOptions options() {
        try {
            FabricPattern p = FabricPattern.of(pattern);
            int colon = coordinator.lastIndexOf(':');
            if (colon <= 0 || colon == coordinator.length() - 1) {
                throw new IllegalArgumentException("--coordinator wants HOST:PORT, got '" + coordinator + "'");
            }
            String host = coordinator.substring(0, colon);
            if (host.startsWith("[") && host.endsWith("]")) {
                host = host.substring(1, host.length() - 1);
            }
            int port;
            try {
                port = Integer.parseInt(coordinator.substring(colon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--coordinator wants HOST:PORT, got '" + coordinator + "'");
            }
            long[] all;
            try {
                if (sizes == null) {
                    all = new long[] {ParameterRules.parseCollectiveSize(size)};
                } else {
                    all = new long[sizes.length];
                    for (int i = 0; i < sizes.length; i++) {
                        all[i] = ParameterRules.parseCollectiveSize(sizes[i]);
                    }
                }
            } catch (InvalidParameterException e) {
                throw new IllegalArgumentException((sizes == null ? "-s: " : "--sizes: ") + e.getMessage());
            }
            return new FabricOptions(p, rank, ranks, host, port, device, ibPort, gidIndex, all[all.length - 1], iters,
                    warmup, !noReduce, receiver, joinTimeout, stepTimeout, threads, all, rotate,
                    rate == null ? null : SendRate.parse(rate)).validate();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
