package io.rdmaffm.perftest.engine;

/** The measured run could not finish: a failed completion, a stalled peer, a rejected post. One line for the user. */
public final class RunFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RunFailure(String message) {
        super(message);
    }

    public RunFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
