package io.rdmaffm.perftest.vocab;

/** The eight perftest tools this project speaks for: a verb and whether it measures bandwidth or latency. */
public enum Tool {
    /** {@code ib_send_bw}. */
    SEND_BW(Verb.SEND, true),
    /** {@code ib_send_lat}. */
    SEND_LAT(Verb.SEND, false),
    /** {@code ib_write_bw}. */
    WRITE_BW(Verb.WRITE, true),
    /** {@code ib_write_lat}. */
    WRITE_LAT(Verb.WRITE, false),
    /** {@code ib_read_bw}. */
    READ_BW(Verb.READ, true),
    /** {@code ib_read_lat}. */
    READ_LAT(Verb.READ, false),
    /** {@code ib_atomic_bw}. */
    ATOMIC_BW(Verb.ATOMIC, true),
    /** {@code ib_atomic_lat}. */
    ATOMIC_LAT(Verb.ATOMIC, false);

    private final Verb verb;
    private final boolean bandwidth;

    Tool(Verb verb, boolean bandwidth) {
        this.verb = verb;
        this.bandwidth = bandwidth;
    }

    /** The measured operation. */
    public Verb verb() {
        return verb;
    }

    /** True for the {@code _bw} tools, false for the {@code _lat} tools. */
    public boolean bandwidth() {
        return bandwidth;
    }

    /** The C binary's name, e.g. {@code ib_write_bw}. */
    public String perftestName() {
        return "ib_" + name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The tool with the given C binary name. */
    public static Tool fromPerftestName(String name) {
        for (Tool t : values()) {
            if (t.perftestName().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown perftest tool: " + name);
    }
}
