package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.vocab.Mismatch;

import java.util.List;

/**
 * The outcome of one {@code --verify} check: whether one ran (a check that found nothing still prints its
 * summary) and what it found.
 *
 * @param checked    whether this side checked anything at this point
 * @param mismatches what differed, in buffer order
 */
public record Verification(boolean checked, List<Mismatch> mismatches) {
    private static final Verification NONE = new Verification(false, List.of());

    /** Copies the list. */
    public Verification {
        mismatches = List.copyOf(mismatches);
    }

    /** Nothing was checked. */
    public static Verification none() {
        return NONE;
    }
}
