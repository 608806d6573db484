package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every classic RC opcode with real traffic on the device, plus UC. */
@Tag("rdma")
class TrafficRdmaTest {

    private static void fill(MemorySegment s, long offset, int length, int seed) {
        for (int i = 0; i < length; i++) {
            s.set(JAVA_BYTE, offset + i, (byte) (seed + i * 7));
        }
    }

    private static byte[] bytes(MemorySegment s, long offset, int length) {
        return s.asSlice(offset, length).toArray(JAVA_BYTE);
    }

    @Test
    void rcSendRecvWithImmediateAndScatterGather() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(4, 4);
             RecvWorkRequests recv = new RecvWorkRequests(4, 4)) {
            fill(lb.bufA.segment(), 0, 3000, 1);
            // B receives into two SGEs: 1000 bytes at 8192, the rest at 16384.
            recv.set(0, 100, lb.bufB, 8192, 1000).sge(0, 1, lb.bufB.addressOf(16384, 4096), 4096, lb.bufB.lkey());
            recv.set(1, 101, lb.bufB, 32768, 64);
            lb.b.postRecv(recv, 2);
            // A sends 3000 bytes gathered from two SGEs, then a 16-byte SEND_WITH_IMM.
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 1500)
                    .sge(1, lb.bufA.addressOf(1500, 1500), 1500, lb.bufA.lkey());
            send.get(1).wrId(2).opcode(SendOpcode.SEND_WITH_IMM).flags(SendFlags.SIGNALED).immData(0xCAFE0001)
                    .local(lb.bufA, 4000, 16);
            fill(lb.bufA.segment(), 4000, 16, 99);
            lb.a.postSend(send, 2);
            Loopback.Polled p = lb.await(4);
            for (int i = 0; i < 4; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[i], p.toString());
            }
            int r0 = p.of(100);
            assertEquals(WorkCompletionOpcode.RECV, p.opcode[r0]);
            assertEquals(3000, p.byteLen[r0]);
            assertEquals(lb.b.qpNumber(), p.qpn[r0]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 1000), bytes(lb.bufB.segment(), 8192, 1000));
            assertArrayEquals(bytes(lb.bufA.segment(), 1000, 2000), bytes(lb.bufB.segment(), 16384, 2000));
            int r1 = p.of(101);
            assertEquals(16, p.byteLen[r1]);
            assertTrue((p.flags[r1] & Completions.WITH_IMM) != 0);
            assertEquals(0xCAFE0001, p.imm[r1]);
            assertArrayEquals(bytes(lb.bufA.segment(), 4000, 16), bytes(lb.bufB.segment(), 32768, 16));
            assertEquals(WorkCompletionOpcode.SEND, p.opcode[p.of(1)]);
        }
    }

    @Test
    void rcRdmaWriteReadAndWriteWithImmediate() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(3, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            fill(lb.bufA.segment(), 0, 4096, 3);
            fill(lb.bufB.segment(), 40000, 512, 77);
            recv.set(0, 200, lb.bufB, 0, 1); // WRITE_WITH_IMM consumes a receive but no data lands in it
            lb.b.postRecv(recv, 1);
            send.get(0).wrId(10).opcode(SendOpcode.RDMA_WRITE).flags(0).local(lb.bufA, 0, 4096)
                    .rdma(lb.bufB.addressOf(8192, 4096), lb.bufB.rkey());
            send.get(1).wrId(11).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED).local(lb.bufA, 20000, 512)
                    .rdma(lb.bufB.addressOf(40000, 512), lb.bufB.rkey());
            send.get(2).wrId(12).opcode(SendOpcode.RDMA_WRITE_WITH_IMM).flags(SendFlags.SIGNALED).immData(42)
                    .local(lb.bufA, 0, 8).rdma(lb.bufB.addressOf(60000, 8), lb.bufB.rkey());
            lb.a.postSend(send, 3);
            // The unsignaled write produces no completion of its own: read, write-with-imm, and the receive.
            Loopback.Polled p = lb.await(3);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(11)], p.toString());
            assertEquals(WorkCompletionOpcode.RDMA_READ, p.opcode[p.of(11)]);
            assertEquals(WorkCompletionOpcode.RDMA_WRITE, p.opcode[p.of(12)]);
            int r = p.of(200);
            assertEquals(WorkCompletionOpcode.RECV_RDMA_WITH_IMM, p.opcode[r]);
            assertEquals(42, p.imm[r]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 4096), bytes(lb.bufB.segment(), 8192, 4096));
            assertArrayEquals(bytes(lb.bufB.segment(), 40000, 512), bytes(lb.bufA.segment(), 20000, 512));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 8), bytes(lb.bufB.segment(), 60000, 8));
            lb.expectNothingMore();
        }
    }

    @Test
    void rcAtomicsAndInlineData() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(3, 1)) {
            MemorySegment remote = lb.bufB.segment();
            remote.set(JAVA_LONG, 1024, 5L);
            remote.set(JAVA_LONG, 2048, 100L);
            send.get(0).wrId(20).opcode(SendOpcode.ATOMIC_FETCH_AND_ADD).flags(SendFlags.SIGNALED)
                    .local(lb.bufA, 0, 8).atomic(lb.bufB.addressOf(1024, 8), lb.bufB.rkey(), 37, 0);
            send.get(1).wrId(21).opcode(SendOpcode.ATOMIC_CMP_AND_SWP).flags(SendFlags.SIGNALED)
                    .local(lb.bufA, 8, 8).atomic(lb.bufB.addressOf(2048, 8), lb.bufB.rkey(), 100, 7);
            fill(lb.bufA.segment(), 100, 48, 5);
            send.get(2).wrId(22).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED | SendFlags.INLINE)
                    .local(lb.bufA, 100, 48).rdma(lb.bufB.addressOf(4096, 48), lb.bufB.rkey());
            lb.a.postSend(send, 3);
            Loopback.Polled p = lb.await(3);
            assertEquals(WorkCompletionOpcode.FETCH_ADD, p.opcode[p.of(20)]);
            assertEquals(WorkCompletionOpcode.COMP_SWAP, p.opcode[p.of(21)]);
            for (int i = 0; i < 3; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[i], p.toString());
            }
            assertEquals(5L, lb.bufA.segment().get(JAVA_LONG, 0), "fetch-and-add returns the old value");
            assertEquals(42L, remote.get(JAVA_LONG, 1024));
            assertEquals(100L, lb.bufA.segment().get(JAVA_LONG, 8), "compare-and-swap returns the old value");
            assertEquals(7L, remote.get(JAVA_LONG, 2048));
            assertArrayEquals(bytes(lb.bufA.segment(), 100, 48), bytes(remote, 4096, 48));
            assertTrue(lb.a.maxInlineData() >= 48);
        }
    }

    @Test
    void ucSendAndWrite() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.UC, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(2, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            fill(lb.bufA.segment(), 0, 1024, 9);
            recv.set(0, 300, lb.bufB, 0, 1024);
            lb.b.postRecv(recv, 1);
            send.get(0).wrId(30).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 1024);
            send.get(1).wrId(31).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 512)
                    .rdma(lb.bufB.addressOf(4096, 512), lb.bufB.rkey());
            lb.a.postSend(send, 2);
            Loopback.Polled p = lb.await(3);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(300)], p.toString());
            assertEquals(1024, p.byteLen[p.of(300)]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 1024), bytes(lb.bufB.segment(), 0, 1024));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 512), bytes(lb.bufB.segment(), 4096, 512));
            assertEquals(QueuePairState.RTS, lb.a.state());
        }
    }
}
