package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.VerbsException;
import io.rdmaffm.verbs.VerbsUnsupportedException;

/** The rdma_cm side of VerbsException.of: "unsupported" for EOPNOTSUPP, ENOSYS and EPROTONOSUPPORT. */
final class VerbsExceptions {
    private VerbsExceptions() {
    }

    static VerbsException of(String verb, int errno, String context) {
        if (errno == 95 || errno == 38 || errno == 93) {
            return new VerbsUnsupportedException(verb, errno, context);
        }
        return new VerbsException(verb, errno, context);
    }
}
