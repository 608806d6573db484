package io.rdmaffm.perftest.exchange;

/** A blocking step of the exchange (connect, accept, or a read) did not finish within its time limit. */
public final class ExchangeTimeoutException extends ExchangeException {
    private static final long serialVersionUID = 1L;

    /** A read from a connected peer that timed out, with a user-facing message. */
    public ExchangeTimeoutException(String message, Throwable cause) {
        super(message, cause, false);
    }

    /**
     * A time-out with a user-facing message.
     *
     * @param beforeConnection true for a connect or accept that timed out (no peer took part)
     */
    public ExchangeTimeoutException(String message, Throwable cause, boolean beforeConnection) {
        super(message, cause, beforeConnection);
    }
}
