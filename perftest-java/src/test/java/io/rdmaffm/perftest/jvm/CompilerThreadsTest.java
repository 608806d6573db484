package io.rdmaffm.perftest.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CompilerThreadsTest {

    @Test
    void utimeAndStimeAreReadAfterTheThreadName() {
        // proc(5): pid (comm) state ppid ... utime(14) stime(15); the name may hold spaces and parentheses.
        String stat = "4242 (C2 Compiler) (x)) S 1 4242 4242 0 -1 4194368 1234 0 0 0 517 83 0 0 20 0 20 0 100 0 0";
        assertEquals(600, CompilerThreads.ticks(stat));
    }

    @Test
    void theCompilerThreadsOfThisJvmAreFoundAndTheirTimeOnlyGrows() {
        long before = CompilerThreads.cpuTicks();
        // This JVM has compiled the test framework already: its compiler threads have used CPU.
        assertTrue(before > 0, "compiler thread ticks " + before);
        assertTrue(CompilerThreads.cpuTicks() >= before);
    }
}
