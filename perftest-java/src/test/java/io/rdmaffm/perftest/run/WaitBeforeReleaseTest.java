package io.rdmaffm.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code --wait_destroy}: perftest's line, then the wait (resources are released after it, by ToolRun). */
class WaitBeforeReleaseTest {

    @Test
    void printsPerftestsLineThenWaits() throws Exception {
        StringWriter text = new StringWriter();
        long start = System.nanoTime();
        ToolRun.waitBeforeRelease(1, new PrintWriter(text));
        long waited = System.nanoTime() - start;
        assertEquals(" Waiting 1 seconds before releasing resources...\n", text.toString());
        assertTrue(waited >= 1_000_000_000L, "waited " + waited + " ns");
    }

    @Test
    void zeroIsNoWaitAndNoLine() throws Exception {
        StringWriter text = new StringWriter();
        long start = System.nanoTime();
        ToolRun.waitBeforeRelease(0, new PrintWriter(text));
        assertEquals("", text.toString());
        assertTrue(System.nanoTime() - start < 500_000_000L);
    }
}
