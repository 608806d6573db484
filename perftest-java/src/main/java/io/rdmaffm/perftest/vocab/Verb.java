package io.rdmaffm.perftest.vocab;

/** The RDMA operation a perftest tool measures, with the name perftest prints in its banner title. */
public enum Verb {
    /** Two-sided send/receive. */
    SEND("Send"),
    /** One-sided RDMA write. */
    WRITE("RDMA_Write"),
    /** One-sided RDMA read. */
    READ("RDMA_Read"),
    /** One-sided 8-byte atomic (fetch-and-add or compare-and-swap). */
    ATOMIC("Atomic");

    private final String title;

    Verb(String title) {
        this.title = title;
    }

    /** The word perftest uses for this verb in the banner title and in JSON ({@code RDMA_Write}, ...). */
    public String title() {
        return title;
    }

    /** Read and atomic measure a full round trip per sample; send and write latency is a ping-pong halved. */
    public int latencyRttFactor() {
        return this == READ || this == ATOMIC ? 1 : 2;
    }
}
