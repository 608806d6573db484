package io.rdmaffm.perftest.params;

/**
 * A command line that perftest refuses: the message is perftest's one line for it (or ours where perftest
 * says nothing useful). The CLI shows it with exit code 2.
 */
public final class InvalidParameterException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** A refusal with a user-facing message. */
    public InvalidParameterException(String message) {
        super(message);
    }
}
