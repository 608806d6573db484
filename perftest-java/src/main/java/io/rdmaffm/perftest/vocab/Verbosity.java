package io.rdmaffm.perftest.vocab;

import java.util.Locale;

/**
 * What a run prints (perftest's {@code --output}): everything, or one figure per message size and nothing else
 * (no banner, addresses, table or result lines), printed as C's {@code "%lf\n"} so a script can read it.
 */
public enum Verbosity {
    /** Everything perftest prints (no {@code --output}). */
    FULL,
    /** {@code --output=bandwidth}: the average bandwidth of each row, in the report unit (bandwidth tools). */
    BANDWIDTH,
    /** {@code --output=message_rate}: the message rate of each row, in Mpps (bandwidth tools). */
    MESSAGE_RATE,
    /** {@code --output=latency}: the average latency of each row, in usec (latency tools). */
    LATENCY;

    /** The value of {@code --output} that selects it ({@code "full"} for {@link #FULL}, which has none). */
    public String perftestName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The verbosity {@code --output=value} selects, or null when perftest knows no such value. */
    public static Verbosity ofOutput(String value) {
        for (Verbosity v : values()) {
            if (v != FULL && v.perftestName().equals(value)) {
                return v;
            }
        }
        return null;
    }

    /** Whether the tool prints everything. */
    public boolean full() {
        return this == FULL;
    }
}
