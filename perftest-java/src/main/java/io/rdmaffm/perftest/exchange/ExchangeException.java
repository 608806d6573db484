package io.rdmaffm.perftest.exchange;

import java.io.IOException;

/**
 * A failure of the out-of-band exchange whose message is meant for the user as is: one line that says what
 * went wrong and during which phase (e.g. "peer did not answer the key exchange within 10 s"). Bytes the peer
 * sent appear in it only through {@link Untrusted}.
 *
 * <p>{@link #beforeConnection()} tells the two kinds apart for the exit status: a connection that never came
 * up (nothing listening, no client, unknown host, port taken) is a set-up failure; anything after that (the
 * peer closed, stalled, died or sent nonsense) is a failed run.
 */
public class ExchangeException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean beforeConnection;

    /** A failure of a run whose control connection was up, with a user-facing message. */
    public ExchangeException(String message) {
        this(message, null, false);
    }

    /** A failure of a run whose control connection was up, with the low-level cause (kept for --debug). */
    public ExchangeException(String message, Throwable cause) {
        this(message, cause, false);
    }

    /**
     * @param beforeConnection true when the control connection never came up (listen, connect, accept)
     */
    protected ExchangeException(String message, Throwable cause, boolean beforeConnection) {
        super(message, cause);
        this.beforeConnection = beforeConnection;
    }

    /** The control connection could not be set up: listening, connecting or accepting failed. */
    public static ExchangeException beforeConnection(String message, Throwable cause) {
        return new ExchangeException(message, cause, true);
    }

    /**
     * True when the control connection never came up, so no peer took part (a set-up failure, exit status 2);
     * false when the run had a peer and then failed (exit status 1).
     */
    public boolean beforeConnection() {
        return beforeConnection;
    }
}
