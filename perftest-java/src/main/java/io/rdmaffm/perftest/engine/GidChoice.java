package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.GidEntry;
import io.rdmaffm.verbs.GidType;

import java.util.List;

/**
 * perftest 4.5-0.17's automatic GID index on RoCE (get_best_gid_index): starting from index 0, prefer an
 * IPv4-mapped GID over one that is not (the reverse with --ipv6), and within one family a RoCE v2 GID over
 * v1. Empty slots are skipped (perftest does not, which picks different indices on different hosts).
 */
public final class GidChoice {
    private GidChoice() {
    }

    /** The chosen index among the port's populated GIDs; -1 if the table is empty. */
    public static int best(List<GidEntry> table, boolean preferIpv6) {
        GidEntry current = null;
        for (GidEntry g : table) {
            if (current == null) {
                current = g;
                continue;
            }
            boolean gV4 = g.isIpv4Mapped();
            boolean curV4 = current.isIpv4Mapped();
            if (gV4 != curV4) {
                if (gV4 != preferIpv6) {
                    current = g;
                }
            } else if (rank(g.type()) > rank(current.type())) {
                current = g;
            }
        }
        return current == null ? -1 : current.index();
    }

    /**
     * With {@code --ipv6}: null when the chosen index holds an IPv6 GID, else why not (perftest falls back to an
     * IPv4-mapped GID without a word; here the run is refused with the table's reason).
     */
    public static String noIpv6(List<GidEntry> table, int chosen) {
        for (GidEntry g : table) {
            if (g.index() == chosen && !g.isIpv4Mapped()) {
                return null;
            }
        }
        return "has no IPv6 GID, only IPv4-mapped ones (give its netdev an IPv6 address, or leave out --ipv6)";
    }

    private static int rank(GidType t) {
        return switch (t) {
            case ROCE_V2 -> 2;
            case ROCE_V1 -> 1;
            default -> 0;
        };
    }
}
