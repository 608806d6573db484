package io.rdmaffm.perftest.exchange;

import io.rdmaffm.perftest.vocab.BwReport;

/**
 * The wire form of {@link BwReport}: five separate lock-step messages, each big-endian: size (u64), iterations
 * (u64, or u32 for peers older than 5.33), then peak, average and message rate as IEEE-754 doubles.
 * <p>
 * In a uni-directional write/read/atomic test the server's answers are uninitialised memory in C perftest:
 * whatever decodes from them must never be validated or used.
 */
public final class BwReportMessage {
    /** Number of messages one report takes. */
    public static final int FIELDS = 5;
    /** Peers from this version on send iterations as 8 bytes. */
    public static final double LONG_ITERS_VERSION = 5.33;

    private BwReportMessage() {
    }

    /** Size of field {@code index} (0..4) when talking to a peer of the given version. */
    public static int fieldSize(int index, double peerVersion) {
        if (index < 0 || index >= FIELDS) {
            throw new IndexOutOfBoundsException(index);
        }
        return index == 1 && peerVersion < LONG_ITERS_VERSION ? 4 : 8;
    }

    /** The five messages of a report, in wire order. */
    public static byte[][] encode(BwReport r, double peerVersion) {
        byte[] iters = fieldSize(1, peerVersion) == 4 ? SysData.encodeInt((int) r.iters()) : u64(r.iters());
        return new byte[][] {
            u64(r.size()), iters, u64(Double.doubleToRawLongBits(r.bwPeak())),
            u64(Double.doubleToRawLongBits(r.bwAvg())), u64(Double.doubleToRawLongBits(r.msgRate()))
        };
    }

    /** A report from its five messages (no validation: the server's replies are garbage by design). */
    public static BwReport decode(byte[][] fields) {
        if (fields.length != FIELDS) {
            throw new IllegalArgumentException("a report has 5 fields, got " + fields.length);
        }
        long iters = fields[1].length == 4 ? Integer.toUnsignedLong(SysData.decodeInt(fields[1])) : readU64(fields[1]);
        return new BwReport(readU64(fields[0]), iters, Double.longBitsToDouble(readU64(fields[2])),
                Double.longBitsToDouble(readU64(fields[3])), Double.longBitsToDouble(readU64(fields[4])));
    }

    /** Big-endian 8 bytes. */
    public static byte[] u64(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (56 - 8 * i));
        }
        return b;
    }

    /** Reads big-endian 8 bytes. */
    public static long readU64(byte[] b) {
        if (b.length != 8) {
            throw new IllegalArgumentException("expected 8 bytes, got " + b.length);
        }
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[i] & 0xff);
        }
        return v;
    }
}
