package io.rdmaffm.perftest.vocab;

/** perftest's {@code -c}: the transport of the test queue pairs. */
public enum Connection {
    /** Reliable connection (every tool). */
    RC,
    /** Unreliable connection (send and write tools). */
    UC,
    /** Unreliable datagram (send tools). */
    UD,
    /** Extended reliable connection: parsed as perftest parses it, refused against the device (DeviceRules). */
    XRC,
    /** mlx5's dynamically connected transport (mlx5dv): as XRC. */
    DC,
    /** EFA's scalable reliable datagram (efadv; send and read tools): as XRC. */
    SRD;

    /** Whether perftest-java has QPs of this transport; the others never reach a run (DeviceRules refuses them). */
    public boolean runsHere() {
        return this == RC || this == UC || this == UD;
    }
}
