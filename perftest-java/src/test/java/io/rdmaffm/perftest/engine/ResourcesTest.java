package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reverse-order close that keeps every failure. */
class ResourcesTest {

    @Test
    void closesNewestFirstAndEveryOne() {
        List<String> closed = new ArrayList<>();
        try (Resources r = new Resources()) {
            r.add(() -> closed.add("pd"));
            r.add(() -> closed.add("cq"));
            r.add((AutoCloseable) null);
            r.add(() -> closed.add("qp"));
        }
        assertEquals(List.of("qp", "cq", "pd"), closed);
    }

    @Test
    void keepsTheFirstFailureAndSuppressesTheRest() {
        List<String> closed = new ArrayList<>();
        IllegalStateException first = new IllegalStateException("cannot close PD: 1 object(s) still open");
        IllegalStateException second = new IllegalStateException("device busy");
        Resources r = new Resources();
        r.add(() -> closed.add("context"));
        r.add(() -> {
            closed.add("context child");
            throw second;
        });
        r.add(() -> {
            closed.add("pd");
            throw first;
        });
        r.add(() -> closed.add("qp"));
        RunFailure f = assertThrows(RunFailure.class, r::close);
        assertEquals("cleanup failed: cannot close PD: 1 object(s) still open", f.getMessage());
        assertSame(first, f.getCause());
        assertArrayEquals(new Throwable[] {second}, f.getSuppressed());
        assertEquals(List.of("qp", "pd", "context child", "context"), closed, "a failure does not stop the rest");
        r.close();
        assertEquals(4, closed.size(), "closed once");
    }

    @Test
    void aFailedRunKeepsItsErrorAndTheCleanupFailure() {
        IllegalStateException cleanup = new IllegalStateException("cq busy");
        RunFailure run = new RunFailure("no completion for 10 s");
        RunFailure thrown = assertThrows(RunFailure.class, () -> {
            try (Resources r = new Resources()) {
                r.add(() -> {
                    throw cleanup;
                });
                throw run;
            }
        });
        assertSame(run, thrown);
        assertEquals(1, thrown.getSuppressed().length);
        assertSame(cleanup, thrown.getSuppressed()[0].getCause());
    }
}
