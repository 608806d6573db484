package io.rdmaffm.perftest.run;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --cpu_util}: /proc/stat read and computed as perftest does (user over user plus idle). */
class CpuUtilSamplerTest {

    @Test
    void userIsTheSecondWordAndIdleTheFifth() {
        long[] ui = new long[2];
        CpuUtilSampler.parse("cpu  4705 356 584 3699 23 23 0 0 0 0", ui);
        assertArrayEquals(new long[] {4705, 3699}, ui);
    }

    @Test
    void aFileWithoutTheCpuLineIsRefused() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> CpuUtilSampler.parse("intr 12 3", new long[2]));
        assertTrue(e.getMessage().contains("cpu line"), e.getMessage());
    }

    @Test
    void percentIsUserOverUserPlusIdleInFloat() {
        // 30 user and 90 idle jiffies (nice and system count nowhere): 25 %
        assertEquals(25f, CpuUtilSampler.percent(100, 1000, 130, 1090));
        assertEquals(0f, CpuUtilSampler.percent(5, 5, 5, 5), "no jiffies: 0, as perftest");
        // C computes (float) user / (user + idle) * 100 in float: 1/3 gives 33.333336, not 33.33333333
        assertEquals(33.333336f, CpuUtilSampler.percent(0, 0, 1, 2));
    }

    @Test
    void samplesTheFileAtTheWindowsTwoMoments(@TempDir Path dir) throws Exception {
        Path stat = dir.resolve("stat");
        Files.writeString(stat, "cpu  100 0 0 1000 0\ncpu0 1 2 3 4\n");
        long now = System.nanoTime();
        CpuUtilSampler s = CpuUtilSampler.start(stat, now - 1, now + 2_000_000_000L);
        // the first sample is taken at once; the second after 2 s, by when the file says 30 user, 90 idle more
        Thread.sleep(1_000);
        Files.writeString(stat, "cpu  130 0 0 1090 0\n");
        assertEquals(25f, s.awaitPercent());
    }

    @Test
    void anUnreadableFileFailsTheMeasurementWithItsName(@TempDir Path dir) {
        long now = System.nanoTime();
        CpuUtilSampler s = CpuUtilSampler.start(dir.resolve("missing"), now, now);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, s::awaitPercent);
        assertTrue(e.getMessage().contains("missing"), e.getMessage());
    }

    @Test
    void thisMachinesProcStatReads() throws Exception {
        long now = System.nanoTime();
        float p = CpuUtilSampler.start(Path.of("/proc/stat"), now, now + 50_000_000L).awaitPercent();
        assertTrue(p >= 0 && p <= 100, "percent " + p);
    }
}
