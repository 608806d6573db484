package io.rdmaffm.perftest.engine;

/**
 * {@code --run_infinitely}: where each interval's row goes, what stops this side (Ctrl-C) and how the peer's stop
 * is learned and ours told. Picks perftest's loop for the side: the sender's (run_iter_bw_infinitely, both sides
 * of {@code -b}) or ib_send_bw's receiver's (run_iter_bw_infinitely_server).
 */
public final class EndlessRun {
    private final IntervalSink sink;
    private final StopSignal stop;
    private final PeerEnd peer;

    /** Rows to {@code sink}; {@code stop} ends this side; {@code peer} the other's end ({@link PeerEnd#NONE}: none). */
    public EndlessRun(IntervalSink sink, StopSignal stop, PeerEnd peer) {
        this.sink = sink;
        this.stop = stop;
        this.peer = peer;
    }

    /**
     * The loop until stopped: {@code receiver} for ib_send_bw's receiving side; {@code peerUsesUs} for {@code -b},
     * where this side's QPs serve the peer's traffic until it has stopped. The whole run's count and time come back.
     */
    RunResult run(DataPath d, BwSpec b, Measurement m, boolean receiver, boolean peerUsesUs, long wire) {
        if (receiver) {
            BwLoops.sendServerInfinitely(d, b, m, sink, stop, peer);
        } else {
            BwLoops.clientInfinitely(d, b, m, sink, stop, peer, peerUsesUs);
        }
        return new RunResult.Window(wire, m.counted, m.windowStart, m.windowEnd, Verification.none());
    }
}
