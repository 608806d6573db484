package io.rdmaffm.perftest.fabric.driver;

import java.util.Locale;

/**
 * What the fabric is set up to do under congestion ({@code --expect}), which decides the counter rules of
 * docs/fabric-design.md §7: none (not set up lossless: congestion counters reported, loss flagged), pfc
 * (lossless by pause frames), dcqcn (ECN marks answered by CNPs).
 */
public enum Expect {
    /** Not set up lossless. */
    NONE,
    /** Priority flow control on the lossless priority. */
    PFC,
    /** DCQCN: ECN marks, CNPs, rate reduction. */
    DCQCN;

    /** The command-line name. */
    public String cli() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value of a command-line name, or null. */
    public static Expect of(String name) {
        for (Expect e : values()) {
            if (e.cli().equals(name)) {
                return e;
            }
        }
        return null;
    }
}
