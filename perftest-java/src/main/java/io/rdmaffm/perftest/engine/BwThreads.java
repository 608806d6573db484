package io.rdmaffm.perftest.engine;

/**
 * {@code --threads T}: one bandwidth loop per share of the QPs, each on its own platform thread (they busy-poll:
 * a virtual thread would pin its carrier anyway) with its own {@link DataPath} (its QPs, its CQs, its prepared
 * work requests) and its own {@link Measurement}, so the loops share nothing while they run. The calling thread
 * drives share 0; the run returns once every loop has ended, with the first failure if any (a loop whose peer
 * stalls ends at the stall limit, so a failed share never leaves the others running past it).
 */
final class BwThreads {
    /** Which of {@link BwLoops}' loops every share runs. */
    enum Loop {
        CLIENT, SEND_SERVER, BIDIRECTIONAL_SEND
    }

    private BwThreads() {
    }

    /** Runs {@code loop} on every share at once and waits for all of them. */
    static void run(Loop loop, DataPath[] sides, Measurement[] ms, BwSpec b, boolean server, int rxDepth) {
        int n = sides.length;
        Throwable[] failures = ParallelShares.run("bw-loop", n, share -> {
            try {
                one(loop, sides[share], ms[share], b, server, rxDepth);
                return null;
            } catch (Throwable e) {
                return e;
            }
        });
        for (int t = 0; t < n; t++) {
            Throwable f = failures[t];
            if (f instanceof RunFailure r) {
                throw n == 1 ? r : new RunFailure("thread " + t + " of " + n + ": " + r.getMessage(), r);
            }
            if (f instanceof RuntimeException r) {
                throw r;
            }
            if (f instanceof Error e) {
                throw e;
            }
        }
    }

    private static void one(Loop loop, DataPath d, Measurement m, BwSpec b, boolean server, int rxDepth) {
        switch (loop) {
            case CLIENT -> BwLoops.client(d, b, m);
            case SEND_SERVER -> BwLoops.sendServer(d, b, rxDepth, m);
            case BIDIRECTIONAL_SEND -> BwLoops.bidirectionalSend(d, b, server, rxDepth, m);
        }
    }
}
