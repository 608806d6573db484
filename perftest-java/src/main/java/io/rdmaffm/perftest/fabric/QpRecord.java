package io.rdmaffm.perftest.fabric;

import java.util.HexFormat;

/**
 * What one rank tells a peer about one of its RC QPs, forwarded by the coordinator to that peer only: the QP's
 * number and first PSN, the port's LID, GID and active MTU, and where in the rank's region the peer may write.
 * The link name (e.g. {@code ring-3}: the link from rank 3 to rank 4) is the same on both ends.
 *
 * @param peer  the other end: the rank it goes to when sent, the rank it came from when received
 * @param link  the link's name, no spaces
 * @param qpn   QP number
 * @param psn   first packet sequence number
 * @param lid   LID (0 on RoCE)
 * @param gid   16-byte GID, or null without one
 * @param mtu   the port's active MTU in bytes
 * @param addr  where the peer writes
 * @param rkey  the region's remote key
 */
record QpRecord(int peer, String link, int qpn, int psn, int lid, byte[] gid, int mtu, long addr, int rkey) {

    /** The line after "QP ": peer link qpn psn lid gid mtu addr rkey (numbers in hex, gid "-" when none). */
    String line() {
        HexFormat h = HexFormat.of();
        return peer + " " + link + " " + Integer.toHexString(qpn) + " " + Integer.toHexString(psn) + " "
                + Integer.toHexString(lid) + " " + (gid == null ? "-" : h.formatHex(gid)) + " " + mtu + " "
                + Long.toHexString(addr) + " " + Integer.toHexString(rkey);
    }

    /**
     * @param line what {@link #line()} wrote (the peer rank field replaced by the coordinator)
     * @return the record
     * @throws FabricFailure for a line that is not one
     */
    static QpRecord parse(String line) {
        String[] f = line.split(" ");
        if (f.length != 9) {
            throw new FabricFailure("coordinator sent a malformed QP record: " + line);
        }
        try {
            byte[] gid = f[5].equals("-") ? null : HexFormat.of().parseHex(f[5]);
            if (gid != null && gid.length != 16) {
                throw new FabricFailure("coordinator sent a GID of " + gid.length + " bytes");
            }
            return new QpRecord(Integer.parseInt(f[0]), f[1], Integer.parseUnsignedInt(f[2], 16),
                    Integer.parseUnsignedInt(f[3], 16), Integer.parseUnsignedInt(f[4], 16), gid,
                    Integer.parseInt(f[6]), Long.parseUnsignedLong(f[7], 16), Integer.parseUnsignedInt(f[8], 16));
        } catch (IllegalArgumentException e) {
            throw new FabricFailure("coordinator sent a malformed QP record (" + e.getMessage() + "): " + line);
        }
    }
}
