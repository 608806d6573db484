package io.rdmaffm.perftest.exchange;

import java.time.Duration;

/**
 * Time limits for every blocking step of the exchange. C perftest waits forever at each of them; we end with a
 * clear message instead.
 *
 * @param connect  client: establishing the TCP connection
 * @param accept   server: waiting for the client to connect
 * @param io       each message read while the peer is expected to answer promptly
 * @param peerRun      a read that waits while the peer runs its measurement (e.g. the server's handshake that
 *                     returns when the client has finished); the engine should size it from the run it expects
 * @param firstMessage the read of the peer's first message (the versions): a perftest-java peer connects
 *                     before its warm-up and sends it after, so this allows for the peer's warm-up on top of
 *                     {@code io}
 */
public record ExchangeTimeouts(Duration connect, Duration accept, Duration io, Duration peerRun,
        Duration firstMessage) {
    /** Checks all limits are positive. */
    public ExchangeTimeouts {
        for (Duration d : new Duration[] {connect, accept, io, peerRun, firstMessage}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("time limits must be positive");
            }
        }
    }

    /** Limits where the first message has the same limit as every other. */
    public ExchangeTimeouts(Duration connect, Duration accept, Duration io, Duration peerRun) {
        this(connect, accept, io, peerRun, io);
    }

    /** 10 s to connect and per message, 60 s for a client to show up, 120 s for a peer's run. */
    public static ExchangeTimeouts defaults() {
        return new ExchangeTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(60), Duration.ofSeconds(10),
                Duration.ofSeconds(120));
    }

    /** The same limits with a different limit for reads that wait for the peer's run. */
    public ExchangeTimeouts withPeerRun(Duration d) {
        return new ExchangeTimeouts(connect, accept, io, d, firstMessage);
    }

    /** The same limits with {@code allowance} added to the first message's (a peer's warm-up). */
    public ExchangeTimeouts withFirstMessageAllowance(Duration allowance) {
        return new ExchangeTimeouts(connect, accept, io, peerRun, io.plus(allowance));
    }

    /** "10 s", "1.5 s" or "250 ms": how limits appear in error messages. */
    public static String describe(Duration d) {
        long ms = d.toMillis();
        if (ms < 1000) {
            return ms + " ms";
        }
        if (ms % 1000 == 0) {
            return (ms / 1000) + " s";
        }
        return String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }
}
