package io.rdmaffm.perftest.engine;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The resources of a run or a warm-up as one {@link AutoCloseable}: each is added as it is created and closed
 * in reverse order, so a child (a QP) always goes before its parents (its PD and CQs), as verbs-ffm requires.
 * Every close is attempted even when an earlier one fails; the first failure is thrown and the later ones are
 * added to it as suppressed, so nothing leaks and no failure is hidden.
 */
final class Resources implements AutoCloseable {
    private final Deque<AutoCloseable> stack = new ArrayDeque<>();

    /** Registers {@code resource} (may be null: nothing to close) and returns it. */
    <T extends AutoCloseable> T add(T resource) {
        if (resource != null) {
            stack.push(resource);
        }
        return resource;
    }

    /**
     * Closes everything added so far, newest first, and forgets it.
     *
     * @throws RunFailure "cleanup failed: …" caused by the first failure, with the others suppressed
     */
    @Override
    public void close() {
        RunFailure failure = null;
        while (!stack.isEmpty()) {
            AutoCloseable c = stack.pop();
            try {
                c.close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = new RunFailure("cleanup failed: " + e.getMessage(), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
