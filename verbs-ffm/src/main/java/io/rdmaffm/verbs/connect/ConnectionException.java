package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.WorkCompletionStatus;

/**
 * A connection operation did not succeed: it timed out, the connection was closed while it was pending, the peer
 * disconnected or went away, a work completion failed, or connecting failed. The {@link #reason()} says which; the
 * message names the operation (and for a failed completion its status). A timeout leaves the connection usable;
 * every other reason means the connection is finished, and every later operation on it throws this reason again.
 */
public class ConnectionException extends VerbsException {
    private static final long serialVersionUID = 1L;
    static final int ETIMEDOUT = 110;
    static final int ECONNRESET = 104;
    static final int ECONNABORTED = 103;
    static final int ECONNREFUSED = 111;
    static final int EPROTO = 71;

    /** Why an operation did not succeed. */
    public enum Reason {
        /** Its deadline passed first; the connection stays usable. */
        TIMEOUT,
        /** The connection was closed (by this side) while it was pending. */
        CLOSED,
        /** The peer disconnected, or its process or host went away. */
        PEER_DISCONNECTED,
        /** A work completion failed (its status is in {@link #status()}); the queue pair is in the error state. */
        FAILED_COMPLETION,
        /** Connecting or accepting failed: unreachable, nobody listening, rejected, or an incompatible peer. */
        CONNECT_FAILED
    }

    private final Reason reason;
    private final transient WorkCompletionStatus status;

    ConnectionException(Reason reason, String verb, int errno, String context, WorkCompletionStatus status,
                        Throwable cause) {
        super(verb, errno, context);
        this.reason = reason;
        this.status = status;
        if (cause != null) {
            initCause(cause);
        }
    }

    static ConnectionException timeout(String what, java.time.Duration timeout, String about) {
        return new ConnectionException(Reason.TIMEOUT, what, ETIMEDOUT, "not done within " + timeout.toMillis()
                + " ms, " + about, null, null);
    }

    /** This failure again, for a later call: the same reason and message, this call's stack, the first as cause. */
    ConnectionException again() {
        return new ConnectionException(reason, verb(), errno(), context(), status, this);
    }

    public Reason reason() {
        return reason;
    }

    /** True for {@link Reason#TIMEOUT}. */
    public boolean isTimeout() {
        return reason == Reason.TIMEOUT;
    }

    /** The failed work completion's status, for {@link Reason#FAILED_COMPLETION}; else null. */
    public WorkCompletionStatus status() {
        return status;
    }
}
