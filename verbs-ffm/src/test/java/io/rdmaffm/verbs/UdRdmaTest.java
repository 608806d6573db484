package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Unreliable datagram on the device: address handles from an address vector and from a received
 * completion, the 40-byte GRH in front of every UD receive, and the port-MTU limit on UD messages.
 */
@Tag("rdma")
class UdRdmaTest {
    /** Every UD receive starts with room for a GRH (struct ibv_grh). */
    static final int GRH = 40;

    static void fill(MemorySegment s, long offset, int length, int seed) {
        for (int i = 0; i < length; i++) {
            s.set(JAVA_BYTE, offset + i, (byte) (seed + i * 13));
        }
    }

    static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(JAVA_BYTE);
    }

    @Test
    void sendThroughAnAddressHandleAndReplyThroughOneMadeFromTheCompletion() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.UD, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(2, 1);
             Completions rx = new Completions(8)) {
            AddressHandle ah = lb.keep(lb.pd.createAddressHandle(lb.addressVector()));
            int size = 700;
            fill(lb.bufA.segment(), 0, size, 11);
            recv.set(0, 100, lb.bufB, 0, size + GRH);
            lb.b.postRecv(recv, 1);
            recv.set(1, 101, lb.bufA, 8192, 300 + GRH); // A's receive for the reply
            lb.a.postRecv(recv, 1, 1);
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, size)
                    .ud(ah, lb.b.qpNumber(), Loopback.QKEY);
            lb.a.postSend(send, 1);

            // Completions are overwritten by the next poll: the address handle is made from the receive's
            // entry in the same poll that returned it, before polling again.
            AddressHandle reply = null;
            int replyQpn = 0;
            boolean sent = false;
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (reply == null || !sent) {
                int n = lb.cq.poll(rx);
                for (int i = 0; i < n; i++) {
                    assertEquals(WorkCompletionStatus.SUCCESS, rx.status(i), rx.describe(i));
                    if (rx.wrId(i) == 1) {
                        assertEquals(WorkCompletionOpcode.SEND, rx.opcode(i));
                        assertEquals(lb.a.qpNumber(), rx.qpNumber(i));
                        sent = true;
                    } else if (rx.wrId(i) == 100) {
                        assertEquals(WorkCompletionOpcode.RECV, rx.opcode(i));
                        assertTrue((rx.flags(i) & Completions.GRH) != 0, "UD receives carry a GRH: flags 0x"
                                + Integer.toHexString(rx.flags(i)));
                        assertEquals(size + GRH, rx.byteLength(i), "byte_len counts the 40-byte GRH");
                        assertEquals(lb.a.qpNumber(), rx.sourceQp(i), "src_qp names the sender");
                        assertEquals(lb.b.qpNumber(), rx.qpNumber(i));
                        replyQpn = rx.sourceQp(i);
                        reply = lb.keep(lb.pd.createAddressHandleFromCompletion(rx, i, lb.bufB.segment().asSlice(0, GRH),
                                Loopback.PORT));
                    } else {
                        fail("unexpected completion " + rx.describe(i));
                    }
                }
                if (n == 0 && System.nanoTime() > deadline) {
                    fail("no send and receive completion within 10 s (sent " + sent + ", received " + (reply != null) + ")");
                }
            }
            assertArrayEquals(bytes(lb.bufA.segment(), 0, size), bytes(lb.bufB.segment(), GRH, size));
            // RoCE v2 over IPv4: the GRH area holds 20 unused bytes, then the IPv4 header of the packet.
            MemorySegment grh = lb.bufB.segment();
            assertEquals(0x45, grh.get(JAVA_BYTE, 20) & 0xff, "IPv4 header (version 4, 5 words) at offset 20");
            byte[] ourIp = java.util.Arrays.copyOfRange(lb.gid.gid(), 12, 16);
            assertArrayEquals(ourIp, bytes(grh, 20 + 12, 4), "source address of the received packet");
            assertArrayEquals(ourIp, bytes(grh, 20 + 16, 4), "destination address of the received packet");

            // B answers whoever sent: the AH from the completion, the source QP from the completion.
            fill(lb.bufB.segment(), 4096, 300, 77);
            send.get(0).wrId(2).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufB, 4096, 300)
                    .ud(reply, replyQpn, Loopback.QKEY);
            lb.b.postSend(send, 1);
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(2)], p.toString());
            int r = p.of(101);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
            assertEquals(300 + GRH, p.byteLen[r]);
            assertEquals(lb.b.qpNumber(), p.srcQp[r]);
            assertEquals(lb.a.qpNumber(), p.qpn[r]);
            assertTrue((p.flags[r] & Completions.GRH) != 0);
            assertArrayEquals(bytes(lb.bufB.segment(), 4096, 300), bytes(lb.bufA.segment(), 8192 + GRH, 300));
            lb.expectNothingMore();
        }
    }

    @Test
    void aWrongQkeyIsDroppedByTheReceiver() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.UD, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(2, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            AddressHandle ah = lb.keep(lb.pd.createAddressHandle(lb.addressVector()));
            recv.set(0, 100, lb.bufB, 0, 64 + GRH);
            lb.b.postRecv(recv, 1);
            // The first datagram carries a Q_Key B does not have: the send completes, B drops it, and the
            // second (right Q_Key) lands in B's one receive buffer.
            lb.bufA.segment().set(JAVA_BYTE, 0, (byte) 1);
            lb.bufA.segment().set(JAVA_BYTE, 64, (byte) 2);
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 64)
                    .ud(ah, lb.b.qpNumber(), Loopback.QKEY + 1);
            send.get(1).wrId(2).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 64, 64)
                    .ud(ah, lb.b.qpNumber(), Loopback.QKEY);
            lb.a.postSend(send, 2);
            Loopback.Polled p = lb.await(3);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(1)], "UD sends complete whether or not they are accepted");
            int r = p.of(100);
            assertEquals(64 + GRH, p.byteLen[r]);
            assertEquals(2, lb.bufB.segment().get(JAVA_BYTE, GRH), "the receive holds the second datagram");
        }
    }

    @Test
    void aMessageLongerThanThePortMtuIsRefusedNotSilentlyDropped() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.UD, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(2, 2);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            int mtu = lb.ctx.queryPort(Loopback.PORT).activeMtu().bytes();
            assertEquals(1024, mtu, "rxe on a 1500-byte veth runs an IB MTU of 1024");
            AddressHandle ah = lb.keep(lb.pd.createAddressHandle(lb.addressVector()));
            recv.set(0, 100, lb.bufB, 0, mtu + GRH);
            lb.b.postRecv(recv, 1);
            // IBTA C10-93.1.1: the HCA sends nothing and reports no error for an oversized UD message; rxe's
            // requester completes it with IBV_WC_SUCCESS (rxe_req.c, "fake a successful UD send"). The binding
            // refuses it at post time instead. One SGE over the limit, and two SGEs that add up over it.
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, mtu + 1)
                    .ud(ah, lb.b.qpNumber(), Loopback.QKEY);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> lb.a.postSend(send, 1));
            assertTrue(e.getMessage().contains((mtu + 1) + "-byte message exceeds the port MTU of " + mtu), e.getMessage());
            send.get(1).wrId(2).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 600)
                    .sge(1, lb.bufA.addressOf(4096, 600), 600, lb.bufA.lkey()).ud(ah, lb.b.qpNumber(), Loopback.QKEY);
            send.get(0).local(lb.bufA, 0, 8);
            e = assertThrows(IllegalArgumentException.class, () -> lb.a.postSend(send, 2));
            assertTrue(e.getMessage().contains("work request 1 of 2"), e.getMessage());
            lb.expectNothingMore(); // nothing of the refused lists was posted

            // Exactly one MTU is fine and arrives whole.
            fill(lb.bufA.segment(), 0, mtu, 5);
            send.get(0).wrId(3).local(lb.bufA, 0, mtu);
            lb.a.postSend(send, 1);
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(3)], p.toString());
            assertEquals(mtu + GRH, p.byteLen[p.of(100)]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, mtu), bytes(lb.bufB.segment(), GRH, mtu));
        }
    }

    @Test
    void extendedSendApiOnUdChecksTheMtuToo() throws Exception {
        long ops = ExtendedSendOps.SEND | ExtendedSendOps.SEND_WITH_IMM;
        try (Loopback lb = new Loopback(QueuePairType.UD, 1 << 14, ops);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            int mtu = lb.ctx.queryPort(Loopback.PORT).activeMtu().bytes();
            AddressHandle ah = lb.keep(lb.pd.createAddressHandle(lb.addressVector()));
            ExtendedSend x = lb.a.extendedSend();
            assertEquals(ops, x.enabledOperations());
            x.start();
            x.send(1, SendFlags.SIGNALED).setUdAddress(ah, lb.b.qpNumber(), Loopback.QKEY);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> x.setSge(lb.bufA.lkey(), lb.bufA.address(), mtu + 1));
            assertTrue(e.getMessage().contains("batch was aborted"), e.getMessage());
            assertFalse(x.inBatch(), "the refused batch was aborted, releasing the send queue");

            recv.set(0, 100, lb.bufB, 0, 256 + GRH);
            lb.b.postRecv(recv, 1);
            fill(lb.bufA.segment(), 0, 256, 3);
            x.start();
            x.sendWithImm(2, SendFlags.SIGNALED, 0x01020304).setUdAddress(ah, lb.b.qpNumber(), Loopback.QKEY)
                    .setSge(lb.bufA.lkey(), lb.bufA.address(), 256);
            x.complete();
            Loopback.Polled p = lb.await(2);
            int r = p.of(100);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
            assertEquals(0x01020304, p.imm[r]);
            assertEquals(lb.a.qpNumber(), p.srcQp[r]);
            assertEquals(256 + GRH, p.byteLen[r]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 256), bytes(lb.bufB.segment(), GRH, 256));
            assertNotNull(ah);
        }
    }
}
