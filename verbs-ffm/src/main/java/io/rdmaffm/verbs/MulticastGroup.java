package io.rdmaffm.verbs;

import java.util.HexFormat;

/**
 * A multicast group a UD queue pair joins ({@link QueuePair#attachMulticast}): its GID (16 bytes, first byte
 * 0xFF, as IBTA and IPv6 mark a multicast address) and its LID (InfiniBand: the MLID the subnet manager gave
 * the group; RoCE: 0, the GID alone addresses it). Immutable: the GID is copied in and out.
 */
public final class MulticastGroup {
    /** The remote QPN a datagram to a multicast group carries (IBTA: every QP attached to the group takes it). */
    public static final int MULTICAST_QPN = 0xFFFFFF;

    private final byte[] gid;
    private final int lid;

    /**
     * @throws IllegalArgumentException if {@code gid} is not 16 bytes beginning with 0xFF, or {@code lid} is not
     *                                  an unsigned 16-bit value
     */
    public MulticastGroup(byte[] gid, int lid) {
        if (gid == null || gid.length != 16) {
            throw new IllegalArgumentException("a multicast GID has 16 bytes, not "
                    + (gid == null ? "none" : gid.length));
        }
        if (gid[0] != (byte) 0xFF) {
            throw new IllegalArgumentException("not a multicast GID (the first byte of a multicast GID is 0xff): "
                    + HexFormat.of().formatHex(gid));
        }
        if (lid < 0 || lid > 0xFFFF) {
            throw new IllegalArgumentException("a LID is 16 bits: " + lid);
        }
        this.gid = gid.clone();
        this.lid = lid;
    }

    /** The GID's 16 bytes (a copy). */
    public byte[] gid() {
        return gid.clone();
    }

    /** The multicast LID (0 on RoCE). */
    public int lid() {
        return lid;
    }

    /** Identity for a QP's set of attachments: the GID and the LID. */
    String key() {
        return HexFormat.of().formatHex(gid) + "/" + lid;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MulticastGroup g && g.key().equals(key());
    }

    @Override
    public int hashCode() {
        return key().hashCode();
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("multicast group ");
        for (int i = 0; i < 16; i += 2) {
            if (i > 0) {
                s.append(':');
            }
            s.append(HexFormat.of().toHexDigits(gid[i])).append(HexFormat.of().toHexDigits(gid[i + 1]));
        }
        return s.append(" lid ").append(lid).toString();
    }
}
