package io.rdmaffm.perftest.exchange;

/**
 * Bytes and text from outside the program (a peer's messages, a file's contents) made safe to print: a
 * hostile peer must not be able to put terminal control sequences, extra lines or megabytes on the user's
 * terminal or in a log through an error message.
 *
 * <p>{@link #bytes} shows printable ASCII as is, a backslash as {@code \\} and every other byte as
 * {@code \xNN}, at most {@value #MAX_SHOWN} bytes of it; {@link #line} makes a whole message one printable
 * line (control and bidirectional-formatting characters escaped, length capped) and is applied to every error
 * line the CLI prints.
 */
public final class Untrusted {
    /** At most this many bytes of an untrusted value appear in a message. */
    public static final int MAX_SHOWN = 128;
    /** At most this many characters of a message are printed. */
    public static final int MAX_LINE = 1000;

    private Untrusted() {
    }

    /** All of {@code b}, quoted: see {@link #bytes(byte[], int, int)}. */
    public static String bytes(byte[] b) {
        return bytes(b, 0, b.length);
    }

    /**
     * {@code length} bytes of {@code b} from {@code offset}: printable ASCII (0x20..0x7e) as is but the
     * backslash doubled, every other byte as {@code \xNN}; past {@value #MAX_SHOWN} bytes the rest is left out
     * and {@code ...(N bytes)} says how many there were.
     */
    public static String bytes(byte[] b, int offset, int length) {
        StringBuilder out = new StringBuilder(Math.min(length, MAX_SHOWN) + 16);
        int shown = Math.min(length, MAX_SHOWN);
        for (int i = 0; i < shown; i++) {
            appendByte(out, b[offset + i] & 0xff);
        }
        if (length > shown) {
            out.append("...(").append(length).append(" bytes)");
        }
        return out.toString();
    }

    /**
     * Text made of untrusted bytes (each char one byte, e.g. decoded as ISO-8859-1), quoted as {@link #bytes};
     * a char above 0xff appears as {@code \}{@code uXXXX}.
     */
    public static String text(CharSequence s) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_SHOWN) + 16);
        int shown = Math.min(s.length(), MAX_SHOWN);
        for (int i = 0; i < shown; i++) {
            char c = s.charAt(i);
            if (c > 0xff) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                appendByte(out, c);
            }
        }
        if (s.length() > shown) {
            out.append("...(").append(s.length()).append(" chars)");
        }
        return out.toString();
    }

    /**
     * A message made printable as one line: characters that move the cursor, change the terminal's state or
     * reorder text (C0 and C1 controls, DEL, line and paragraph separators, bidirectional marks and overrides,
     * byte-order and zero-width marks) are escaped as {@code \xNN} or {@code \}{@code uXXXX} (a newline becomes
     * {@code \x0a}), and the result is cut at {@value #MAX_LINE} characters. Other printable characters (µ, …)
     * stay: the messages are written for people.
     */
    public static String line(String message) {
        if (message == null) {
            return "";
        }
        StringBuilder out = null;
        int n = message.length();
        for (int i = 0; i < n; i++) {
            char c = message.charAt(i);
            boolean unsafe = unsafe(c);
            if (unsafe && out == null) {
                out = new StringBuilder(n + 16).append(message, 0, i);
            }
            if (out != null) {
                if (!unsafe) {
                    out.append(c);
                } else if (c <= 0xff) {
                    out.append(String.format("\\x%02x", (int) c));
                } else {
                    out.append(String.format("\\u%04x", (int) c));
                }
                if (out.length() > MAX_LINE) {
                    break;
                }
            }
        }
        String s = out == null ? message : out.toString();
        return s.length() > MAX_LINE ? s.substring(0, MAX_LINE) + "...(cut)" : s;
    }

    /** Whether {@code c} must not reach a terminal as is. */
    static boolean unsafe(char c) {
        return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 || c == 0x2029
                || (c >= 0x200b && c <= 0x200f) || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)
                || c == 0xfeff;
    }

    private static void appendByte(StringBuilder out, int c) {
        if (c == '\\') {
            out.append("\\\\");
        } else if (c >= 0x20 && c < 0x7f) {
            out.append((char) c);
        } else {
            out.append(String.format("\\x%02x", c));
        }
    }
}
