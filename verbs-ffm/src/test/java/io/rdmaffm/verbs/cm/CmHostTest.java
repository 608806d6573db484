package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.raw.Constants;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The pure-Java parts of the rdma_cm binding; no device needed. */
class CmHostTest {

    @Test
    void eventTypesFollowTheCEnum() {
        assertEquals(Constants.RDMA_CM_EVENT_ADDR_RESOLVED, CmEventType.ADDR_RESOLVED.value());
        assertEquals(Constants.RDMA_CM_EVENT_ESTABLISHED, CmEventType.ESTABLISHED.value());
        assertEquals(Constants.RDMA_CM_EVENT_TIMEWAIT_EXIT, CmEventType.TIMEWAIT_EXIT.value());
        for (CmEventType t : CmEventType.values()) {
            if (t != CmEventType.UNKNOWN) {
                assertEquals(t, CmEventType.of(t.value()));
            }
        }
        assertEquals(CmEventType.UNKNOWN, CmEventType.of(16));
        assertEquals(CmEventType.UNKNOWN, CmEventType.of(-1));
        assertTrue(CmEventType.REJECTED.isError());
        assertTrue(CmEventType.ADDR_ERROR.isError());
        assertFalse(CmEventType.ESTABLISHED.isError());
        assertEquals(Constants.RDMA_PS_TCP, PortSpace.TCP.value());
        assertEquals(Constants.RDMA_PS_UDP, PortSpace.UDP.value());
    }

    @Test
    void connectionParametersAreRangeChecked() {
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().privateData(new byte[256]));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().retryCount(8));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().rnrRetryCount(-1));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().responderResources(256));
        byte[] data = {1, 2, 3};
        ConnectionParameters p = new ConnectionParameters().privateData(data);
        data[0] = 9;
        assertEquals(1, p.privateData[0], "the parameters keep a copy");
        assertEquals(7, p.retryCount);
        assertEquals(0, new ConnectionParameters().privateData(null).privateData.length);
        // qp_num for an application's own queue pair: 24 bits, never 0 (QP 0 is the SMI QP)
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().qpNumber(0));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().qpNumber(1 << 24));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionParameters().qpNumber(-1));
        ConnectionParameters own = new ConnectionParameters().qpNumber(0xabcdef).srq(true);
        assertEquals(0xabcdef, own.qpNumber);
        assertTrue(own.srq);
    }

    @Test
    void udEventAddressVectorIsACopy() {
        byte[] gid = new byte[16];
        gid[15] = 1;
        io.rdmaffm.verbs.AddressVector av = new io.rdmaffm.verbs.AddressVector().port(1).global(gid, 1);
        CmEvent e = new CmEvent(CmEventType.ESTABLISHED, 0, null, null, null, 0, 0, 0, 0, 0x12, 0x01234567, av);
        av.port(2);
        assertEquals(1, e.addressVector().port(), "the event keeps its own copy");
        e.addressVector().port(3);
        assertEquals(1, e.addressVector().port(), "and hands out copies");
        assertArrayEquals(gid, e.addressVector().destinationGid());
        assertTrue(e.toString().contains("qkey 0x1234567"), e.toString());
        assertNull(new CmEvent(CmEventType.REJECTED, 28, null, null, null, 0, 0, 0, 0, 0, 0).addressVector());
    }

    @Test
    void ipv4SocketAddressesAreWrittenInNetworkOrderAndReadBack() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            InetSocketAddress a = new InetSocketAddress(InetAddress.getByName("10.77.0.1"), 0x1234);
            MemorySegment s = SocketAddresses.write(arena, a);
            assertEquals(16, s.byteSize());
            assertEquals(Constants.AF_INET, s.get(JAVA_SHORT, 0));
            assertArrayEquals(new byte[] {0x12, 0x34, 10, 77, 0, 1}, s.asSlice(2, 6).toArray(JAVA_BYTE));
            assertEquals(a, SocketAddresses.read(s));
        }
    }

    @Test
    void ipv6SocketAddressesCarryTheScope() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            Inet6Address ip = Inet6Address.getByAddress(null, InetAddress.getByName("fe80::1").getAddress(), 3);
            InetSocketAddress a = new InetSocketAddress(ip, 4791);
            MemorySegment s = SocketAddresses.write(arena, a);
            assertEquals(28, s.byteSize());
            assertEquals(Constants.AF_INET6, s.get(JAVA_SHORT, 0));
            InetSocketAddress back = SocketAddresses.read(s);
            assertEquals(a, back);
            assertEquals(3, ((Inet6Address) back.getAddress()).getScopeId());
            assertNull(SocketAddresses.read(arena.allocate(128)), "family 0: no address yet");
            assertThrows(IllegalArgumentException.class,
                    () -> SocketAddresses.write(arena, InetSocketAddress.createUnresolved("example.invalid", 1)));
        }
    }

    @Test
    void eventsCopyTheirPrivateDataAndDescribeTheRejection() {
        byte[] data = {'n', 'o', 0, 0};
        CmEvent e = new CmEvent(CmEventType.REJECTED, 28, null, null, data, 0, 0, 0, 0, 0, 0);
        data[0] = 'y';
        assertArrayEquals(new byte[] {'n', 'o'}, e.privateData(2));
        assertEquals(4, e.privateData().length);
        CmException x = CmException.forEvent("rdma_connect", e, CmEventType.ESTABLISHED, "to 10.77.0.1:1");
        assertTrue(x.getMessage().contains("REJECTED event"), x.getMessage());
        assertTrue(x.getMessage().contains("rejected by the peer application"), x.getMessage());
        assertEquals(0, x.errno());
        CmEvent addrError = new CmEvent(CmEventType.ADDR_ERROR, -110, null, null, null, 0, 0, 0, 0, 0, 0);
        assertEquals(110, CmException.forEvent("rdma_resolve_addr", addrError, CmEventType.ADDR_RESOLVED, "x").errno());
        CmException late = CmException.timedOut("rdma_connect", CmEventType.ESTABLISHED,
                java.time.Duration.ofSeconds(3), "to x");
        assertTrue(late.isTimeout());
        assertTrue(late.getMessage().contains("no ESTABLISHED event within 3000 ms"), late.getMessage());
    }

    @Test
    void eventTextIsAscii() {
        byte[] data = new byte[56]; // a connect request's private data: zero padding past what was sent
        data[0] = 0x41;
        String text = new CmEvent(CmEventType.CONNECT_REQUEST, 0, null, null, data, 1, 1, 7, 7, 0x12, 0).toString();
        assertTrue(text.chars().allMatch(c -> c < 128), text);
        assertTrue(text.contains("private data 56 bytes 41000000000000000000000000000000..."), text);
    }
}
