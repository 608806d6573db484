package io.rdmaffm.examples.copy;

import io.rdmaffm.verbs.RdmaTestDevice;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * rdma-copy over the device's address: a 64 MiB file copied byte for byte (both sides in this JVM, each as its
 * command would run), bad input, and a receiver process killed in the middle of a copy.
 */
@Tag("rdma")
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RdmaCopyRdmaTest {

    static Path randomFile(Path dir, String name, long size) throws Exception {
        Path f = dir.resolve(name);
        SplittableRandom random = new SplittableRandom(size);
        ByteBuffer block = ByteBuffer.allocate(1 << 20);
        try (FileChannel out = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long done = 0; done < size; ) {
                block.clear();
                while (block.remaining() >= 8) {
                    block.putLong(random.nextLong());
                }
                block.flip().limit((int) Math.min(block.limit(), size - done));
                done += out.write(block);
            }
        }
        return f;
    }

    /** A port that is free now (rdma_cm ports are the IP ports of the address). */
    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void copiesSixtyFourMebibytesByteForByte(@TempDir Path tmp) throws Exception {
        Path src = Files.createDirectory(tmp.resolve("src"));
        Path dst = Files.createDirectory(tmp.resolve("dst"));
        Path file = randomFile(src, "data.bin", 64L << 20);
        String address = RdmaTestDevice.ipv4Address().getHostAddress() + ":" + freePort();
        CompletableFuture<Integer> receiver = CompletableFuture.supplyAsync(
                () -> RdmaCopy.run("receive", address, "--dir", dst.toString(), "--timeout", "60"));
        int sent = -1;
        for (int attempt = 0; attempt < 50 && sent != 0; attempt++) { // until the receiver listens
            Thread.sleep(100);
            sent = RdmaCopy.run("send", file.toString(), address, "--window", "4", "--timeout", "60");
        }
        assertEquals(0, sent, "the sender's exit status");
        assertEquals(0, receiver.get(120, TimeUnit.SECONDS), "the receiver's exit status");
        Path copy = dst.resolve("data.bin");
        assertEquals(Files.size(file), Files.size(copy));
        assertEquals(-1, Files.mismatch(file, copy), "the copy is byte for byte the file");
        assertTrue(Files.notExists(dst.resolve("data.bin.part")));
    }

    @Test
    void badInputIsOneLineAndExitStatusTwo(@TempDir Path tmp) throws Exception {
        String address = RdmaTestDevice.ipv4Address().getHostAddress() + ":" + freePort();
        assertEquals(2, quietly(() -> RdmaCopy.run("send", tmp.resolve("missing").toString(), address)));
        assertEquals(2, quietly(() -> RdmaCopy.run("fetch", address)));
        assertEquals(2, quietly(() -> RdmaCopy.run("receive", "no-port-here")));
        assertEquals(2, quietly(() -> RdmaCopy.run("receive", address, "--dir", tmp.resolve("nope").toString())));
        assertEquals(2, quietly(() -> RdmaCopy.run("receive", address, "--bogus", "1")));
        Path file = randomFile(tmp, "f", 1000);
        long start = System.nanoTime();
        assertEquals(1, quietly(() -> RdmaCopy.run("send", file.toString(), address, "--timeout", "5")),
                "nobody receives on that port");
        assertTrue(System.nanoTime() - start < 10_000_000_000L);
    }

    @Test
    void aReceiverThatDiesFailsTheSenderWithAClearMessage(@TempDir Path tmp) throws Exception {
        Path file = tmp.resolve("big.bin");
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            f.setLength(512L << 20); // sparse: read fast, long enough to be killed in the middle
        }
        Path dst = Files.createDirectory(tmp.resolve("dst"));
        String address = RdmaTestDevice.ipv4Address().getHostAddress() + ":" + freePort();
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                RdmaCopy.class.getName(), "receive", address, "--dir", dst.toString()));
        Process receiver = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(receiver.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line = out.readLine();
            assertTrue(line != null && line.contains("receiving on"), "receiver said: " + line);
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            CompletableFuture<Integer> sender = CompletableFuture.supplyAsync(() -> withStderr(err,
                    () -> RdmaCopy.run("send", file.toString(), address, "--window", "1", "--timeout", "60")));
            line = out.readLine();
            assertTrue(line != null && line.contains("connected"), "receiver said: " + line);
            Thread.sleep(500); // in the middle of the copy
            receiver.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            long killed = System.nanoTime();
            assertEquals(1, sender.get(60, TimeUnit.SECONDS), "the sender's exit status");
            long ms = (System.nanoTime() - killed) / 1_000_000;
            String message = err.toString(StandardCharsets.UTF_8);
            assertTrue(message.contains("disconnected") || message.contains("RETRY_EXC"), message);
            assertTrue(ms < 30_000, "the sender gave up " + ms + " ms after the receiver died");
            System.out.println("sender after the receiver died (" + ms + " ms): " + message.trim());
        } finally {
            receiver.destroyForcibly();
        }
    }

    interface IntBody {
        int run();
    }

    static int quietly(IntBody body) {
        return withStderr(new ByteArrayOutputStream(), body);
    }

    /** Runs body with System.err captured (the examples print their one-line errors there). */
    static synchronized int withStderr(ByteArrayOutputStream into, IntBody body) {
        PrintStream old = System.err;
        System.setErr(new PrintStream(into, true, StandardCharsets.UTF_8));
        try {
            return body.run();
        } finally {
            System.setErr(old);
        }
    }
}
