package io.rdmaffm.perftest.run;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A benchmark's hold on the client just before its first measured loop: with the system property
 * {@value #PROPERTY} set to a path P, the client, warmed up and connected, creates {@code P.waiting} and waits
 * until {@code P.go} exists, then goes on to the barrier and the loop. The side-by-side benchmark runs a C pair
 * in that pause and another right after the run, so that the C runs a Java run is compared with fall within
 * seconds of its measured window rather than half a minute (the Java pair's start and warm-up) away: under
 * emulation the host's speed changes within seconds. Meanwhile the peer waits in the barrier and this JVM
 * only looks for the file every {@link #POLL_MILLIS} ms. Not for users: without the property nothing happens.
 */
final class StartGate {
    /** System property naming the gate's path prefix. */
    static final String PROPERTY = "rdmaffm.bench.startGate";
    static final long POLL_MILLIS = 20;
    /** After this long without {@code P.go} the run goes on anyway and says so. */
    static final long LIMIT_SECONDS = 600;

    private StartGate() {
    }

    /** Holds at the gate the property names, if any; false at once without it (no gate, no wait). */
    static boolean awaitIfConfigured() throws InterruptedException {
        String prefix = System.getProperty(PROPERTY);
        if (prefix == null || prefix.isEmpty()) {
            return false;
        }
        await(Path.of(prefix + ".waiting"), Path.of(prefix + ".go"), TimeUnit.SECONDS.toNanos(LIMIT_SECONDS));
        return true;
    }

    /** Creates {@code waiting}, then waits for {@code go} at most {@code limitNanos}; false if it never came. */
    static boolean await(Path waiting, Path go, long limitNanos) throws InterruptedException {
        try {
            Files.deleteIfExists(go);
            Files.writeString(waiting, ProcessHandle.current().pid() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("start gate " + waiting + ": " + e.getMessage(), e);
        }
        long deadline = System.nanoTime() + limitNanos;
        while (!Files.exists(go)) {
            if (System.nanoTime() - deadline >= 0) {
                System.err.println("start gate: no " + go + " within " + TimeUnit.NANOSECONDS.toSeconds(limitNanos)
                        + " s; running anyway");
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }
}
