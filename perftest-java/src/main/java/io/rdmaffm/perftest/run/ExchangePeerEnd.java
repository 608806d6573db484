package io.rdmaffm.perftest.run;

import io.rdmaffm.perftest.engine.PeerEnd;
import io.rdmaffm.perftest.exchange.ExchangeChannel;

/**
 * {@code --run_infinitely} where both sides loop (ib_send_bw, {@code -b}): the exchange connection's close is the
 * end, ours and the peer's. C perftest 4.5 sends nothing there and closes the socket when Ctrl-C kills it, so a
 * C peer's end reads the same as ours.
 */
final class ExchangePeerEnd implements PeerEnd {
    private final ExchangeChannel channel;
    private boolean told;

    ExchangePeerEnd(ExchangeChannel channel) {
        this.channel = channel;
    }

    /** From now on (after the last lock-step message before the loop) the peer's close is watched for. */
    void watch() {
        channel.watchPeerEnd();
    }

    @Override
    public boolean ended() {
        return channel.peerEnded();
    }

    @Override
    public void endOurs() {
        if (!told) {
            told = true;
            channel.endOurSide();
        }
    }
}
