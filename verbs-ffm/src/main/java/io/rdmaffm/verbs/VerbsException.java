package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.LibC;

import java.lang.foreign.MemorySegment;

/**
 * A verb failed. Carries the C verb's name, the errno it reported (captured in the call itself), the
 * system's text for it, and what was being done (device, port, QP number, state transition). A failed
 * work completion is not an exception: it is a {@link WorkCompletionStatus} in the polled completions.
 */
public class VerbsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String verb;
    private final int errno;
    private final String context;

    public VerbsException(String verb, int errno, String context) {
        super(format(verb, errno, context));
        this.verb = verb;
        this.errno = errno;
        this.context = context == null ? "" : context;
    }

    /** The C verb that failed, e.g. {@code ibv_modify_qp}. */
    public String verb() {
        return verb;
    }

    /** The errno value the verb reported (0 if it reported none). */
    public int errno() {
        return errno;
    }

    /** What the call was about, e.g. {@code device rxe0, QP 0x11, INIT->RTR}; empty if nothing to add. */
    public String context() {
        return context;
    }

    /** The system's description of {@link #errno()}. */
    public String errnoText() {
        return strerror(errno);
    }

    private static String format(String verb, int errno, String context) {
        StringBuilder sb = new StringBuilder(verb).append(" failed");
        if (errno != 0) {
            sb.append(": ").append(strerror(errno)).append(" (errno ").append(errno).append(')');
        }
        if (context != null && !context.isEmpty()) {
            sb.append(" [").append(context).append(']');
        }
        return sb.toString();
    }

    static String strerror(int errno) {
        if (errno == 0) {
            return "no error reported";
        }
        try {
            MemorySegment s = (MemorySegment) LibC.strerror.handle().invokeExact(errno);
            return s.reinterpret(512).getString(0);
        } catch (Throwable t) {
            return "errno " + errno;
        }
    }
}
