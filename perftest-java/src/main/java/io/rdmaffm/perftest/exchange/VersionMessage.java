package io.rdmaffm.perftest.exchange;

import java.nio.charset.StandardCharsets;

/**
 * The 16-byte version message: the version string, NUL-padded. Peers compare versions with C's {@code atof},
 * so this class also reproduces that leniency when reading a peer's string.
 */
public final class VersionMessage {
    /** Size of the message on the wire. */
    public static final int SIZE = 16;
    /**
     * What we advertise. Same as Debian's perftest 4.5-0.17: keeps every legacy wire path on and stays below
     * 6.28, so a newer C peer does not start the parameter negotiation we do not implement.
     */
    public static final String LOCAL_VERSION = "6.06";
    /** perftest refuses peers older than this ("not compatible with versions older than 5.70"). */
    public static final double MIN_COMPATIBLE = 5.70;

    private VersionMessage() {
    }

    /** The wire form of a version string: its ASCII bytes followed by NULs up to 16 bytes. */
    public static byte[] encode(String version) {
        byte[] text = version.getBytes(StandardCharsets.US_ASCII);
        // strncpy into char[16] leaves no NUL for a 16-char string; the peer then reads past it, so refuse.
        if (text.length >= SIZE) {
            throw new IllegalArgumentException("version string too long: " + version);
        }
        byte[] out = new byte[SIZE];
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /**
     * The peer's version string: the bytes up to the first NUL (or all 16), one char per byte (ISO-8859-1), so
     * that a message can show exactly the bytes a peer sent ({@link Untrusted#text}).
     */
    public static String decode(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        return new String(message, 0, end, StandardCharsets.ISO_8859_1);
    }

    /**
     * The numeric value C's {@code atof} gives the string: leading blanks skipped, then the longest prefix that
     * reads as a decimal number; 0 when there is none (so "", "abc" and "v6" all count as 0).
     */
    public static double numeric(String version) {
        int i = 0;
        int n = version.length();
        while (i < n && Character.isWhitespace(version.charAt(i))) {
            i++;
        }
        int start = i;
        if (i < n && (version.charAt(i) == '+' || version.charAt(i) == '-')) {
            i++;
        }
        boolean digits = false;
        while (i < n && Character.isDigit(version.charAt(i))) {
            i++;
            digits = true;
        }
        if (i < n && version.charAt(i) == '.') {
            i++;
            while (i < n && Character.isDigit(version.charAt(i))) {
                i++;
                digits = true;
            }
        }
        if (!digits) {
            return 0.0;
        }
        String number = version.substring(start, i);
        if (number.endsWith(".")) {
            number = number + "0";
        }
        return Double.parseDouble(number);
    }

    /** Throws the user-facing error perftest would give for a peer older than {@link #MIN_COMPATIBLE}. */
    public static void requireCompatible(String peerVersion) throws ExchangeException {
        if (numeric(peerVersion) < MIN_COMPATIBLE) {
            String shown = peerVersion.isEmpty() ? "(empty)" : Untrusted.text(peerVersion);
            throw new ExchangeException("peer speaks perftest version " + shown + ", need >= 5.70");
        }
    }
}
