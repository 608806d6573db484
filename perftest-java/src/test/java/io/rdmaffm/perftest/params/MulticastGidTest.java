package io.rdmaffm.perftest.params;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MulticastGidTest {
    @Test
    void perftestsDefaultGroupAndTheLatencyClientsOwn() {
        byte[] server = {(byte) 255, 1, 0, 0, 0, 2, (byte) 201, (byte) 133, 0, 0, 0, 0, 0, 0, 0, 0};
        assertArrayEquals(server, MulticastGid.of(null, false));
        byte[] client = server.clone();
        client[15] = 1;
        assertArrayEquals(client, MulticastGid.of(null, true), "perftest's client joins the next group");
        assertArrayEquals(server, MulticastGid.of("255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0", true),
                "a given -M is the group on both sides");
    }

    @Test
    void eachByteReadAsStrtollWithBaseZero() {
        byte[] g = MulticastGid.parse("0xff:0x0E:010:0:0:2:201:133:0:0:0:0:0:0:0:7");
        assertArrayEquals(new byte[] {(byte) 255, 14, 8, 0, 0, 2, (byte) 201, (byte) 133, 0, 0, 0, 0, 0, 0, 0, 7}, g);
    }

    @Test
    void badTextIsOneLine() {
        for (String bad : new String[] {"", "255", "255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:256",
                "255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:", "255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0:0",
                "255:1:0:0:0:2:201:133:0:0:0:0:0:0:0:09", "1:1:0:0:0:2:201:133:0:0:0:0:0:0:0:0"}) {
            InvalidParameterException e = assertThrows(InvalidParameterException.class, () -> MulticastGid.parse(bad));
            assertTrue(e.getMessage().startsWith("invalid -M/--MGID '" + bad + "': ") && !e.getMessage().contains("\n"),
                    e.getMessage());
        }
    }
}
