package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Bytes a hostile peer sends reach the user's terminal only quoted: printable ASCII, everything else escaped,
 * length capped; and the whole error line stays one printable line.
 */
@Timeout(30)
class UntrustedTest {
    /** ESC ] 0 ; title BEL, ESC [ 2 J (clear screen), CR, LF, NUL, DEL, 0xff, a backslash. */
    static final byte[] CONTROL = "\u001b]0;pwned\u0007\u001b[2J\r\n\u0000\u007f\u00ff\\".getBytes(StandardCharsets.ISO_8859_1);

    /** Only printable ASCII, no line breaks. */
    static void assertPrintable(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            assertTrue(c >= 0x20 && c < 0x7f, () -> "char " + (int) c + " in: " + s);
        }
    }

    @Test
    void bytesAreShownAsPrintableAsciiWithEscapes() {
        assertEquals("\\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x0a\\x00\\x7f\\xff\\\\", Untrusted.bytes(CONTROL));
        assertEquals("6.06", Untrusted.bytes("6.06".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void longValuesAreCut() {
        byte[] big = new byte[100_000];
        java.util.Arrays.fill(big, (byte) 0x1b);
        String s = Untrusted.bytes(big);
        assertPrintable(s);
        assertTrue(s.endsWith("...(100000 bytes)"), s);
        assertEquals(Untrusted.MAX_SHOWN * 4 + "...(100000 bytes)".length(), s.length());
        String t = Untrusted.text("x".repeat(5000));
        assertTrue(t.length() < 200 && t.endsWith("...(5000 chars)"), t);
    }

    @Test
    void aMessageBecomesOnePrintableLine() {
        String hostile = "peer said \u001b[31mred\u001b[0m\nsecond line\r\u202eevil\u2066 \u0085 µs …";
        String line = Untrusted.line(hostile);
        assertFalse(line.contains("\n") || line.contains("\r") || line.contains("\u001b") || line.contains("\u202e")
                || line.contains("\u0085") || line.contains("\u2066"), line);
        assertTrue(line.startsWith("peer said \\x1b[31mred\\x1b[0m\\x0asecond line\\x0d\\u202eevil"), line);
        assertTrue(line.endsWith("µs …"), "printable text for people stays: " + line);
        String huge = Untrusted.line("a".repeat(10_000) + "\u001b");
        assertEquals(Untrusted.MAX_LINE + "...(cut)".length(), huge.length());
    }

    @Test
    void aVersionWithControlSequencesIsQuoted() throws Exception {
        byte[] version = new byte[VersionMessage.SIZE];
        System.arraycopy(CONTROL, 0, version, 0, 15);
        ExchangeException e = assertThrows(ExchangeException.class,
                () -> VersionMessage.requireCompatible(VersionMessage.decode(version)));
        assertPrintable(e.getMessage());
        assertEquals("peer speaks perftest version \\x1b]0;pwned\\x07\\x1b[2J\\x0d, need >= 5.70", e.getMessage());
    }

    @Test
    void aKeyMessageWithControlSequencesIsQuoted() {
        byte[] key = new byte[KeyMessage.SIZE_GID];
        for (int i = 0; i < key.length; i++) {
            key[i] = CONTROL[i % CONTROL.length];
        }
        ExchangeException e = assertThrows(ExchangeException.class, () -> KeyMessage.decode(key, true));
        assertPrintable(e.getMessage());
        assertTrue(e.getMessage().startsWith("malformed key message: LID has non-hex character '\\x1b' at offset 0"),
                e.getMessage());
    }

    @Test
    void aHostileServerOverTcpGetsAQuotedLine() throws Exception {
        ExchangeListener listener = ExchangeListener.listen("127.0.0.1", 0, false);
        CompletableFuture<Void> peer = CompletableFuture.runAsync(() -> {
            try (Socket s = new Socket("127.0.0.1", listener.port())) {
                byte[] v = new byte[16];
                System.arraycopy(CONTROL, 0, v, 0, 15);
                s.getOutputStream().write(v);
                InputStream in = s.getInputStream();
                in.readNBytes(16);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ExchangeTimeouts t = new ExchangeTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(5),
                Duration.ofSeconds(5));
        try (PerftestExchange ex = new PerftestExchange(listener.accept(Duration.ofSeconds(5)), t, true)) {
            ExchangeException e = assertThrows(ExchangeException.class, ex::exchangeVersions);
            assertPrintable(e.getMessage());
            assertFalse(e.beforeConnection(), "a peer that answered: a failed run, not a set-up failure");
        }
        peer.get(5, TimeUnit.SECONDS);
    }
}
