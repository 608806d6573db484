package io.rdmaffm.perftest.cluster;

/**
 * Bad matrix input (hosts, devices, pairs, options), found before anything is launched. The message is one line
 * that names the offending value and where it came from, ready to print after the command's name; the caller
 * exits 2, as for any other bad input.
 */
public final class MatrixInputException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message one line, no trailing period */
    public MatrixInputException(String message) {
        super(message);
    }
}
