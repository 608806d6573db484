package io.rdmaffm.perftest.jvm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recorder attributes the JVM's own events to the window they happened in. */
class WindowRecorderTest {

    @Test
    void compilationsGcAndDeoptimizationsLandInTheirWindows() throws Exception {
        try (WindowRecorder r = WindowRecorder.start()) {
            r.open(0);
            long sink = 0;
            Hot.Shape square = new Hot.Square(3);
            for (int i = 0; i < 300_000; i++) {
                sink += Hot.measure(square);
            }
            waitForTheCompiler();
            r.close(0);
            r.open(2);
            System.gc();
            r.close(2);
            r.open(3);
            sink += Hot.fromColdCaller(new Hot.Triangle(4));
            r.close(3);
            List<WindowActivity> w = r.finish();
            assertNotNull(w, "JFR is available in this JDK");
            assertEquals(4, w.size());
            assertNull(w.get(1), "window 1 was never opened");
            assertTrue(w.get(0).compilations() > 0, "the hot loop was compiled inside window 0: " + w.get(0));
            assertTrue(w.get(2).gcs() >= 1 && w.get(2).safepoints() >= 1, "System.gc() in window 2: " + w.get(2));
            assertTrue(w.get(3).deoptimizations() >= 1, "a second receiver type deoptimized measure() in window 3: "
                    + w.get(3));
            assertTrue(sink != 42);
        }
    }

    @Test
    void summaryLineCountsEachKind() {
        WindowActivity a = new WindowActivity(2, 1, 0, 0, 0, 1, 50_000, List.of());
        assertEquals(" JVM during the measured window: 2 JIT compilations (1 OSR), 0 deoptimizations, 0 GCs (0.00 ms),"
                + " 1 safepoint (0.05 ms)" + System.lineSeparator(), a.summaryLine());
        assertTrue(new WindowActivity(0, 0, 0, 0, 0, 0, 0, List.of()).quiet());
        assertEquals(3, a.plus(a).safepoints() + 1);
    }

    @Test
    void jitCountersSeeCompilations() {
        try (JitCounters c = JitCounters.open()) {
            assertNotNull(c, "this JVM keeps a performance-data file");
            long before = c.compilations();
            long sink = 0;
            for (int i = 0; i < 200_000; i++) {
                sink += Other.step(i);
            }
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (c.compilations() == before && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertTrue(c.compilations() > before, "compiling Other.step moved sun.ci.totalCompiles");
            assertTrue(sink != 42);
        }
    }

    /** Lets queued compilations finish, so they are inside the window that caused them. */
    private static void waitForTheCompiler() throws InterruptedException {
        try (JitCounters c = JitCounters.open()) {
            long last = c.compilations();
            for (int still = 0; still < 5; ) {
                Thread.sleep(50);
                long now = c.compilations();
                still = now == last ? still + 1 : 0;
                last = now;
            }
        }
    }

    static final class Hot {
        interface Shape {
            int area();
        }

        record Square(int side) implements Shape {
            public int area() {
                return side * side;
            }
        }

        record Triangle(int side) implements Shape {
            public int area() {
                return side * side / 2;
            }
        }

        /** Compiled for one receiver type (Square): another one hits C2's class check and deoptimizes. */
        static int measure(Shape s) {
            return s.area() + 1;
        }

        /** Never run before: interpreted, it calls the compiled measure() rather than a copy inlined elsewhere. */
        static int fromColdCaller(Shape s) {
            return measure(s);
        }
    }

    static final class Other {
        static int step(int i) {
            return (i * 17) ^ (i >>> 5);
        }
    }
}
