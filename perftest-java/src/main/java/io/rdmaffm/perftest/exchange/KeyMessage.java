package io.rdmaffm.perftest.exchange;

import java.nio.charset.StandardCharsets;

/**
 * The key ("pingpong dest") message: lower-case, zero-padded hex fields separated by ':' and terminated by a
 * NUL, 59 bytes without GID and 108 bytes with GID (which also ends in a ':' after the SRQ number):
 * <pre>
 * llll:oooo:qqqqqq:pppppp:rrrrrrrr:vvvvvvvvvvvvvvvv:ssssssss\0
 * llll:oooo:qqqqqq:pppppp:rrrrrrrr:vvvvvvvvvvvvvvvv:gg:…(16 GID bytes)…:gg:ssssssss:\0
 * </pre>
 * Which form is used is decided by each side on its own (GID in use or not); both must agree, so a length
 * mismatch shows up as a malformed message, which {@link #decode} reports precisely.
 */
public final class KeyMessage {
    /** Size of the form without GID, including the NUL. */
    public static final int SIZE_NO_GID = 59;
    /** Size of the form with GID, including the NUL. */
    public static final int SIZE_GID = 108;

    // Hex digits per field, in wire order, for the no-GID form; the GID form inserts 16 two-digit fields
    // before the last one and adds a trailing ':'.
    private static final int[] HEAD_WIDTHS = {4, 4, 6, 6, 8, 16};
    private static final int SRQN_WIDTH = 8;

    private KeyMessage() {
    }

    /** The message size for the form in use. */
    public static int size(boolean withGid) {
        return withGid ? SIZE_GID : SIZE_NO_GID;
    }

    /** The wire form of a destination, NUL included. */
    public static byte[] encode(PingPongDest d, boolean withGid) {
        StringBuilder b = new StringBuilder(SIZE_GID);
        hex(b, d.lid(), 4).append(':');
        hex(b, d.outReads(), 4).append(':');
        hex(b, d.qpn(), 6).append(':');
        hex(b, d.psn(), 6).append(':');
        hex(b, Integer.toUnsignedLong(d.rkey()), 8).append(':');
        hex(b, d.vaddr(), 16).append(':');
        if (withGid) {
            for (int i = 0; i < PingPongDest.GID_LENGTH; i++) {
                hex(b, d.gidByte(i), 2).append(':');
            }
        }
        hex(b, Integer.toUnsignedLong(d.srqn()), 8);
        if (withGid) {
            b.append(':');
        }
        b.append('\0');
        byte[] out = b.toString().getBytes(StandardCharsets.US_ASCII);
        if (out.length != size(withGid)) {
            throw new IllegalStateException("key message has " + out.length + " bytes");
        }
        return out;
    }

    /**
     * Parses a peer's key message of the form in use. Strict: fixed field widths, hex digits only, ':' where
     * the format has them, NUL at the end; any deviation is an {@link ExchangeException} whose message starts
     * with "malformed key message: " and says where and what.
     */
    public static PingPongDest decode(byte[] message, boolean withGid) throws ExchangeException {
        int expected = size(withGid);
        if (message.length != expected) {
            throw malformed("expected " + expected + " bytes (" + (withGid ? "with" : "without")
                    + " GID), got " + message.length, message);
        }
        Cursor c = new Cursor(message);
        long lid = c.field(HEAD_WIDTHS[0], "LID");
        long outReads = c.field(HEAD_WIDTHS[1], "out_reads");
        long qpn = c.field(HEAD_WIDTHS[2], "QPN");
        long psn = c.field(HEAD_WIDTHS[3], "PSN");
        long rkey = c.field(HEAD_WIDTHS[4], "rkey");
        long vaddr = c.field(HEAD_WIDTHS[5], "vaddr");
        byte[] gid = new byte[PingPongDest.GID_LENGTH];
        if (withGid) {
            for (int i = 0; i < gid.length; i++) {
                gid[i] = (byte) c.field(2, "GID byte " + i);
            }
        }
        long srqn = c.lastField(SRQN_WIDTH, "SRQN", withGid);
        return new PingPongDest((int) lid, (int) outReads, (int) qpn, (int) psn, (int) rkey, vaddr, gid,
                (int) srqn);
    }

    private static StringBuilder hex(StringBuilder b, long value, int width) {
        String h = Long.toHexString(value);
        for (int i = h.length(); i < width; i++) {
            b.append('0');
        }
        return b.append(h);
    }

    private static ExchangeException malformed(String what, byte[] message) {
        return new ExchangeException("malformed key message: " + what + " in \"" + Untrusted.bytes(message) + "\"");
    }

    private static final class Cursor {
        private final byte[] m;
        private int pos;

        Cursor(byte[] m) {
            this.m = m;
        }

        long field(int width, String name) throws ExchangeException {
            long v = digits(width, name);
            expect(':', name);
            return v;
        }

        long lastField(int width, String name, boolean trailingColon) throws ExchangeException {
            long v = digits(width, name);
            if (trailingColon) {
                expect(':', name);
            }
            if (m[pos] != 0) {
                throw malformed("expected NUL at offset " + pos + ", got '" + shown(m[pos]) + "'", m);
            }
            return v;
        }

        private long digits(int width, String name) throws ExchangeException {
            long v = 0;
            for (int i = 0; i < width; i++, pos++) {
                int d = Character.digit(m[pos] & 0xff, 16);
                if (d < 0) {
                    throw malformed(name + " has non-hex character '" + shown(m[pos]) + "' at offset " + pos, m);
                }
                v = (v << 4) | d;
            }
            return v;
        }

        private void expect(char sep, String after) throws ExchangeException {
            if (m[pos] != sep) {
                throw malformed("expected '" + sep + "' after " + after + " at offset " + pos + ", got '"
                        + shown(m[pos]) + "'", m);
            }
            pos++;
        }

        private static String shown(byte b) {
            return Untrusted.bytes(new byte[] {b});
        }
    }
}
