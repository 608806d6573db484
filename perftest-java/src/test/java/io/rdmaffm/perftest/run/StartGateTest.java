package io.rdmaffm.perftest.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The benchmark's start gate: announces itself, then holds until told to go, never longer than its limit. */
class StartGateTest {

    @Test
    void holdsUntilGoAppears(@TempDir Path dir) throws Exception {
        Path waiting = dir.resolve("g.waiting");
        Path go = dir.resolve("g.go");
        Thread releaser = Thread.ofPlatform().start(() -> {
            try {
                while (!Files.exists(waiting)) {
                    Thread.sleep(5);
                }
                Thread.sleep(200);
                Files.createFile(go);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        long t0 = System.nanoTime();
        assertTrue(StartGate.await(waiting, go, TimeUnit.SECONDS.toNanos(30)));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(200), "it held until go appeared");
        assertEquals(ProcessHandle.current().pid() + "\n", Files.readString(waiting));
        releaser.join();
    }

    @Test
    void goesOnAfterItsLimit(@TempDir Path dir) throws Exception {
        Path go = dir.resolve("g.go");
        Files.createFile(go); // a go left over from an earlier run does not open the gate
        long t0 = System.nanoTime();
        assertFalse(StartGate.await(dir.resolve("g.waiting"), go, TimeUnit.MILLISECONDS.toNanos(100)));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void noPropertyNoGate() throws Exception {
        System.clearProperty(StartGate.PROPERTY);
        assertFalse(StartGate.awaitIfConfigured());
    }
}
