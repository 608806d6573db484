package io.rdmaffm.perftest.fabric;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** The coordinator's wire: one message per line, UTF-8, at most {@link #MAX} bytes a line. */
final class Lines {
    static final int MAX = 64 * 1024;

    private Lines() {
    }

    /** The next line without its newline, or null at the end of the stream. */
    static String read(InputStream in) throws IOException {
        byte[] buf = new byte[256];
        int n = 0;
        for (;;) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            if (b == '\n') {
                return new String(buf, 0, n, StandardCharsets.UTF_8);
            }
            if (n == MAX) {
                throw new IOException("a line longer than " + MAX + " bytes");
            }
            if (n == buf.length) {
                buf = java.util.Arrays.copyOf(buf, Math.min(MAX, buf.length * 2));
            }
            buf[n++] = (byte) b;
        }
    }

    /** Writes one line (newlines inside it become spaces) and flushes. */
    static void write(OutputStream out, String line) throws IOException {
        out.write((line.replace('\n', ' ').replace('\r', ' ') + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A token without spaces or control characters (a host name as the rank gave it). */
    static String token(String s) {
        String t = s == null || s.isBlank() ? "?" : s.strip();
        return t.replaceAll("[\\s\\p{Cntrl}]", "_");
    }
}
