package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.rdmaffm.perftest.params.InvalidParameterException;
import io.rdmaffm.verbs.CycleClock;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** -C's cycle period: the loops' counter where they read it, else /proc/cpuinfo's "cpu MHz" as perftest reads it. */
class CyclePeriodTest {
    @Test
    void fromCpuinfoWhereTheLoopsUseSystemNanoTime(@TempDir Path dir) throws Exception {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nmodel name\t: X\ncpu MHz\t\t: 2500.000\ncache size\t: 1 KB\n"
                + "processor\t: 1\ncpu MHz\t\t: 1200.000\n");
        assertEquals(0.4, CyclePeriod.of(CycleClock.systemNanoTime(), cpuinfo), 1e-12, "the first CPU's, 2.5 GHz");
    }

    @Test
    void noRateIsBadSetUp(@TempDir Path dir) throws Exception {
        Path cpuinfo = dir.resolve("cpuinfo");
        Files.writeString(cpuinfo, "processor\t: 0\nBogoMIPS\t: 50.00\n");
        assertEquals("-C/--report-cycles: no cycle rate here (the loops time by System.nanoTime and " + cpuinfo
                + " has no \"cpu MHz\")", assertThrows(InvalidParameterException.class,
                        () -> CyclePeriod.of(CycleClock.systemNanoTime(), cpuinfo)).getMessage());
        assertEquals(0, CyclePeriod.cpuMhz("cpu MHz : fast\n"));
    }
}
