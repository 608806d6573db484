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

    /** Closes the connection; never fails (unread peer bytes may make the kernel send a reset: harmless). */
    @Override
    void close();
}
