package io.rdmaffm.perftest.exchange;

import java.nio.charset.StandardCharsets;

/**
 * The MTU message: the {@code enum ibv_mtu} value (1 = 256 … 5 = 4096) as ASCII decimal plus NUL, 2 bytes for
 * peers ≥ 5.31 and 4 bytes for 5.1 ≤ peer &lt; 5.31. Both sides then use the smaller MTU.
 */
public final class MtuMessage {
    /** Peers older than this send no MTU message. */
    public static final double MIN_PEER_VERSION = 5.1;
    /** Peers from this version on use the 2-byte form. */
    public static final double SHORT_FORM_VERSION = 5.31;

    private MtuMessage() {
    }

    /** The message size to use with a peer of the given version (0: no MTU message at all). */
    public static int size(double peerVersion) {
        if (peerVersion < MIN_PEER_VERSION) {
            return 0;
        }
        return peerVersion >= SHORT_FORM_VERSION ? 2 : 4;
    }

    /** The wire form of an MTU enum value (1..5) in a message of {@code size} bytes. */
    public static byte[] encode(int mtuEnum, int size) {
        checkEnum(mtuEnum);
        byte[] text = Integer.toString(mtuEnum).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[size];
        System.arraycopy(text, 0, out, 0, text.length);
        return out;
    }

    /**
     * The MTU enum value in a peer's message, or -1 when it does not hold a valid value (perftest then keeps
     * its own MTU).
     */
    public static int decode(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII).trim();
        try {
            int v = Integer.parseInt(text);
            return v >= 1 && v <= 5 ? v : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The MTU both sides use: the smaller one, or ours when the peer's was invalid. */
    public static int negotiate(int localEnum, int peerEnum) {
        return peerEnum < 1 ? localEnum : Math.min(localEnum, peerEnum);
    }

    /** Bytes of an MTU enum value: 256 &lt;&lt; (value - 1). */
    public static int bytes(int mtuEnum) {
        checkEnum(mtuEnum);
        return 128 << mtuEnum;
    }

    /** The enum value of an MTU in bytes (256, 512, 1024, 2048 or 4096). */
    public static int enumOf(int bytes) {
        for (int e = 1; e <= 5; e++) {
            if ((128 << e) == bytes) {
                return e;
            }
        }
        throw new IllegalArgumentException("not an RDMA MTU: " + bytes);
    }

    private static void checkEnum(int mtuEnum) {
        if (mtuEnum < 1 || mtuEnum > 5) {
            throw new IllegalArgumentException("MTU enum must be 1..5, got " + mtuEnum);
        }
    }
}
