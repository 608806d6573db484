package io.rdmaffm.verbs.internal;

import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.VerbsUnsupportedException;
import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Downcalls;

/**
 * How a failed native call becomes an exception, for the verbs and the rdma_cm packages alike: the errno of a
 * verb's result, the exception type for an errno, and the one rethrow every {@code invokeExact} needs.
 */
public final class Errors {
    private Errors() {
    }

    /** The right subtype for an errno: "unsupported" for EOPNOTSUPP, ENOSYS and EPROTONOSUPPORT. */
    public static VerbsException of(String verb, int errno, String context) {
        if (errno == Constants.EOPNOTSUPP || errno == Constants.ENOSYS || errno == Constants.EPROTONOSUPPORT) {
            return new VerbsUnsupportedException(verb, errno, context);
        }
        return new VerbsException(verb, errno, context);
    }

    /**
     * The errno of a failed call's result: verbs return an errno value, or -1 with errno set (captured by the
     * call itself, see {@link Downcalls#errnoState()}); librdmacm always the latter.
     */
    public static int errnoOf(int rc) {
        return rc > 0 ? rc : Downcalls.errno();
    }

    /** Throws the exception for a verb's result unless it is 0. */
    public static void check(String verb, int rc, String context) {
        if (rc != 0) {
            throw of(verb, errnoOf(rc), context);
        }
    }

    /**
     * The errno in a post verb's return value. verbs.h documents an errno value, but providers differ:
     * Soft-RoCE's user-space post_recv/post_srq_recv/post_send return it negated (-ENOMEM for a full queue,
     * -EINVAL for too many SGEs) while its doorbell path returns it positive. Either way the magnitude is it.
     */
    public static int postErrno(int rc) {
        return rc < 0 ? -rc : rc;
    }

    /**
     * For {@code catch (Throwable t) { throw Errors.unchecked(t); }} around {@code invokeExact}, which declares
     * Throwable: unchecked exceptions and errors pass unchanged (our own VerbsException among them); a checked
     * one, which no downcall throws, is wrapped.
     */
    public static RuntimeException unchecked(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
