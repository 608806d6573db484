package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.Role;

import java.time.Duration;

/**
 * A lock-step message channel between the two perftest processes. The TCP implementation is
 * {@link TcpExchangeChannel}; tests substitute a replay of captured bytes.
 */
public interface ExchangeChannel extends AutoCloseable {
    /** Which end we are: decides whether {@link #exchange} writes or reads first. */
    Role role();

    /**
     * One lock-step exchange: the client sends {@code mine} and then reads exactly {@code peerLength} bytes; the
     * server reads first and then sends. {@code phase} names the step in error messages ("key exchange").
     *
     * @throws ExchangeTimeoutException when the peer's bytes do not arrive within {@code timeout}
     * @throws ExchangeException        when the peer closes or the connection fails
     */
    byte[] exchange(byte[] mine, int peerLength, String phase, Duration timeout) throws ExchangeException;

    /**
     * True when keys travel as perftest's binary {@code struct pingpong_dest} ({@link BinaryKeyMessage}), as
     * they do over rdma_cm; false for the text forms of the TCP exchange ({@link KeyMessage}).
     */
    default boolean binaryKeys() {
        return false;
    }

    /**
     * Sends bytes nobody will read (perftest 4.5's "done\0" at close) and ignores any failure: the peer may
     * already have closed.
     */
    void sendAndForget(byte[] bytes);

    /**
     * {@code --run_infinitely} where both sides loop until stopped (ib_send_bw, {@code -b}): C perftest 4.5 sends
     * nothing on the exchange there and its Ctrl-C closes the socket, so the socket's close is the run's end. From
     * now on, whatever the peer sends or its close marks {@link #peerEnded}; nothing is read by the lock-step
     * steps afterwards. A channel that cannot watch (rdma_cm's) is refused those modes by the rules.
     */
    default void watchPeerEnd() {
        throw new UnsupportedOperationException("this exchange cannot watch for the peer's end");
    }

    /** Since {@link #watchPeerEnd}: the peer closed its side (or sent anything, which no endless run does). */
    default boolean peerEnded() {
        return false;
    }

    /** Tells the peer this side has stopped: closes our sending direction, the peer's reads see the end. */
    default void endOurSide() {
    }

    /** Closes the connection; never fails (unread peer bytes may make the kernel send a reset: harmless). */
    @Override
    void close();
}
