package io.rdmaffm.perftest.params;

/**
 * The multicast group of {@code -g}: perftest's default (multicast_resources.h MCG_GID) or {@code -M}'s text,
 * which perftest reads as 16 colon-separated numbers, each as strtoll with base 0 reads it (decimal, 0x hex,
 * a leading 0 octal). perftest truncates a value over 255 and reads past the end of a short list; here both
 * are refused, as is a GID that is not multicast (first byte 255), which no device would attach.
 */
public final class MulticastGid {
    /** perftest's MCG_GID. */
    private static final byte[] DEFAULT = {(byte) 255, 1, 0, 0, 0, 2, (byte) 201, (byte) 133, 0, 0, 0, 0, 0, 0, 0, 0};

    private MulticastGid() {
    }

    /**
     * The group a side joins: {@code -M}'s when given; else perftest's default, its last byte plus one for the
     * client (perftest's set_multicast_gid: in ib_send_lat each side joins its own group).
     */
    public static byte[] of(String mgid, boolean client) {
        if (mgid != null) {
            return parse(mgid);
        }
        byte[] g = DEFAULT.clone();
        if (client) {
            g[15]++;
        }
        return g;
    }

    /**
     * {@code -M}'s text as 16 bytes.
     *
     * @throws InvalidParameterException one line naming what is wrong with it
     */
    public static byte[] parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 16) {
            throw invalid(text, "16 colon-separated byte values, not " + parts.length);
        }
        byte[] g = new byte[16];
        for (int i = 0; i < 16; i++) {
            int v = byteValue(parts[i].trim());
            if (v < 0) {
                throw invalid(text, "byte " + (i + 1) + " '" + parts[i] + "' is not a number 0..255 (decimal, 0x hex "
                        + "or 0 octal)");
            }
            g[i] = (byte) v;
        }
        if (g[0] != (byte) 255) {
            throw invalid(text, "a multicast GID begins with 255 (0xff)");
        }
        return g;
    }

    /** strtoll(s, NULL, 0) for one byte: the value, or -1 if {@code s} is not wholly a number 0..255. */
    private static int byteValue(String s) {
        int radix = 10;
        String digits = s;
        if (s.length() > 2 && (s.startsWith("0x") || s.startsWith("0X"))) {
            radix = 16;
            digits = s.substring(2);
        } else if (s.length() > 1 && s.startsWith("0")) {
            radix = 8;
            digits = s.substring(1);
        }
        if (digits.isEmpty() || digits.length() > 4) {
            return -1;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (Character.digit(digits.charAt(i), radix) < 0) {
                return -1;
            }
        }
        int v = Integer.parseInt(digits, radix);
        return v <= 255 ? v : -1;
    }

    /** perftest's reading of a GID: 16 decimal byte values joined by colons, e.g. 255:1:0:0:0:2:201:133:0:...:0. */
    public static String text(byte[] gid) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < gid.length; i++) {
            b.append(i == 0 ? "" : ":").append(Byte.toUnsignedInt(gid[i]));
        }
        return b.toString();
    }

    private static InvalidParameterException invalid(String text, String why) {
        return new InvalidParameterException("invalid -M/--MGID '" + text + "': " + why);
    }
}
