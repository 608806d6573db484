package io.rdmaffm.verbs.topology;

import java.util.Locale;
import java.util.Optional;

/**
 * One used entry of a port's GID table.
 *
 * @param index   the GID index (what perftest takes as {@code -x})
 * @param address the GID as printed ({@code fe80:0000:...}), lower case
 * @param type    {@code gid_attrs/types/<i>}: {@code "RoCE v2"}, {@code "IB/RoCE v1"}, or why unknown
 * @param netdev  {@code gid_attrs/ndevs/<i>}: the netdev the GID belongs to, or why unknown (IB ports have none)
 */
public record Gid(int index, String address, Reading<String> type, Reading<String> netdev) {

    /**
     * @param text a GID as printed by the kernel
     * @return whether it denotes an unused slot (all zero, or a bare {@code fe80::})
     */
    public static boolean isEmptySlot(String text) {
        String hex = text.replace(":", "").toLowerCase(Locale.ROOT);
        if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            return false;
        }
        return hex.equals("0".repeat(32)) || hex.equals("fe80" + "0".repeat(28));
    }

    /**
     * @param text a GID as printed
     * @return whether it is 8 groups of 4 hex digits
     */
    public static boolean isWellFormed(String text) {
        return text.matches("(?i)^[0-9a-f]{4}(:[0-9a-f]{4}){7}$");
    }

    /** @return whether the type reads RoCE v2 */
    public boolean isRoceV2() {
        return type.known() && type.value().strip().equalsIgnoreCase("RoCE v2");
    }

    /** @return whether this is an IPv6 link-local GID ({@code fe80::/10}) */
    public boolean isLinkLocal() {
        String a = address.toLowerCase(Locale.ROOT);
        return a.startsWith("fe8") || a.startsWith("fe9") || a.startsWith("fea") || a.startsWith("feb");
    }

    /** @return the dotted IPv4 address of an IPv4-mapped GID ({@code ::ffff:a.b.c.d}) */
    public Optional<String> ipv4() {
        String hex = address.replace(":", "").toLowerCase(Locale.ROOT);
        if (hex.length() != 32 || !hex.startsWith("0".repeat(20) + "ffff")) {
            return Optional.empty();
        }
        StringBuilder b = new StringBuilder();
        for (int i = 24; i < 32; i += 2) {
            if (i > 24) {
                b.append('.');
            }
            b.append(Integer.parseInt(hex.substring(i, i + 2), 16));
        }
        return Optional.of(b.toString());
    }

    /** @return the address as 32 lower-case hex digits, for comparison with {@code /proc/net/if_inet6} */
    public String hex() {
        return address.replace(":", "").toLowerCase(Locale.ROOT);
    }
}
