package io.rdmaffm.verbs.topology;

/**
 * An IP address assigned to a netdev.
 *
 * @param text      the address in its usual text form ({@code 10.77.0.1}, {@code fe80::1})
 * @param gidHex    the address as a RoCE GID would hold it: 32 hex digits (IPv4 as {@code ::ffff:a.b.c.d})
 * @param ipv4      whether it is an IPv4 address
 * @param linkLocal whether it is an IPv6 link-local address
 */
public record IpAddress(String text, String gidHex, boolean ipv4, boolean linkLocal) {
}
