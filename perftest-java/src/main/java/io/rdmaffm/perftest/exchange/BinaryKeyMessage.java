package io.rdmaffm.perftest.exchange;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The key message of perftest 4.5-0.17 when the control data goes over rdma_cm ({@code -R}, {@code -z}): the
 * C {@code struct pingpong_dest} itself, 56 bytes on x86-64, with the integers and the address big-endian
 * ({@code rdma_write_keys}):
 * <pre>
 * 0 lid  4 out_reads  8 qpn  12 psn  16 rkey  20 (padding)  24 vaddr (8)  32 gid (16)  48 srqn  52 gid_index
 * </pre>
 * The reader ({@code rdma_read_keys}) takes lid, out_reads, qpn, psn, rkey, vaddr and gid and ignores the rest,
 * so srqn and gid_index are written but never trusted here either.
 */
public final class BinaryKeyMessage {
    /** {@code sizeof(struct pingpong_dest)} in perftest 4.5-0.17 on x86-64. */
    public static final int SIZE = 56;

    private static final int LID = 0;
    private static final int OUT_READS = 4;
    private static final int QPN = 8;
    private static final int PSN = 12;
    private static final int RKEY = 16;
    private static final int VADDR = 24;
    private static final int GID = 32;
    private static final int SRQN = 48;
    private static final int GID_INDEX = 52;

    private BinaryKeyMessage() {
    }

    /**
     * The wire form; the padding after rkey is zero (C leaves stack contents there).
     *
     * @param gidIndex written at offset 52 as perftest does; the reader ignores it
     */
    public static byte[] encode(PingPongDest d, int gidIndex) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.BIG_ENDIAN);
        b.putInt(LID, d.lid());
        b.putInt(OUT_READS, d.outReads());
        b.putInt(QPN, d.qpn());
        b.putInt(PSN, d.psn());
        b.putInt(RKEY, d.rkey());
        b.putLong(VADDR, d.vaddr());
        b.put(GID, d.gid());
        b.putInt(SRQN, d.srqn());
        b.putInt(GID_INDEX, gidIndex);
        return b.array();
    }

    /**
     * Reads a peer's key. Values that do not fit the fields perftest gives them (a QPN over 24 bits, a negative
     * LID) mean the peer is not speaking this protocol: an {@link ExchangeException}.
     */
    public static PingPongDest decode(byte[] message) throws ExchangeException {
        if (message.length != SIZE) {
            throw new ExchangeException("malformed binary key message: expected " + SIZE + " bytes, got "
                    + message.length);
        }
        ByteBuffer b = ByteBuffer.wrap(message).order(ByteOrder.BIG_ENDIAN);
        int lid = b.getInt(LID);
        int outReads = b.getInt(OUT_READS);
        int qpn = b.getInt(QPN);
        int psn = b.getInt(PSN);
        byte[] gid = new byte[PingPongDest.GID_LENGTH];
        b.get(GID, gid);
        try {
            return new PingPongDest(lid, outReads, qpn, psn, b.getInt(RKEY), b.getLong(VADDR), gid, 0);
        } catch (IllegalArgumentException e) {
            throw new ExchangeException("malformed binary key message: " + e.getMessage()
                    + " (is the peer running with -R too?)");
        }
    }
}
