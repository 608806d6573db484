package io.rdmaffm.perftest.validate;

/** Runs one loopback bandwidth test on a port; {@link LoopbackPair} does it for real, host tests fake it. */
@FunctionalInterface
public interface Loopback {
    /**
     * @param port          the port and what it should carry (sizes the QP count)
     * @param bidirectional both directions at once ({@code -b})
     * @return what the run measured
     * @throws Exception with a one-line message when the run failed
     */
    Measured run(Expectation port, boolean bidirectional) throws Exception;
}
