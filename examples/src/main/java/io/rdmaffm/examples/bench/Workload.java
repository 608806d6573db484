package io.rdmaffm.examples.bench;

import org.HdrHistogram.Histogram;

/**
 * The two jobs a new user's program did, between a client and a server in this process: move a buffer to the server
 * with pipelined RDMA WRITEs (16 in flight, every 8th signaled, 64 KiB each) and read 8 bytes of it back, one RDMA
 * READ at a time. Implemented once through raw verbs and rdma_cm ({@link RawVerbsWorkload}) and once through the
 * connection API ({@link ConnectionWorkload}).
 */
interface Workload extends AutoCloseable {
    /** Bytes per RDMA WRITE of the transfer. */
    int WRITE_SIZE = 64 * 1024;
    /** Work requests in flight during the transfer. */
    int IN_FLIGHT = 16;
    /** Every how many writes one is signaled. */
    int SIGNAL_EVERY = 8;

    String name();

    /** Writes the client's whole source buffer into the server's; returns the nanoseconds from first post to last completion. */
    long transfer();

    /** True when the server's buffer equals the client's source, byte for byte. */
    boolean verify();

    /** {@code n} 8-byte READs, one at a time, each timed into {@code into} (null: untimed). */
    void reads(int n, Histogram into);

    @Override
    void close();
}
