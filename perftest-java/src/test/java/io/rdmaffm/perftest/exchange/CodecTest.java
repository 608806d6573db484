package io.rdmaffm.perftest.exchange;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.perftest.vocab.BwReport;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The message codecs against the bytes C perftest 4.5-0.17 actually sent. */
class CodecTest {
    private static final String[] RUNS = {"write_bw", "write_bw_json", "write_bw_q2", "read_bw", "atomic_bw",
        "send_bw", "send_lat", "send_lat_ud", "write_lat", "read_lat", "atomic_lat"};

    @Test
    void versionMessageIsTheCapturedOne() {
        for (String run : RUNS) {
            Capture c = Capture.load(run);
            assertArrayEquals(c.client.get(0).bytes(), VersionMessage.encode(VersionMessage.LOCAL_VERSION), run);
            assertEquals("6.06", VersionMessage.decode(c.server.get(0).bytes()), run);
        }
        assertEquals("362e3036000000000000000000000000", HexFormat.of().formatHex(VersionMessage.encode("6.06")));
    }

    @Test
    void versionsCompareLikeAtof() {
        assertEquals(6.06, VersionMessage.numeric("6.06"));
        assertEquals(5.7, VersionMessage.numeric("5.70"));
        assertEquals(0.0, VersionMessage.numeric(""));
        assertEquals(0.0, VersionMessage.numeric("abc"));
        assertEquals(6.1, VersionMessage.numeric("6.1rc2"));
        assertDoesNotThrow(() -> VersionMessage.requireCompatible("5.70"));
        assertDoesNotThrow(() -> VersionMessage.requireCompatible("6.29"));
        ExchangeException e = assertThrows(ExchangeException.class, () -> VersionMessage.requireCompatible("5.60"));
        assertEquals("peer speaks perftest version 5.60, need >= 5.70", e.getMessage());
        assertThrows(ExchangeException.class, () -> VersionMessage.requireCompatible(""));
    }

    @Test
    void sysDataIsBigEndianAndMerged() {
        Capture c = Capture.load("write_bw");
        assertEquals(4096, SysData.decodeInt(c.client.get(2).bytes()));
        assertEquals(64, SysData.decodeInt(c.client.get(4).bytes()));
        assertArrayEquals(c.client.get(2).bytes(), SysData.encodeInt(4096));
        assertArrayEquals(c.client.get(4).bytes(), SysData.encodeInt(64));
        assertEquals(new SysData(65536, 128), new SysData(4096, 128).merge(new SysData(65536, 64)));
    }

    @Test
    void mtuMessage() {
        Capture c = Capture.load("send_lat_ud");
        assertArrayEquals(c.client.get(6).bytes(), MtuMessage.encode(3, MtuMessage.size(6.06)));
        assertEquals(3, MtuMessage.decode(c.client.get(7).bytes()));
        assertEquals(2, MtuMessage.size(5.31));
        assertEquals(4, MtuMessage.size(5.2));
        assertEquals(0, MtuMessage.size(5.0));
        assertArrayEquals(new byte[] {'5', 0, 0, 0}, MtuMessage.encode(5, 4));
        assertEquals(2, MtuMessage.negotiate(5, 2));
        assertEquals(4, MtuMessage.negotiate(4, -1));
        assertEquals(-1, MtuMessage.decode(new byte[] {'9', 0}));
        assertEquals(1024, MtuMessage.bytes(3));
        assertEquals(5, MtuMessage.enumOf(4096));
    }

    @Test
    void everyCapturedKeyMessageRoundTrips() throws Exception {
        int seen = 0;
        for (String run : RUNS) {
            Capture c = Capture.load(run);
            for (List<Capture.Io> view : List.of(c.client, c.server)) {
                for (Capture.Io io : view) {
                    if (io.bytes().length == KeyMessage.SIZE_GID) {
                        assertArrayEquals(io.bytes(), KeyMessage.encode(KeyMessage.decode(io.bytes(), true), true));
                        seen++;
                    }
                }
            }
        }
        assertTrue(seen > 100, "key messages seen: " + seen);
    }

    @Test
    void keyMessageFieldsOfWriteBw() throws Exception {
        byte[] msg = Capture.load("write_bw").client.get(8).bytes();
        PingPongDest d = KeyMessage.decode(msg, true);
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        gid[12] = 10;
        gid[13] = 77;
        gid[15] = 1;
        assertEquals(new PingPongDest(0, 1, 0x12, 0x0e7e49, 0x299, 0x5646696a6000L, gid, 0), d);
        PingPongDest read = KeyMessage.decode(Capture.load("read_bw").client.get(8).bytes(), true);
        assertEquals(0x80, read.outReads());
    }

    @Test
    void keyMessageWithoutGid() throws Exception {
        PingPongDest d = PingPongDest.withoutGid(0x12, 1, 0x1234, 0xabcdef, 0x2440, 0x7f2e5f64b000L, 0);
        byte[] wire = KeyMessage.encode(d, false);
        assertEquals("0012:0001:001234:abcdef:00002440:00007f2e5f64b000:00000000\0",
                new String(wire, StandardCharsets.US_ASCII));
        assertEquals(59, wire.length);
        assertEquals(d, KeyMessage.decode(wire, false));
    }

