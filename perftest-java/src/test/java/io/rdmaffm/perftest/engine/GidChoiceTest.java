package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.GidEntry;
import io.rdmaffm.verbs.GidType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** perftest's automatic GID index, and {@code --ipv6}'s turn to IPv6 GIDs (refused where the table has none). */
class GidChoiceTest {

    private static GidEntry v4(int index, GidType t) {
        byte[] g = new byte[16];
        g[10] = (byte) 0xff;
        g[11] = (byte) 0xff;
        g[12] = 10;
        g[13] = 77;
        g[15] = 1;
        return new GidEntry(1, index, g, t, 2, "veth0");
    }

    private static GidEntry v6(int index, GidType t) {
        byte[] g = new byte[16];
        g[0] = (byte) 0xfd;
        g[15] = 1;
        return new GidEntry(1, index, g, t, 2, "veth0");
    }

    @Test
    void ipv4MappedRoceV2ByDefaultIpv6WithTheFlag() {
        List<GidEntry> table = List.of(v6(0, GidType.ROCE_V1), v6(1, GidType.ROCE_V2), v4(2, GidType.ROCE_V1),
                v4(3, GidType.ROCE_V2));
        assertEquals(3, GidChoice.best(table, false));
        assertEquals(1, GidChoice.best(table, true));
        assertNull(GidChoice.noIpv6(table, 1));
    }

    @Test
    void ipv6WithoutAnIpv6GidSaysWhy() {
        List<GidEntry> table = List.of(v4(0, GidType.ROCE_V1), v4(1, GidType.ROCE_V2));
        int chosen = GidChoice.best(table, true);
        assertEquals(1, chosen);
        assertTrue(GidChoice.noIpv6(table, chosen).startsWith("has no IPv6 GID, only IPv4-mapped ones"));
    }
}
