package io.rdmaffm.perftest.report.model;

/**
 * A run document that cannot be read: not JSON, not a run document, or a key of the wrong type. The message is
 * one line naming the file and the key, e.g. {@code "run.json: device.port_rate_gbps: expected a number, got
 * \"fast\""}.
 */
public final class RunFormatException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** @param message one line naming the file and what is wrong */
    public RunFormatException(String message) {
        super(message);
    }
}
