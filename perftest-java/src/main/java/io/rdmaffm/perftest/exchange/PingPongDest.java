package io.rdmaffm.perftest.exchange;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * What one side tells the other about one of its queue pairs (perftest's {@code struct pingpong_dest}).
 * Plain values only, so the exchange needs no verbs binding.
 *
 * @param lid      port LID (0 on RoCE); 16 bits
 * @param outReads outstanding RDMA reads/atomics the QP accepts (1 for send/write); 16 bits on the wire
 * @param qpn      queue pair number; 24 bits
 * @param psn      initial packet sequence number; 24 bits
 * @param rkey     remote key of the peer-visible buffer; 32 bits (unsigned in an int)
 * @param vaddr    address of the peer-visible buffer (unsigned in a long)
 * @param gid      the 16-byte GID (all zero when no GID is used); copied in and out
 * @param srqn     SRQ number (XRC/DC only, else 0); 32 bits
 */
public record PingPongDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, byte[] gid, int srqn) {
    /** Bytes in a GID. */
    public static final int GID_LENGTH = 16;

    /** Checks field ranges so every value fits its fixed-width field in the key message. */
    public PingPongDest {
        checkRange("lid", lid, 0xffff);
        checkRange("out_reads", outReads, 0xffff);
        checkRange("qpn", qpn, 0xffffff);
        checkRange("psn", psn, 0xffffff);
        if (gid == null || gid.length != GID_LENGTH) {
            throw new IllegalArgumentException("gid must be 16 bytes");
        }
        gid = gid.clone();
    }

    /** A destination without a GID (zeros), as on InfiniBand without {@code -x}. */
    public static PingPongDest withoutGid(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, int srqn) {
        return new PingPongDest(lid, outReads, qpn, psn, rkey, vaddr, new byte[GID_LENGTH], srqn);
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** Unsigned GID byte {@code i}, without copying the array. */
    public int gidByte(int i) {
        return gid[i] & 0xff;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PingPongDest d && lid == d.lid && outReads == d.outReads && qpn == d.qpn
                && psn == d.psn && rkey == d.rkey && vaddr == d.vaddr && srqn == d.srqn
                && Arrays.equals(gid, d.gid);
    }

    @Override
    public int hashCode() {
        int h = Integer.hashCode(lid);
        h = 31 * h + outReads;
        h = 31 * h + qpn;
        h = 31 * h + psn;
        h = 31 * h + rkey;
        h = 31 * h + Long.hashCode(vaddr);
        h = 31 * h + srqn;
        return 31 * h + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return "PingPongDest[lid=" + lid + ", outReads=" + outReads + ", qpn=0x" + Integer.toHexString(qpn)
                + ", psn=0x" + Integer.toHexString(psn) + ", rkey=0x" + Integer.toHexString(rkey) + ", vaddr=0x"
                + Long.toHexString(vaddr) + ", gid=" + HexFormat.of().formatHex(gid) + ", srqn=" + srqn + "]";
    }

    private static void checkRange(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " out of range: " + value);
        }
    }
}
