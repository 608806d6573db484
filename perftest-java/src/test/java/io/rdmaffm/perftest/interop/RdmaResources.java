package io.rdmaffm.perftest.interop;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The kernel objects a device holds, as iproute2's {@code rdma resource show} counts them
 * ("0: rxe0: pd 1 cq 2 qp 1 cm_id 0 mr 1 ctx 1 srq 0"): the fault tests compare them before and after.
 */
final class RdmaResources {
    private RdmaResources() {
    }

    /** The counts of {@code device}, e.g. "pd 1 cq 2 qp 1 cm_id 0 mr 1 ctx 1 srq 0". */
    static String summary(String device) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("rdma resource show failed: " + out);
        }
        return parse(out, device);
    }

    /** The counts of {@code device} in the output of {@code rdma resource show} (run here or on another host). */
    static String parse(String out, String device) {
        String key = ": " + device + ": ";
        for (String line : out.split("\n")) {
            int at = line.indexOf(key);
            if (at >= 0) {
                return line.substring(at + key.length()).strip();
            }
        }
        throw new AssertionError("rdma resource show lists no " + device + ": " + out);
    }

    /**
     * The counts once they equal {@code expected}, or what they are after {@code seconds}: a killed process's
     * objects are destroyed by the kernel after it has gone, not at once.
     */
    static String awaitSummary(String device, String expected, int seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        String now = summary(device);
        while (!now.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            now = summary(device);
        }
        return now;
    }
}
