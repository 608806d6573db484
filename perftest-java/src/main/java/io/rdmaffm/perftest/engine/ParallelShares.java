package io.rdmaffm.perftest.engine;

/**
 * Runs the pieces of one run at once: piece 0 on the calling thread, each other piece on a platform thread of its
 * own (the pieces busy-poll their CQs: a virtual thread would pin its carrier anyway). Waits for every piece and
 * hands back each one's failure. The bandwidth tools' shares ({@link BwThreads}) and fabric's lanes run on it.
 */
public final class ParallelShares {
    private ParallelShares() {
    }

    /** One piece of the run; returns its failure, or null when it ended well. */
    @FunctionalInterface
    public interface Piece {
        Throwable run(int index);
    }

    /**
     * @param threadName the other pieces' threads are named {@code threadName-index}
     * @return per piece, its failure or null
     */
    public static Throwable[] run(String threadName, int n, Piece piece) {
        Throwable[] failures = new Throwable[n];
        Thread[] threads = new Thread[n];
        for (int t = 1; t < n; t++) {
            int index = t;
            threads[t] = Thread.ofPlatform().name(threadName + "-" + t).daemon(true).unstarted(
                    () -> failures[index] = piece.run(index));
        }
        for (int t = 1; t < n; t++) {
            threads[t].start();
        }
        failures[0] = piece.run(0);
        boolean interrupted = false;
        for (int t = 1; t < n; t++) {
            while (true) {
                try {
                    threads[t].join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // every piece ends by itself within its own deadline: wait for it
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return failures;
    }
}
