package io.rdmaffm.perftest.fabric;

/**
 * One lane of incast, all-to-all or bisection: per iteration, every sending link writes this lane's share of the
 * m bytes ({@code from}, {@code bytes}: the same place at both ends, {@code from} past the slot the peer's QP
 * record points to, so that one set of QPs serves every size of a sweep), then every receiving link's immediate is
 * awaited and checked, then the sends' completions; with {@code --rate}, a timed iteration is then held by the
 * {@link SendPacer} until its gap has passed.
 */
final class PeerLane implements LaneWork {
    private final FabricWorker.Plan plan;
    private final PeerLinks links;
    private final long from;
    private final long bytes;
    private final SendPacer pacer;
    private boolean timed;

    /**
     * @param from  this lane's first byte of the m bytes per link
     * @param bytes its share (at least 1)
     */
    PeerLane(FabricWorker.Plan plan, PeerLinks links, long from, long bytes) {
        this(plan, links, from, bytes, SendPacer.NONE);
    }

    /** @param pacer {@code --rate}'s, for the rank's bytes per iteration ({@link SendPacer#NONE} without) */
    PeerLane(FabricWorker.Plan plan, PeerLinks links, long from, long bytes, SendPacer pacer) {
        this.plan = plan;
        this.links = links;
        this.from = from;
        this.bytes = bytes;
        this.pacer = pacer;
    }

    @Override
    public void iteration(int seq) {
        boolean paced = timed; // warm-up is not paced, as perftest paces only the measured run
        if (paced) {
            pacer.begin();
        }
        for (int i = 0; i < plan.peers.length; i++) {
            if (plan.sends[i]) {
                links.write(i, from, bytes, from, seq); // the same place past the peer's slot
            }
        }
        for (int i = 0; i < plan.peers.length; i++) {
            if (plan.receives[i]) {
                int imm = links.awaitImm(i);
                if (imm != seq) {
                    throw new FabricFailure("rank " + plan.peers[i] + " wrote iteration " + imm + " where " + seq
                            + " was due");
                }
            }
        }
        links.awaitAllSends();
        if (paced) {
            pacer.hold();
        }
    }

    @Override
    public void timed(boolean on) {
        timed = on;
        links.timeWrites(on);
    }

    /** Payload bytes this lane writes per iteration. */
    long bytesSentPerIteration() {
        return plan.sendsPerIteration * bytes;
    }

    /** Payload bytes written into this lane per iteration. */
    long bytesReceivedPerIteration() {
        return plan.receivesPerIteration * bytes;
    }
}
