package io.rdmaffm.perftest.jvm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ProcessActivityTest {

    private static ProcessActivity window(long run, String others) {
        return new ProcessActivity(10, 0, run, 5, 100, others);
    }

    @Test
    void aSweepsTotalAddsTheSameThreadsTimesAndNamesOnlyTheBusiest() {
        ProcessActivity sum = window(1_000, "C2 CompilerThre 1.200 ms; VM Periodic Tas 0.040 ms")
                .plus(window(2_000, "VM Periodic Tas 0.050 ms; JFR Periodic Ta 0.300 ms"))
                .plus(window(3_000, "G1 Service 0.010 ms; Service Thread 0.020 ms; C1 CompilerThre 0.500 ms"));
        assertEquals("C2 CompilerThre 1.200 ms; C1 CompilerThre 0.500 ms; JFR Periodic Ta 0.300 ms;"
                + " VM Periodic Tas 0.090 ms", sum.otherThreads());
        assertEquals(6_000, sum.loopRunNanos());
        assertEquals(30, sum.minorFaults());
        assertEquals(300, sum.otherThreadsNanos());
    }

    @Test
    void anEmptyListLeavesTheOtherAsItIsAndAnUnknownFigureStaysUnknown() {
        ProcessActivity sum = window(1_000, "").plus(window(2_000, "Service Thread 0.020 ms"));
        assertEquals("Service Thread 0.020 ms", sum.otherThreads());
        assertEquals(-1, sum.plus(ProcessActivity.UNKNOWN).loopRunNanos());
        assertEquals("Service Thread 0.020 ms", sum.plus(ProcessActivity.UNKNOWN).otherThreads());
    }

    @Test
    void aNameWithSpacesIsKeptWhole() {
        assertEquals("Monitor Deflation Thr 0.300 ms",
                ProcessActivity.mergeNamed("Monitor Deflation Thr 0.100 ms", "Monitor Deflation Thr 0.200 ms"));
    }
}
