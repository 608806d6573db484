package io.rdmaffm.perftest.fabric;

/**
 * What an incast, all-to-all or bisection lane needs from its QPs, over RDMA ({@link RdmaEndpoint}) or in memory
 * (the host tests). Link i is the i-th link of the rank's plan; every wait ends by its deadline with a
 * {@link FabricFailure}.
 */
interface PeerLinks {
    /**
     * Writes {@code bytes} from this rank's region at {@code from} to {@code to} past the address the peer gave for
     * this lane of the link; the peer learns of it through {@code imm} (WRITE_WITH_IMM).
     */
    void write(int link, long from, long bytes, long to, int imm);

    /** The next immediate from the peer of {@code link}, waiting at most a step. */
    int awaitImm(int link);

    /** Waits until every link's writes have completed. */
    void awaitAllSends();

    /**
     * On: the write times start afresh and count (the timed iterations begin); off: they stop counting (the check's
     * iteration and anything after are left out).
     */
    void timeWrites(boolean on);
}
