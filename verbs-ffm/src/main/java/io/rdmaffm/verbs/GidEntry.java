package io.rdmaffm.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One populated entry of a port's GID table (struct ibv_gid_entry), with the network device behind it
 * (RoCE GIDs are derived from that netdev's addresses).
 *
 * @param port      port number
 * @param index     GID index, what perftest's {@code -x} takes
 * @param gid       the 16 GID bytes, network order (a copy)
 * @param type      IB, RoCE v1 or RoCE v2
 * @param netdevIndex interface index of the netdev, 0 if none (InfiniBand)
 * @param netdev    the netdev's name, empty if none or unknown
 */
public record GidEntry(int port, int index, byte[] gid, GidType type, int netdevIndex, String netdev) {
    public GidEntry {
        if (gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + gid.length);
        }
        gid = gid.clone();
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** True for ::ffff:a.b.c.d, the RoCE v2 GID of an IPv4 address. */
    public boolean isIpv4Mapped() {
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xff && gid[11] == (byte) 0xff;
    }

    /** The GID as an IP address: an Inet4Address for IPv4-mapped GIDs, else an Inet6Address. */
    public InetAddress address() {
        try {
            return isIpv4Mapped() ? Inet4Address.getByAddress(Arrays.copyOfRange(gid, 12, 16))
                    : Inet6Address.getByAddress(null, gid, null);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Like show_gids and sysfs: eight groups of four hex digits. */
    public String toHexString() {
        String hex = HexFormat.of().formatHex(gid);
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 32; i += 4) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(hex, i, i + 4);
        }
        return sb.toString();
    }

    /** ::ffff:10.77.0.1 for IPv4-mapped GIDs, else the IPv6 text form. */
    public String toAddressString() {
        InetAddress a = address();
        return a instanceof Inet4Address ? "::ffff:" + a.getHostAddress() : a.getHostAddress();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GidEntry g && g.port == port && g.index == index && Arrays.equals(g.gid, gid)
                && g.type == type && g.netdevIndex == netdevIndex && g.netdev.equals(netdev);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * port + index) + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return "GID[" + port + "/" + index + "] " + toAddressString() + " " + type + (netdev.isEmpty() ? "" : " " + netdev);
    }
}
