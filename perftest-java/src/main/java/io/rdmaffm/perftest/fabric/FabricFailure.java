package io.rdmaffm.perftest.fabric;

/** Why a worker stopped: one line, naming the peer rank (and host) when a peer is the cause. */
public final class FabricFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message the one line */
    public FabricFailure(String message) {
        super(message);
    }
}
