package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/** struct sockaddr_in / sockaddr_in6 in native memory, to and from InetSocketAddress. */
final class SocketAddresses {
    private SocketAddresses() {
    }

    private static final long SIN_FAMILY = Offsets.sockaddr_in.sin_family;
    private static final long SIN_PORT = Offsets.sockaddr_in.sin_port;
    private static final long SIN_ADDR = Offsets.sockaddr_in.sin_addr;
    private static final long SIN6_FAMILY = Offsets.sockaddr_in6.sin6_family;
    private static final long SIN6_PORT = Offsets.sockaddr_in6.sin6_port;
    private static final long SIN6_FLOWINFO = Offsets.sockaddr_in6.sin6_flowinfo;
    private static final long SIN6_ADDR = Offsets.sockaddr_in6.sin6_addr;
    private static final long SIN6_SCOPE = Offsets.sockaddr_in6.sin6_scope_id;

    /** A sockaddr_in or sockaddr_in6 for {@code address}, zeroed, port and address in network order. */
    static MemorySegment write(SegmentAllocator allocator, InetSocketAddress address) {
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("unresolved address " + address + ": rdma_cm needs an IP address");
        }
        InetAddress ip = address.getAddress();
        short port = Short.reverseBytes((short) address.getPort());
        if (ip instanceof Inet4Address) {
            MemorySegment s = allocator.allocate(Structs.sockaddr_in);
            s.fill((byte) 0);
            s.set(JAVA_SHORT, SIN_FAMILY, (short) Constants.AF_INET);
            s.set(JAVA_SHORT, SIN_PORT, port);
            MemorySegment.copy(ip.getAddress(), 0, s, JAVA_BYTE, SIN_ADDR, 4);
            return s;
        }
        Inet6Address ip6 = (Inet6Address) ip;
        MemorySegment s = allocator.allocate(Structs.sockaddr_in6);
        s.fill((byte) 0);
        s.set(JAVA_SHORT, SIN6_FAMILY, (short) Constants.AF_INET6);
        s.set(JAVA_SHORT, SIN6_PORT, port);
        s.set(JAVA_INT, SIN6_FLOWINFO, 0);
        MemorySegment.copy(ip6.getAddress(), 0, s, JAVA_BYTE, SIN6_ADDR, 16);
        int scope = ip6.getScopedInterface() != null ? ip6.getScopedInterface().getIndex() : ip6.getScopeId();
        s.set(JAVA_INT, SIN6_SCOPE, scope);
        return s;
    }

    /** The address in a sockaddr (AF_INET or AF_INET6), or null when the family is unset. */
    static InetSocketAddress read(MemorySegment sockaddr) {
        int family = Short.toUnsignedInt(sockaddr.get(JAVA_SHORT, 0));
        try {
            if (family == Constants.AF_INET) {
                byte[] a = new byte[4];
                MemorySegment.copy(sockaddr, JAVA_BYTE, SIN_ADDR, a, 0, 4);
                return new InetSocketAddress(InetAddress.getByAddress(a), port(sockaddr, SIN_PORT));
            }
            if (family == Constants.AF_INET6) {
                byte[] a = new byte[16];
                MemorySegment.copy(sockaddr, JAVA_BYTE, SIN6_ADDR, a, 0, 16);
                return new InetSocketAddress(Inet6Address.getByAddress(null, a, sockaddr.get(JAVA_INT, SIN6_SCOPE)),
                        port(sockaddr, SIN6_PORT));
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException(e);
        }
        return null;
    }

    private static int port(MemorySegment s, long offset) {
        return Short.toUnsignedInt(Short.reverseBytes(s.get(JAVA_SHORT, offset)));
    }
}
