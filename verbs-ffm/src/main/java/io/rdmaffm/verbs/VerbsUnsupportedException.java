package io.rdmaffm.verbs;

/**
 * The device or provider does not implement the operation (EOPNOTSUPP, ENOSYS, EPROTONOSUPPORT), e.g. XRC,
 * device memory or rereg_mr on Soft-RoCE.
 */
public class VerbsUnsupportedException extends VerbsException {
    private static final long serialVersionUID = 1L;

    public VerbsUnsupportedException(String verb, int errno, String context) {
        super(verb, errno, context == null || context.isEmpty() ? "unsupported by this device"
                : context + ", unsupported by this device");
    }
}
