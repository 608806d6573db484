package io.rdmaffm.perftest.fabric;

/**
 * One worker's orders, checked (the contract's command line, docs/fabric-design.md §4): what {@code fabric-worker}
 * parses becomes this, and nothing runs before {@link #validate()} has accepted it.
 *
 * @param pattern          the traffic
 * @param rank             this worker's rank, 0..ranks-1 (0 runs the coordinator)
 * @param ranks            N
 * @param coordinatorHost  rank 0's host
 * @param coordinatorPort  the coordinator's TCP port
 * @param device           the RDMA device, or null for the first
 * @param ibPort           the port, from 1
 * @param gidIndex         the GID index, or -1 for the tools' choice
 * @param bytes            S (ring patterns: the whole float32 array) or m (bytes per peer per iteration)
 * @param iters            timed iterations
 * @param warmup           untimed iterations before them
 * @param reduce           false: {@code --no-reduce}, the ring moves data without adding
 * @param receiver         incast's receiving rank
 * @param joinTimeoutS     seconds for every rank to join
 * @param stepTimeoutS     seconds any later wait may take
 * @param threads          lanes per link, each driven by its own thread ({@link #threadsProblem})
 * @param sizes            the sizes to run in turn (a sweep, {@code --sizes}), ascending; {@code bytes} is the last
 * @param rotate           incast: every rank the receiver in turn ({@code --rotate}), {@code receiver} unused
 * @param rate             {@code --rate}: each sender's cap, null for none ({@link #rateProblem})
 */
