package io.rdmaffm.verbs;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastGroupTest {
    @Test
    void aGroupIsSixteenBytesBeginningWithFfAndASixteenBitLid() {
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xff;
        gid[1] = 1;
        MulticastGroup g = new MulticastGroup(gid, 0xc001);
        assertEquals("multicast group ff01:0000:0000:0000:0000:0000:0000:0000 lid 49153", g.toString());
        gid[15] = 7; // copied in
        assertEquals(0, g.gid()[15]);
        assertEquals(new MulticastGroup(g.gid(), 0xc001), g);
        assertNotEquals(new MulticastGroup(g.gid(), 0), g);
        IllegalArgumentException unicast = assertThrows(IllegalArgumentException.class,
                () -> new MulticastGroup(new byte[16], 0));
        assertTrue(unicast.getMessage().contains("not a multicast GID"), unicast.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MulticastGroup(new byte[15], 0));
        assertThrows(IllegalArgumentException.class, () -> new MulticastGroup(gid, 0x10000));
        assertThrows(IllegalArgumentException.class, () -> new MulticastGroup(gid, -1));
    }
}