    @Test
    void keyMessageWithGidRendersLikeC() {
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xff;
        gid[11] = (byte) 0xff;
        gid[12] = 10;
        gid[15] = 1;
        PingPongDest d = new PingPongDest(0, 1, 0x1234, 0xabcdef, 0x2440, 0x7f2e5f64b000L, gid, 0);
        assertEquals("0000:0001:001234:abcdef:00002440:00007f2e5f64b000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:00:00:01"
                + ":00000000:\0", new String(KeyMessage.encode(d, true), StandardCharsets.US_ASCII));
    }

    @Test
    void unsignedFieldsKeepTheirHighBit() throws Exception {
        PingPongDest d = PingPongDest.withoutGid(0xffff, 0xffff, 0xffffff, 0xffffff, 0xfedcba98, -1L, 0x80000000);
        byte[] wire = KeyMessage.encode(d, false);
        assertEquals("ffff:ffff:ffffff:ffffff:fedcba98:ffffffffffffffff:80000000\0",
                new String(wire, StandardCharsets.US_ASCII));
        assertEquals(d, KeyMessage.decode(wire, false));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "0000:0001:000012:0e7e49:00000299:00005646696a6000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:01:00000000.\0",
        "0000:0001:000012:0e7e49:00000299:00005646696a6000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:01:0000000g:\0",
        "0000;0001:000012:0e7e49:00000299:00005646696a6000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:01:00000000:\0",
        "0000:0001:000012:0e7e49:00000299:00005646696a6000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:01:00000000::",
        "0000:0001:000012:0e7e49:00000299:00005646696a6000:00:00:00:00:00:00:00:00:00:00:ff:ff:0a:4d:00:01:00000000:",
    })
    void malformedKeyMessagesAreRejectedWithAClearMessage(String text) {
        byte[] wire = text.getBytes(StandardCharsets.ISO_8859_1);
        ExchangeException e = assertThrows(ExchangeException.class, () -> KeyMessage.decode(wire, true));
        assertTrue(e.getMessage().startsWith("malformed key message: "), e.getMessage());
    }

    @Test
    void gidFormMismatchIsReported() throws Exception {
        byte[] noGid = KeyMessage.encode(PingPongDest.withoutGid(1, 1, 1, 1, 1, 1, 0), false);
        ExchangeException e = assertThrows(ExchangeException.class, () -> KeyMessage.decode(noGid, true));
        assertTrue(e.getMessage().contains("expected 108 bytes (with GID), got 59"), e.getMessage());
    }

    @Test
    void outOfRangeFieldsAreRefusedBeforeTheyBreakTheFixedWidth() {
        assertThrows(IllegalArgumentException.class, () -> PingPongDest.withoutGid(0, 1, 0x1000000, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> PingPongDest.withoutGid(0x10000, 1, 1, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new PingPongDest(0, 1, 1, 0, 0, 0, new byte[4], 0));
    }

    @Test
    void bwReportOfTheCapturedClient() {
        Capture c = Capture.load("write_bw");
        byte[][] fields = Capture.sentReportFields(c.client);
        BwReport r = BwReportMessage.decode(fields);
        assertEquals(65536, r.size());
        assertEquals(2000, r.iters());
        // The client printed " 65536      2000             37.78              32.26  \t\t   0.000516".
        assertEquals(37.78, r.bwPeak(), 0.005);
        assertEquals(32.26, r.bwAvg(), 0.005);
        assertEquals(0.000516, r.msgRate(), 0.0000005);
        byte[][] again = BwReportMessage.encode(r, 6.06);
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(fields[i], again[i], "field " + i);
        }
    }

    @Test
    void oldPeersGetFourByteIterations() {
        BwReport r = new BwReport(2, 5000, 1.5, 1.25, 0.5);
        byte[][] wire = BwReportMessage.encode(r, 5.32);
        assertEquals(4, wire[1].length);
        assertArrayEquals(new byte[] {0, 0, 0x13, (byte) 0x88}, wire[1]);
        assertEquals(r, BwReportMessage.decode(wire));
        assertEquals(8, BwReportMessage.encode(r, 5.33)[1].length);
    }

    @Test
    void binaryKeyIsCsStructPingpongDestInNetworkOrder() throws Exception {
        byte[] gid = HexFormat.of().parseHex("00000000000000000000ffff0a4d0001");
        PingPongDest d = new PingPongDest(0x12, 0x10, 0x2b, 0x28be32, 0x80000a69, 0x7fc11c3b6000L, gid, 0);
        byte[] wire = BinaryKeyMessage.encode(d, 1);
        // int lid, out_reads, qpn, psn; unsigned rkey; 4 bytes padding; u64 vaddr; u8 gid[16]; srqn; gid_index.
        assertEquals("00000012" + "00000010" + "0000002b" + "0028be32" + "80000a69" + "00000000"
                + "00007fc11c3b6000" + "00000000000000000000ffff0a4d0001" + "00000000" + "00000001",
                HexFormat.of().formatHex(wire));
        assertEquals(d, BinaryKeyMessage.decode(wire));
    }

    @Test
    void binaryKeyOfTheWrongSizeOrRangeIsRefused() {
        ExchangeException shortMsg = assertThrows(ExchangeException.class, () -> BinaryKeyMessage.decode(new byte[59]));
        assertTrue(shortMsg.getMessage().contains("expected 56 bytes"), shortMsg.getMessage());
        byte[] wire = new byte[BinaryKeyMessage.SIZE];
        wire[8] = 0x7f; // QPN 0x7f000000 does not fit 24 bits: this peer is not sending a pingpong_dest
        ExchangeException range = assertThrows(ExchangeException.class, () -> BinaryKeyMessage.decode(wire));
        assertTrue(range.getMessage().contains("qpn"), range.getMessage());
    }
}