public record FabricOptions(FabricPattern pattern, int rank, int ranks, String coordinatorHost, int coordinatorPort,
        String device, int ibPort, int gidIndex, long bytes, int iters, int warmup, boolean reduce, int receiver,
        int joinTimeoutS, int stepTimeoutS, int threads, long[] sizes, boolean rotate, SendRate rate) {

    /** One size, one receiver, no {@code --rate} (the orders before sweeps, rotation and rates). */
    public FabricOptions(FabricPattern pattern, int rank, int ranks, String coordinatorHost, int coordinatorPort,
            String device, int ibPort, int gidIndex, long bytes, int iters, int warmup, boolean reduce, int receiver,
            int joinTimeoutS, int stepTimeoutS, int threads) {
        this(pattern, rank, ranks, coordinatorHost, coordinatorPort, device, ibPort, gidIndex, bytes, iters, warmup,
                reduce, receiver, joinTimeoutS, stepTimeoutS, threads, new long[] {bytes}, false, null);
    }

    /** These orders for one case of the run: {@code size} bytes, {@code target} the incast receiver. */
    FabricOptions forCase(long size, int target) {
        return new FabricOptions(pattern, rank, ranks, coordinatorHost, coordinatorPort, device, ibPort, gidIndex,
                size, iters, warmup, reduce, target, joinTimeoutS, stepTimeoutS, threads, new long[] {size}, false,
                rate);
    }

    /** The incast receivers in turn: every rank when rotating, else {@code receiver}; -1 alone for other patterns. */
    int[] targets() {
        if (pattern != FabricPattern.INCAST) {
            return new int[] {-1};
        }
        if (!rotate) {
            return new int[] {receiver};
        }
        int[] t = new int[ranks];
        for (int i = 0; i < ranks; i++) {
            t[i] = i;
        }
        return t;
    }

    /** The sum of N inputs ((r + j) mod 251, at most 250 each) must stay an exact float32 integer (below 2^24). */
    static final int MAX_RING_RANKS = (1 << 24) / 250;

    /** Threads per rank at most: each adds a QP per link and a busy-polling core. */
    public static final int MAX_THREADS = 64;

    /**
     * What is wrong with {@code --threads}, for the worker and for the driver before it launches any, or null. Each
     * of the T threads drives one lane of every link and carries a share of its bytes (docs/fabric-design.md §11):
     * of the m bytes per link (incast, all-to-all, bisection), of each chunk's S/(4N) float32 elements (ring
     * patterns), so T may not exceed them.
     *
     * @param ring   a ring pattern
     * @param ranks  N (the ranks of one ring)
     * @param bytes  -s: m, or S for the ring patterns (already checked to split into N chunks of whole elements)
     */
    public static String threadsProblem(boolean ring, int ranks, long bytes, int threads) {
        if (threads < 1) {
            return "--threads must be at least 1, not " + threads;
        }
        if (threads > MAX_THREADS) {
            return "--threads " + threads + " is above " + MAX_THREADS + " (threads per rank)";
        }
        if (ring) {
            long elements = bytes / 4 / ranks;
            if (threads > elements) {
                return "--threads " + threads + ": each thread takes a share of every chunk's float32 elements, and"
                        + " -s " + bytes + " over " + ranks + " ranks has " + elements + " per chunk";
            }
        } else if (threads > bytes) {
            return "--threads " + threads + ": each thread takes a share of the " + bytes + " bytes (-s) every link"
                    + " carries";
        }
        return null;
    }

    /**
     * The bytes one sender of {@code p} sends per iteration, its links together: incast and bisection m, all-to-all
     * (N − 1)·m (the ring patterns take no {@code --rate}).
     */
    public static long sentPerIteration(FabricPattern p, int ranks, long bytes) {
        return p == FabricPattern.ALLTOALL ? (ranks - 1L) * bytes : p.ring() ? 0 : bytes;
    }

    /**
     * What is wrong with {@code --rate} (docs/fabric-design.md §12), for the worker and for the driver before it
     * launches any, or null: the ring patterns take none (they run in lock-step, every step waiting for the previous
     * rank's, so a cap on a sender is a cap on the whole ring); and {@code iters} paced iterations must fit within
     * {@code limitNanos} (the worker: one, within a step's wait; the driver: all, within {@code --test-timeout}).
     */
    public static String rateProblem(FabricPattern p, int ranks, long bytes, int iters, SendRate rate,
            long limitNanos, String limit) {
        if (rate == null) {
            return null;
        }
        if (p.ring()) {
            return "--rate paces incast, alltoall and bisection senders, not " + p.id() + " (a ring runs in lock-step:"
                    + " docs/fabric-design.md §12)";
        }
        long gap = rate.gapNanos(sentPerIteration(p, ranks, bytes));
        if (gap >= limitNanos / iters) {
            return String.format(java.util.Locale.ROOT, "--rate %s: %d iteration%s of %d B per sender take%s at least"
                    + " %.1f s at that rate, not within %s %d s", rate.text(), iters, iters == 1 ? "" : "s",
                    sentPerIteration(p, ranks, bytes), iters == 1 ? "s" : "", (double) gap * iters / 1e9, limit,
                    limitNanos / 1_000_000_000L);
        }
        return null;
    }

    /**
     * Checks the orders against each other.
     *
     * @return this
     * @throws IllegalArgumentException with one line naming the option
     */
    public FabricOptions validate() {
        if (ranks < 1) {
            throw new IllegalArgumentException("--ranks must be at least 1, not " + ranks);
        }
        if (rank < 0 || rank >= ranks) {
            throw new IllegalArgumentException("--rank " + rank + " is not in 0.." + (ranks - 1) + " (--ranks " + ranks
                    + ")");
        }
        if (coordinatorPort < 1 || coordinatorPort > 65535) {
            throw new IllegalArgumentException("--coordinator: port " + coordinatorPort + " is not in 1..65535");
        }
        if (ibPort < 1) {
            throw new IllegalArgumentException("-i must be at least 1, not " + ibPort);
        }
        if (bytes < 1) {
            throw new IllegalArgumentException("-s must be at least 1, not " + bytes);
        }
        if (iters < 1) {
            throw new IllegalArgumentException("--iters must be at least 1, not " + iters);
        }
        if (warmup < 0) {
            throw new IllegalArgumentException("--warmup must not be negative, not " + warmup);
        }
        if (joinTimeoutS < 1 || stepTimeoutS < 1) {
            throw new IllegalArgumentException("--join-timeout and --step-timeout must be at least 1 second");
        }
        if (sizes == null || sizes.length == 0 || sizes[sizes.length - 1] != bytes) {
            throw new IllegalArgumentException("--sizes must end with the largest size, -s " + bytes);
        }
        for (int i = 0; i < sizes.length; i++) {
            if (i > 0 && sizes[i] <= sizes[i - 1]) {
                throw new IllegalArgumentException("--sizes must ascend: " + sizes[i] + " after " + sizes[i - 1]);
            }
            if (sizes.length > 1) {
                forCase(sizes[i], receiver).validate(); // every size meets the rules one size meets
            }
        }
        if (receiver < 0 || receiver >= ranks) {
            throw new IllegalArgumentException("--receiver " + receiver + " is not in 0.." + (ranks - 1));
        }
        if (pattern.ring()) {
            if (bytes % (4L * ranks) != 0) {
                throw new IllegalArgumentException("-s " + bytes + " is not a multiple of 4 x " + ranks
                        + " ranks = " + 4L * ranks + " (float32 elements, one chunk per rank)");
            }
            if (ranks > MAX_RING_RANKS) {
                throw new IllegalArgumentException("--ranks " + ranks + ": the checked sum would pass 2^24 (at most "
                        + MAX_RING_RANKS + " ranks)");
            }
            if (bytes / ranks > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("-s " + bytes + ": a chunk of " + bytes / ranks
                        + " bytes is above 2^31 - 1 (one RDMA write)");
            }
        } else if (bytes > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("-s " + bytes + " is above 2^31 - 1 (one RDMA write per peer)");
        }
        String t = threadsProblem(pattern.ring(), ranks, bytes, threads);
        if (t != null) {
            throw new IllegalArgumentException(t);
        }
        String r = rateProblem(pattern, ranks, bytes, 1, rate, stepTimeoutS * 1_000_000_000L, "--step-timeout");
        if (r != null) {
            throw new IllegalArgumentException(r);
        }
        if (pattern == FabricPattern.INCAST && ranks < 2) {
            throw new IllegalArgumentException("incast needs at least 2 ranks, not " + ranks);
        }
        if (pattern == FabricPattern.ALLTOALL && ranks < 2) {
            throw new IllegalArgumentException("alltoall needs at least 2 ranks, not " + ranks);
        }
        if (pattern == FabricPattern.BISECTION && ranks < 2) {
            throw new IllegalArgumentException("bisection needs at least 2 ranks, not " + ranks);
        }
        return this;
    }
}
