package io.rdmaffm.perftest.engine;

/**
 * {@code --run_infinitely} where both sides loop until stopped (ib_send_bw's receiver, {@code -b}): how a side
 * learns that its peer stopped, and tells it that it stopped. C perftest 4.5 has no message for it (its Ctrl-C
 * closes the exchange socket), so the exchange connection's close carries it ({@code run.ExchangePeerEnd}).
 */
public interface PeerEnd {
    /** A peer with no end to watch for (the uni-directional write and read tools: the passive side waits). */
    PeerEnd NONE = new PeerEnd() {
        @Override
        public boolean ended() {
            return false;
        }

        @Override
        public void endOurs() {
        }
    };

    /** Whether the peer has stopped (a plain volatile read: the loops call it between polls). */
    boolean ended();

    /** Tells the peer this side has stopped; once, after this side's own work requests have drained. */
    void endOurs();
}
