package io.rdmaffm.examples;

import io.rdmaffm.examples.copy.RdmaCopy;
import io.rdmaffm.examples.kv.RdmaKv;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The examples' command lines without a device: addresses, options, and bad input as one line with status 2. */
class CliTest {

    @Test
    void addressesInEveryForm() {
        InetSocketAddress v4 = Cli.address("10.77.0.1:7471");
        assertEquals("10.77.0.1", v4.getAddress().getHostAddress());
        assertEquals(7471, v4.getPort());
        InetSocketAddress v6 = Cli.address("[fe80::1]:99");
        assertTrue(v6.getAddress() instanceof Inet6Address);
        assertEquals(99, v6.getPort());
        assertTrue(message(() -> Cli.address("10.77.0.1")).contains("expected HOST:PORT"));
        assertTrue(message(() -> Cli.address("10.77.0.1:x")).contains("bad port"));
        assertTrue(message(() -> Cli.address("10.77.0.1:70000")).contains("outside 0..65535"));
    }

    @Test
    void badInputIsOneLineOnStderrAndStatusTwo() {
        assertStatusAndLine(2, "rdma-copy: mode must be receive or send, not 'fetch'", () -> RdmaCopy.run("fetch"));
        assertStatusAndLine(2, "rdma-copy: missing ADDRESS:PORT to listen on", () -> RdmaCopy.run("receive"));
        assertStatusAndLine(2, "rdma-kv: --ops must be a number, not 'many'",
                () -> RdmaKv.run("bench", "10.77.0.1:1", "--ops", "many"));
        assertStatusAndLine(2, "rdma-kv: --ops must be in 1..2147483647, not 0",
                () -> RdmaKv.run("bench", "10.77.0.1:1", "--ops", "0"));
        assertStatusAndLine(2, "rdma-kv: option --keys needs a value", () -> RdmaKv.run("bench", "10.77.0.1:1", "--keys"));
        assertStatusAndLine(2, "rdma-kv: unexpected argument extra", () -> RdmaKv.run("serve", "10.77.0.1:1", "extra"));
    }

    private static String message(Runnable r) {
        return assertThrows(Cli.BadInput.class, r::run).getMessage();
    }

    private static void assertStatusAndLine(int status, String line, java.util.function.IntSupplier run) {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        int got;
        try {
            got = run.getAsInt();
        } finally {
            System.setErr(old);
        }
        assertEquals(status, got);
        assertEquals(line + System.lineSeparator(), err.toString(StandardCharsets.UTF_8));
    }
}
