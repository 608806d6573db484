package io.rdmaffm.perftest.fabric;

/**
 * What a ring rank needs from its two neighbours, over RDMA ({@link RdmaRingLinks}) or in memory (the host tests).
 * Offsets are into the rank's one region ({@link RingLayout}); every rank has the same layout, so an offset means
 * the same place at the next rank. Every wait ends by its deadline with a {@link FabricFailure}.
 */
interface RingLinks {
    /**
     * Writes {@code bytes} from this rank's region at {@code from} into the next rank's region at {@code to}; the
     * next rank learns of it through {@code imm} (WRITE_WITH_IMM).
     */
    void writeNext(long from, long bytes, long to, int imm);

    /** A message without data to the previous rank: a credit or "ready" (a zero-byte WRITE_WITH_IMM). */
    void signalPrev(int imm);

    /** The next immediate from the previous rank (a write has landed), waiting at most a step. */
    int awaitPrev();

    /** The next immediate from the next rank (a credit or "ready"), waiting at most a step. */
    int awaitNext();

    /** Waits until every write and signal posted so far has completed (its source may change again). */
    void awaitSends();

    /** As {@link PeerLinks#timeWrites}; nothing where no write times are kept. */
    default void timeWrites(boolean on) {
    }
}
