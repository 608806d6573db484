package io.rdmaffm.perftest.jvm;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.management.ObjectName;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
            // Only C2's code holds the single-receiver guard that the second type trips: on a loaded machine the
            // idle wait can end while measure() still runs C1's profiling code, which takes any receiver.
            sink += runUntilC2Compiled(square);
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
    void pageFaultsOfTheWindowAreCounted() {
        try (WindowRecorder r = WindowRecorder.start()) {
            r.open(0);
            r.close(0);
            r.open(1);
            // 16 MiB of fresh memory, every page written: a minor fault per page the kernel hands out.
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocateDirect(16 << 20);
            for (int i = 0; i < b.capacity(); i += 4096) {
                b.put(i, (byte) 1);
            }
            r.close(1);
            List<WindowActivity> w = r.finish();
            assertNotNull(w, "JFR is available in this JDK");
            ProcessActivity empty = w.get(0).process();
            ProcessActivity touched = w.get(1).process();
            assertTrue(empty.minorFaults() >= 0 && empty.minorFaults() < 1024, "an empty window: " + empty);
            assertTrue(touched.minorFaults() >= 2048, "16 MiB touched in window 1: " + touched);
            assertTrue(touched.majorFaults() >= 0, touched.toString());
            assertTrue(touched.loopRunNanos() > 0 && touched.loopWaitNanos() >= 0 && touched.otherThreadsNanos() >= 0,
                    "the measuring thread ran in window 1: " + touched);
        }
    }

    @Test
    void anotherThreadsCpuTimeIsCountedAndNamed() throws Exception {
        try (WindowRecorder r = WindowRecorder.start()) {
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch spun = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch closed = new java.util.concurrent.CountDownLatch(1);
            // Alive before prepare() (threads born later are not watched) and still at the window's end.
            Thread spinner = Thread.ofPlatform().name("spinner-under-test").start(() -> {
                try {
                    go.await();
                    // 200 ms of this thread's own CPU time, not of the wall clock: on a loaded two-core
                    // machine 200 ms of wall time gave the spinner as little as 14 ms of CPU. Capped at 20 s.
                    java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
                    long cpuUntil = cpu.getCurrentThreadCpuTime() + 200_000_000L;
                    long until = System.nanoTime() + 20_000_000_000L;
                    long x = 0;
                    while (cpu.getCurrentThreadCpuTime() < cpuUntil && System.nanoTime() < until) {
                        for (int i = 0; i < 10_000; i++) {
                            x += until ^ x;
                        }
                    }
                    spun.countDown();
                    closed.await();
                    if (x == 42) {
                        System.out.print("");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            r.prepare();
            r.open(0);
            go.countDown();
            spun.await();
            r.close(0);
            closed.countDown();
            spinner.join();
            ProcessActivity p = r.finish().get(0).process();
            assertTrue(p.otherThreadsNanos() >= 50_000_000L, "a thread spun 200 ms of CPU in the window: " + p);
            // Not necessarily first: on two CPUs the C2 thread compiling the spin loop can run as long as it.
            Map<String, Double> named = new LinkedHashMap<>();
            ProcessActivity.parseNamed(p.otherThreads(), named);
            double previousMs = Double.MAX_VALUE;
            for (double ms : named.values()) {
                assertTrue(ms <= previousMs, "the busiest is named first: " + p);
                previousMs = ms;
            }
            assertTrue(named.getOrDefault("spinner-under-t", -1.0) >= 50,
                    "the spinning thread is named with its time: " + p);
        }
    }

    @Test
    void schedstatParses() {
        assertArrayEquals(new long[] {47967, 413989}, ThreadTimes.parse("47967 413989 2\n"));
        assertNull(ThreadTimes.parse("7"));
        try (ThreadTimes threads = new ThreadTimes()) {
            assertNull(threads.take(false), "nothing watched before a rescan");
            threads.rescan();
            ThreadTimes.Snapshot now = threads.take(true);
            assertNotNull(now, "this JVM's threads, from /proc");
            assertTrue(now.indexOf(now.self()) >= 0 && now.tids().length > 3, "the JVM has several threads");
        }
    }

    private static ProcessActivity faults(long minor, long major) {
        return new ProcessActivity(minor, major, -1, -1, -1, "");
    }

    @Test
    void statLineParsesAfterTheCommandName() {
        String stat = "4242 (a) (b c)) S 1 4242 4242 0 -1 4194560 1234 0 7 0 5 3 0 0 20 0 1 0 100 0 0";
        long[] f = PageFaults.parse(stat);
        try (PageFaults live = new PageFaults()) {
            assertTrue(live.now()[0] > 0, "this process has taken minor faults");
        }
        assertEquals(1234, f[0]);
        assertEquals(7, f[1]);
        assertNull(PageFaults.parse("garbage"));
    }

    @Test
    void summaryLineNamesMajorFaultsOnlyWhenThereAreAny() {
        assertTrue(new WindowActivity(0, 0, 0, 0, 0, 0, 0, faults(5, 3), List.of()).summaryLine()
                .endsWith(" (0.00 ms), 3 major page faults" + System.lineSeparator()));
        assertTrue(new WindowActivity(0, 0, 0, 0, 0, 0, 0, faults(5, 0), List.of()).summaryLine()
                .endsWith(" (0.00 ms)" + System.lineSeparator()));
        assertTrue(new WindowActivity(0, 0, 0, 0, 0, 0, 0, faults(5, 0), List.of()).quiet(), "minor faults alone are quiet");
        assertFalse(new WindowActivity(0, 0, 0, 0, 0, 0, 0, faults(5, 1), List.of()).quiet(), "a read from a file is not");
    }

    @Test
    void summaryLineCountsEachKind() {
        WindowActivity a = new WindowActivity(2, 1, 0, 0, 0, 1, 50_000, faults(12, 0), List.of());
        assertEquals(" JVM during the measured window: 2 JIT compilations (1 OSR), 0 deoptimizations, 0 GCs (0.00 ms),"
                + " 1 safepoint (0.05 ms)" + System.lineSeparator(), a.summaryLine());
        assertTrue(new WindowActivity(0, 0, 0, 0, 0, 0, 0, faults(0, 0), List.of()).quiet());
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

    /** Calls measure() until C2's code for it is installed and in use (failing after a minute). */
    private static long runUntilC2Compiled(Hot.Shape shape) throws Exception {
        long sink = 0;
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!inUseAtTier4("$Hot.measure(")) {
            assertTrue(System.nanoTime() < deadline, "C2 compiled Hot.measure within a minute");
            for (int i = 0; i < 20_000; i++) {
                sink += Hot.measure(shape);
            }
            Thread.sleep(20);
        }
        return sink;
    }

    /** Whether the code cache holds tier-4 code for the method, in use (jcmd Compiler.codelist). */
    private static boolean inUseAtTier4(String method) throws Exception {
        String list = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerCodelist",
                new Object[] {null}, new String[] {String[].class.getName()});
        // Each line: compile id, tier, state (0 = in use), method, code range.
        for (String line : list.split("\n")) {
            String[] f = line.trim().split(" ", 4);
            if (f.length == 4 && f[1].equals("4") && f[2].equals("0") && f[3].contains(method)) {
                return true;
            }
        }
        return false;
    }

    /** Lets queued compilations finish, so they are inside the window that caused them. */
    private static void waitForTheCompiler() throws InterruptedException {
        try (JitCounters c = JitCounters.open()) {
            // Idle means no compilation finished and the compiler threads used no CPU (a C2 compile on a busy
            // machine can take longer than the wait and finishes nothing meanwhile).
            long last = c.compilations();
            long lastTicks = CompilerThreads.cpuTicks();
            for (int still = 0; still < 5; ) {
                Thread.sleep(50);
                long now = c.compilations();
                long ticks = CompilerThreads.cpuTicks();
                still = now == last && ticks == lastTicks ? still + 1 : 0;
                last = now;
                lastTicks = ticks;
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

        /**
         * Compiled for one receiver type (Square): another one hits C2's class check and deoptimizes. Its body is
         * too large for either compiler to inline into a caller (C2's FreqInlineSize is 325 bytes of bytecode), so
         * it is compiled on its own, however the loop that calls it is compiled.
         */
        static int measure(Shape s) {
            int a = s.area();
            return switch (a & 63) {
                case 0 -> a * 3 + (a >>> 1);
                case 1 -> a * 10 + (a >>> 2);
                case 2 -> a * 17 + (a >>> 3);
                case 3 -> a * 24 + (a >>> 4);
                case 4 -> a * 31 + (a >>> 5);
                case 5 -> a * 38 + (a >>> 6);
                case 6 -> a * 45 + (a >>> 7);
                case 7 -> a * 52 + (a >>> 8);
                case 8 -> a * 59 + (a >>> 9);
                case 9 -> a * 66 + (a >>> 10);
                case 10 -> a * 73 + (a >>> 11);
                case 11 -> a * 80 + (a >>> 12);
                case 12 -> a * 87 + (a >>> 13);
                case 13 -> a * 94 + (a >>> 1);
                case 14 -> a * 101 + (a >>> 2);
                case 15 -> a * 108 + (a >>> 3);
                case 16 -> a * 115 + (a >>> 4);
                case 17 -> a * 122 + (a >>> 5);
                case 18 -> a * 129 + (a >>> 6);
                case 19 -> a * 136 + (a >>> 7);
                case 20 -> a * 143 + (a >>> 8);
                case 21 -> a * 150 + (a >>> 9);
                case 22 -> a * 157 + (a >>> 10);
                case 23 -> a * 164 + (a >>> 11);
                case 24 -> a * 171 + (a >>> 12);
                case 25 -> a * 178 + (a >>> 13);
                case 26 -> a * 185 + (a >>> 1);
                case 27 -> a * 192 + (a >>> 2);
                case 28 -> a * 199 + (a >>> 3);
                case 29 -> a * 206 + (a >>> 4);
                case 30 -> a * 213 + (a >>> 5);
                case 31 -> a * 220 + (a >>> 6);
                case 32 -> a * 227 + (a >>> 7);
                case 33 -> a * 234 + (a >>> 8);
                case 34 -> a * 241 + (a >>> 9);
                case 35 -> a * 248 + (a >>> 10);
                case 36 -> a * 255 + (a >>> 11);
                case 37 -> a * 262 + (a >>> 12);
                case 38 -> a * 269 + (a >>> 13);
                case 39 -> a * 276 + (a >>> 1);
                default -> a + 1;
            };
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
