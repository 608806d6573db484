package io.rdmaffm.perftest.exchange;

import java.io.IOException;

/**
 * A failure of the out-of-band exchange whose message is meant for the user as is: one line that says what
 * went wrong and during which phase (e.g. "peer did not answer the key exchange within 10 s").
 */
public class ExchangeException extends IOException {
    private static final long serialVersionUID = 1L;

    /** An exchange failure with a user-facing message. */
    public ExchangeException(String message) {
        super(message);
    }

    /** An exchange failure with a user-facing message and the low-level cause (kept for --debug). */
    public ExchangeException(String message, Throwable cause) {
        super(message, cause);
    }
}
