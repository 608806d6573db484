package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The extended verbs: a CQ created with ibv_create_cq_ex and drained through start/next/end_poll (one shim
 * call per batch), and the ibv_wr_* send API with every operation Soft-RoCE supports in one batch.
 */
@Tag("rdma")
class ExtendedRdmaTest {

    @Test
    void extendedCqReportsEveryFieldOfClassicTraffic() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0, Loopback.CqKind.EXTENDED, true);
             SendWorkRequests send = new SendWorkRequests(3, 1);
             RecvWorkRequests recv = new RecvWorkRequests(2, 1)) {
            assertTrue(lb.cq.isExtended());
            fill(lb.bufA.segment(), 0, 2000, 4);
            recv.set(0, 100, lb.bufB, 0, 4096);
            recv.set(1, 101, lb.bufB, 4096, 16);
            lb.b.postRecv(recv, 2);
            send.get(0).wrId(1).opcode(SendOpcode.SEND_WITH_IMM).flags(SendFlags.SIGNALED).immData(0x7eadbeef)
                    .local(lb.bufA, 0, 2000);
            send.get(1).wrId(2).opcode(SendOpcode.RDMA_WRITE_WITH_IMM).flags(SendFlags.SIGNALED).immData(77)
                    .local(lb.bufA, 0, 500).rdma(lb.bufB.addressOf(8192, 500), lb.bufB.rkey());
            send.get(2).wrId(3).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED).local(lb.bufA, 16384, 300)
                    .rdma(lb.bufB.addressOf(8192, 300), lb.bufB.rkey());
            lb.a.postSend(send, 3);
            Loopback.Polled p = lb.await(5);
            for (int i = 0; i < 5; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[i], p.toString());
            }
            int r0 = p.of(100);
            assertEquals(WorkCompletionOpcode.RECV, p.opcode[r0]);
            assertEquals(2000, p.byteLen[r0]);
            assertEquals(0x7eadbeef, p.imm[r0]);
            assertTrue((p.flags[r0] & Completions.WITH_IMM) != 0);
            assertEquals(lb.b.qpNumber(), p.qpn[r0]);
            int r1 = p.of(101);
            assertEquals(WorkCompletionOpcode.RECV_RDMA_WITH_IMM, p.opcode[r1]);
            assertEquals(77, p.imm[r1]);
            assertEquals(500, p.byteLen[r1], "byte_len of a write-with-immediate is the written length");
            assertEquals(WorkCompletionOpcode.SEND, p.opcode[p.of(1)]);
            assertEquals(WorkCompletionOpcode.RDMA_WRITE, p.opcode[p.of(2)]);
            assertEquals(WorkCompletionOpcode.RDMA_READ, p.opcode[p.of(3)]);
            assertEquals(300, p.byteLen[p.of(3)], "byte_len of a read is the length read");
            assertEquals(lb.a.qpNumber(), p.qpn[p.of(3)]);
            // Soft-RoCE marks the sender's completion of a *_WITH_IMM operation WITH_IMM too (rxe_comp.c
            // make_send_cqe); a plain RDMA read has no flags.
            assertEquals(Completions.WITH_IMM, p.flags[p.of(1)] & Completions.WITH_IMM);
            assertEquals(0, p.flags[p.of(3)]);
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 2000), bytes(lb.bufB.segment(), 0, 2000));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 300), bytes(lb.bufA.segment(), 16384, 300));

            // Many completions in one poll: 16 signaled writes, drained by one start/next/end_poll pass.
            SendWorkRequests many = lb.keep(new SendWorkRequests(16, 1));
            for (int i = 0; i < 16; i++) {
                many.get(i).wrId(500 + i).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, i, 1)
                        .rdma(lb.bufB.addressOf(30000 + i, 1), lb.bufB.rkey());
            }
            lb.a.postSend(many, 16);
            Thread.sleep(200); // let them all complete, so one poll finds several
            try (Completions big = new Completions(16)) {
                int n = lb.cq.poll(big);
                assertTrue(n > 1, "one start/next/end_poll pass drained " + n + " completions");
                for (int i = 0; i < n; i++) {
                    assertEquals(500 + i, big.wrId(i), "completions come in posting order");
                    assertTrue(big.isSuccess(i), big.describe(i));
                }
                lb.await(16 - n);
            }
        }
    }

    @Test
    void everyWrOperationInOneBatch() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, ExtendedSendOps.ALL_RC, Loopback.CqKind.EXTENDED, true);
             RecvWorkRequests recv = new RecvWorkRequests(3, 1)) {
            MemorySegment a = lb.bufA.segment();
            MemorySegment b = lb.bufB.segment();
            recv.set(0, 100, lb.bufB, 0, 2048);
            recv.set(1, 101, lb.bufB, 2048, 64);
            recv.set(2, 102, lb.bufB, 2112, 1);
            lb.b.postRecv(recv, 3);
            fill(a, 0, 1000, 1);
            fill(a, 1000, 48, 2);
            fill(a, 2000, 4000, 3);
            fill(a, 6000, 32, 4);
            fill(b, 20000, 512, 5);
            b.set(JAVA_LONG, 1024, 5L);
            b.set(JAVA_LONG, 1032, 100L);
            long rb = lb.bufB.address();
            int rkey = lb.bufB.rkey();
            int sig = SendFlags.SIGNALED;

            ExtendedSend x = lb.a.extendedSend();
            assertEquals(ExtendedSendOps.ALL_RC, x.enabledOperations());
            x.start();
            assertTrue(x.inBatch());
            x.send(1, sig).setSge(lb.bufA.lkey(), lb.bufA.address(), 1000);
            x.sendWithImm(2, sig | SendFlags.INLINE, 0x0badcafe).setInlineData(a.asSlice(1000, 48), 48);
            x.rdmaWrite(3, sig, rkey, rb + 8192).setSge(lb.bufA.lkey(), lb.bufA.address() + 2000, 4000);
            x.rdmaRead(4, sig, rkey, rb + 20000).setSge(lb.bufA.lkey(), lb.bufA.address() + 20000, 512);
            x.atomicFetchAndAdd(5, sig, rkey, rb + 1024, 37).setSge(lb.bufA.lkey(), lb.bufA.address() + 30000, 8);
            x.atomicCompareAndSwap(6, sig, rkey, rb + 1032, 100, 7).setSge(lb.bufA.lkey(), lb.bufA.address() + 30008, 8);
            x.rdmaWrite(7, sig | SendFlags.INLINE, rkey, rb + 13000).setInlineData(a.asSlice(6000, 32), 32);
            x.rdmaWriteWithImm(8, sig, rkey, rb + 14000, 99).setSge(lb.bufA.lkey(), lb.bufA.address() + 2000, 100);
            x.complete();
            assertFalse(x.inBatch());

            Loopback.Polled p = lb.await(11);
            for (int i = 0; i < 11; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, p.status[i], p.toString());
            }
            WorkCompletionOpcode[] expect = {WorkCompletionOpcode.SEND, WorkCompletionOpcode.SEND,
                WorkCompletionOpcode.RDMA_WRITE, WorkCompletionOpcode.RDMA_READ, WorkCompletionOpcode.FETCH_ADD,
                WorkCompletionOpcode.COMP_SWAP, WorkCompletionOpcode.RDMA_WRITE, WorkCompletionOpcode.RDMA_WRITE};
            for (int id = 1; id <= 8; id++) {
                assertEquals(expect[id - 1], p.opcode[p.of(id)], "wr " + id);
                assertEquals(lb.a.qpNumber(), p.qpn[p.of(id)]);
            }
            assertEquals(1000, p.byteLen[p.of(100)]);
            assertEquals(WorkCompletionOpcode.RECV, p.opcode[p.of(100)]);
            assertEquals(48, p.byteLen[p.of(101)]);
            assertEquals(0x0badcafe, p.imm[p.of(101)]);
            assertEquals(WorkCompletionOpcode.RECV_RDMA_WITH_IMM, p.opcode[p.of(102)]);
            assertEquals(99, p.imm[p.of(102)]);
            assertArrayEquals(bytes(a, 0, 1000), bytes(b, 0, 1000), "send");
            assertArrayEquals(bytes(a, 1000, 48), bytes(b, 2048, 48), "inline send with immediate");
            assertArrayEquals(bytes(a, 2000, 4000), bytes(b, 8192, 4000), "rdma write");
            assertArrayEquals(bytes(b, 20000, 512), bytes(a, 20000, 512), "rdma read");
            assertEquals(5L, a.get(JAVA_LONG, 30000), "fetch-and-add returns the old value");
            assertEquals(42L, b.get(JAVA_LONG, 1024));
            assertEquals(100L, a.get(JAVA_LONG, 30008), "compare-and-swap returns the old value");
            assertEquals(7L, b.get(JAVA_LONG, 1032));
            assertArrayEquals(bytes(a, 6000, 32), bytes(b, 13000, 32), "inline rdma write");
            assertArrayEquals(bytes(a, 2000, 100), bytes(b, 14000, 100), "rdma write with immediate");
            lb.expectNothingMore();
        }
    }

    /** Which IBV_QP_EX_WITH_* bits Soft-RoCE accepts per QP type (providers/rxe/rxe.c, check_qp_init_attr). */
    @Test
    void unsupportedOperationsAreRefusedAtCreation() throws Exception {
        long[] all = {ExtendedSendOps.RDMA_WRITE, ExtendedSendOps.RDMA_WRITE_WITH_IMM, ExtendedSendOps.SEND,
            ExtendedSendOps.SEND_WITH_IMM, ExtendedSendOps.RDMA_READ, ExtendedSendOps.ATOMIC_CMP_AND_SWP,
            ExtendedSendOps.ATOMIC_FETCH_AND_ADD, ExtendedSendOps.LOCAL_INV, ExtendedSendOps.BIND_MW,
            ExtendedSendOps.SEND_WITH_INV, ExtendedSendOps.TSO};
        long rc = ExtendedSendOps.ALL_RC;
        long uc = ExtendedSendOps.RDMA_WRITE | ExtendedSendOps.RDMA_WRITE_WITH_IMM | ExtendedSendOps.SEND
                | ExtendedSendOps.SEND_WITH_IMM | ExtendedSendOps.BIND_MW | ExtendedSendOps.SEND_WITH_INV;
        long ud = ExtendedSendOps.SEND | ExtendedSendOps.SEND_WITH_IMM;
        try (Loopback lb = new Loopback(QueuePairType.RC, 4096, 0)) {
            StringBuilder wrong = new StringBuilder();
            for (QueuePairType type : new QueuePairType[] {QueuePairType.RC, QueuePairType.UC, QueuePairType.UD}) {
                long supported = type == QueuePairType.RC ? rc : type == QueuePairType.UC ? uc : ud;
                for (long op : all) {
                    QueuePairInit init = new QueuePairInit(type, lb.cq, lb.cq).extendedSendOps(op);
                    try {
                        QueuePair qp = lb.pd.createQueuePair(init);
                        assertEquals(op, qp.extendedSend().enabledOperations());
                        qp.close();
                        if ((supported & op) == 0) {
                            wrong.append(type).append(' ').append(ExtendedSendOps.name(op)).append(" was accepted; ");
                        }
                    } catch (VerbsUnsupportedException e) {
                        assertEquals("ibv_create_qp_ex", e.verb());
                        assertEquals(95, e.errno(), e.getMessage());
                        assertTrue(e.getMessage().contains("unsupported by this device"), e.getMessage());
                        if ((supported & op) != 0) {
                            wrong.append(type).append(' ').append(ExtendedSendOps.name(op)).append(" was refused; ");
                        }
                    }
                }
            }
            assertEquals("", wrong.toString());
        }
    }

    @Test
    void anOperationNotEnabledIsRefusedAndTheBatchAbortedNotACrash() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, ExtendedSendOps.SEND);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            ExtendedSend x = lb.a.extendedSend();
            // Soft-RoCE leaves wr_rdma_write NULL on this QP: calling it would be a SIGSEGV.
            IllegalStateException notStarted = assertThrows(IllegalStateException.class, () -> x.send(1, 0));
            assertTrue(notStarted.getMessage().contains("start()"), notStarted.getMessage());
            x.start();
            IllegalStateException twice = assertThrows(IllegalStateException.class, x::start);
            assertTrue(twice.getMessage().contains("already open"), twice.getMessage());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> x.rdmaWrite(1, SendFlags.SIGNALED, lb.bufB.rkey(), lb.bufB.address()));
            assertTrue(e.getMessage().contains("IBV_QP_EX_WITH_RDMA_WRITE"), e.getMessage());
            assertFalse(x.inBatch(), "the batch was aborted and the send queue lock released");
            // The QP works: a new batch goes through.
            recv.set(0, 100, lb.bufB, 0, 64);
            lb.b.postRecv(recv, 1);
            fill(lb.bufA.segment(), 0, 64, 8);
            x.start();
            x.send(2, SendFlags.SIGNALED).setSge(lb.bufA.lkey(), lb.bufA.address(), 64);
            x.complete();
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(100)], p.toString());
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 64), bytes(lb.bufB.segment(), 0, 64));
            // A QP created without the extended API has none.
            assertThrows(IllegalStateException.class, () -> {
                try (Loopback plain = new Loopback(QueuePairType.RC, 4096, 0)) {
                    plain.a.extendedSend();
                }
            });
        }
    }

    /**
     * ibv_wr_set_inline_data on an operation built without IBV_SEND_INLINE: Soft-RoCE's wr_set_inline_data
     * copies the bytes into the WQE but leaves the send flags alone, and its kernel requester reads inline
     * bytes only when the flag is set, so the write completed with LOC_QP_OP_ERR and wrote nothing (seen on
     * rxe, kernel 6.1, before the binding checked it). The binding now refuses it and aborts the batch.
     */
    @Test
    void inlineDataNeedsTheInlineFlag() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, ExtendedSendOps.RDMA_WRITE)) {
            fill(lb.bufA.segment(), 0, 32, 6);
            ExtendedSend x = lb.a.extendedSend();
            x.start();
            x.rdmaWrite(1, SendFlags.SIGNALED, lb.bufB.rkey(), lb.bufB.address());
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> x.setInlineData(lb.bufA.segment(), 32));
            assertTrue(e.getMessage().contains("SendFlags.INLINE"), e.getMessage());
            assertFalse(x.inBatch());
            lb.expectNothingMore();
            x.start();
            x.rdmaWrite(2, SendFlags.SIGNALED | SendFlags.INLINE, lb.bufB.rkey(), lb.bufB.address())
                    .setInlineData(lb.bufA.segment(), 32);
            x.complete();
            Loopback.Polled p = lb.await(1);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 32), bytes(lb.bufB.segment(), 0, 32));
            // More than the QP's inline limit (64 asked; rxe may round up) is refused by the provider.
            int max = lb.a.maxInlineData();
            x.start();
            x.rdmaWrite(3, SendFlags.SIGNALED | SendFlags.INLINE, lb.bufB.rkey(), lb.bufB.address())
                    .setInlineData(lb.bufA.segment(), max + 1);
            VerbsException tooLong = assertThrows(VerbsException.class, x::complete);
            assertEquals("ibv_wr_complete", tooLong.verb());
            assertEquals(28, tooLong.errno(), "ENOSPC from wr_set_inline_data: " + tooLong.getMessage());
            assertFalse(x.inBatch());
            lb.expectNothingMore();
        }
    }
}
