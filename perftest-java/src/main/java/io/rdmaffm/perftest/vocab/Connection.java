package io.rdmaffm.perftest.vocab;

/** perftest's {@code -c}: the transport of the test queue pairs. */
public enum Connection {
    /** Reliable connection (every tool). */
    RC,
    /** Unreliable connection (send and write tools). */
    UC,
    /** Unreliable datagram (send tools). */
    UD
}
