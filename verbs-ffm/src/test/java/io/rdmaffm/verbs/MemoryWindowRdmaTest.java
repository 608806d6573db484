package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory windows on the device: a type 1 window bound with ibv_bind_mw, a type 2 (2B) window bound with a
 * BIND_MW work request and invalidated by LOCAL_INV and by the peer's SEND_WITH_INV. Access through a
 * window outside its range, or after invalidation, fails as a REM_ACCESS_ERR completion (data, not an
 * exception) and moves the requester's QP to ERR.
 */
@Tag("rdma")
class MemoryWindowRdmaTest {
    private static final int RW = Access.REMOTE_WRITE | Access.REMOTE_READ;

    /** One signaled RDMA write of {@code length} bytes from bufA[0..] to {@code remote} through {@code rkey}. */
    private static WorkCompletionStatus write(Loopback lb, SendWorkRequests send, long id, long remote, int length, int rkey) {
        send.get(0).wrId(id).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(lb.bufA, 0, length)
                .rdma(remote, rkey);
        lb.a.postSend(send, 1);
        Loopback.Polled p = lb.await(1);
        assertEquals(id, p.wrId[0]);
        return p.status[0];
    }

    @Test
    void type1WindowGrantsExactlyItsRange() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            DeviceAttributes dev = lb.ctx.queryDevice();
            assertTrue(dev.supportsMemoryWindows() && dev.maxMw() > 0, dev.toString());
            MemoryWindow mw = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_1));
            assertEquals(MemoryWindow.Type.TYPE_1, mw.type());
            int before = mw.rkey();
            // Bind 4 KiB at offset 4096 of B's region through B's QP. rxe turns ibv_bind_mw into a BIND_MW
            // work request and sets the window's new rkey (the low 8 "key" bits incremented) right away.
            int rkey = lb.b.bindMemoryWindow(mw, 50, SendFlags.SIGNALED, lb.bufB, 4096, 4096, RW);
            assertEquals(rkey, mw.rkey());
            assertEquals((before & 0xffffff00) | ((before + 1) & 0xff), rkey, "ibv_inc_rkey of the old rkey");
            assertEquals((rkey & 0xffffff00) | ((rkey + 1) & 0xff), mw.nextRkey(), "nextRkey increments the key byte");
            Loopback.Polled bound = lb.await(1);
            assertEquals(WorkCompletionStatus.SUCCESS, bound.status[0], bound.toString());
            assertEquals(WorkCompletionOpcode.BIND_MW, bound.opcode[0]);
            assertEquals(50, bound.wrId[0]);
            assertNotEquals(lb.bufB.rkey(), rkey);

            // Inside the window: write then read back.
            fill(lb.bufA.segment(), 0, 1024, 21);
            long base = lb.bufB.addressOf(4096, 4096);
            assertEquals(WorkCompletionStatus.SUCCESS, write(lb, send, 1, base + 512, 1024, rkey));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 1024), bytes(lb.bufB.segment(), 4096 + 512, 1024));
            send.get(0).wrId(2).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED).local(lb.bufA, 8192, 4096)
                    .rdma(base, rkey);
            lb.a.postSend(send, 1);
            assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0]);
            assertArrayEquals(bytes(lb.bufB.segment(), 4096, 4096), bytes(lb.bufA.segment(), 8192, 4096));
            // The last 16 bytes of the window and 16 beyond it, still inside the region: Soft-RoCE lets this
            // through. Its responder (rxe_resp.c check_rkey) looks the window up, then checks the range
            // against the window's *memory region* (mr_check_range(mw->mr, ...)), never against the window's
            // own addr/length, so a type 1 window on rxe bounds nothing inside its MR. (Kernel 6.1, and the
            // same code in later kernels.) A real HCA answers REM_ACCESS_ERR here.
            fill(lb.bufA.segment(), 0, 32, 90);
            assertEquals(WorkCompletionStatus.SUCCESS, write(lb, send, 3, base + 4096 - 16, 32, rkey));
            assertArrayEquals(bytes(lb.bufA.segment(), 16, 16), bytes(lb.bufB.segment(), 8192, 16),
                    "rxe wrote past the window's end");
            // Beyond the end of the memory region itself the window does fail: REM_ACCESS_ERR, and the
            // requester's QP goes to ERR (a failed completion is data, not an exception).
            long regionEnd = lb.bufB.address() + lb.bufB.length();
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 4, regionEnd - 8, 16, rkey));
            assertEquals(QueuePairState.ERR, lb.a.state(), "a remote access error moves the requester to ERR");
            lb.reconnect();

            // Re-bind the same type 1 window read-only: a new rkey; the old one is dead, and writing through
            // the new one is refused because the window does not grant REMOTE_WRITE.
            int readOnly = lb.b.bindMemoryWindow(mw, 51, SendFlags.SIGNALED, lb.bufB, 4096, 4096,
                    Access.REMOTE_READ);
            assertEquals((rkey & 0xffffff00) | ((rkey + 1) & 0xff), readOnly);
            assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0]);
            send.get(0).wrId(5).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED).local(lb.bufA, 8192, 64)
                    .rdma(base, readOnly);
            lb.a.postSend(send, 1);
            assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0], "reading is granted");
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 6, base, 8, readOnly), "writing is not");
            lb.reconnect();
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 7, base, 8, rkey), "the old rkey is dead");
        }
    }

    @Test
    void type2WindowBoundByWorkRequestAndInvalidatedLocallyAndByThePeer() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(2, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            assertTrue(lb.ctx.queryDevice().supportsMemoryWindowType2(), "rxe reports MEM_WINDOW_TYPE_2B");
            MemoryWindow w1 = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2));
            MemoryWindow w2 = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2));
            int k1 = w1.nextRkey();
            int k2 = w2.nextRkey();
            // rxe ties a type 2B window to the QP that bound it (rxe_lookup_mw: mw->qp == qp), so B, whose
            // QP receives the writes, binds its own memory.
            send.get(0).wrId(60).opcode(SendOpcode.BIND_MW).flags(SendFlags.SIGNALED)
                    .bindMemoryWindow(w1, k1, lb.bufB, 0, 4096, RW);
            send.get(1).wrId(61).opcode(SendOpcode.BIND_MW).flags(SendFlags.SIGNALED)
                    .bindMemoryWindow(w2, k2, lb.bufB, 8192, 4096, RW);
            lb.b.postSend(send, 2);
            Loopback.Polled bound = lb.await(2);
            assertEquals(k1, w1.rkey(), "a posted BIND_MW gives the window its new rkey");
            assertEquals(k2, w2.rkey());
            for (int i = 0; i < 2; i++) {
                assertEquals(WorkCompletionStatus.SUCCESS, bound.status[i], bound.toString());
                assertEquals(WorkCompletionOpcode.BIND_MW, bound.opcode[i]);
            }
            fill(lb.bufA.segment(), 0, 256, 3);
            assertEquals(WorkCompletionStatus.SUCCESS, write(lb, send, 1, lb.bufB.address() + 100, 256, k1));
            assertEquals(WorkCompletionStatus.SUCCESS, write(lb, send, 2, lb.bufB.address() + 8192 + 100, 256, k2));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 256), bytes(lb.bufB.segment(), 100, 256));
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 256), bytes(lb.bufB.segment(), 8192 + 100, 256));

            // B invalidates w1 itself.
            send.get(0).wrId(62).opcode(SendOpcode.LOCAL_INV).flags(SendFlags.SIGNALED).numSge(0).invalidateRkey(k1);
            lb.b.postSend(send, 1);
            Loopback.Polled inv = lb.await(1);
            assertEquals(WorkCompletionStatus.SUCCESS, inv.status[0], inv.toString());
            assertEquals(WorkCompletionOpcode.LOCAL_INV, inv.opcode[0]);

            // A invalidates w2 with SEND_WITH_INV; B's receive says which rkey went.
            recv.set(0, 70, lb.bufB, 16384, 64);
            lb.b.postRecv(recv, 1);
            send.get(0).wrId(3).opcode(SendOpcode.SEND_WITH_INV).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 64)
                    .invalidateRkey(k2);
            lb.a.postSend(send, 1);
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[p.of(3)], p.toString());
            int r = p.of(70);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
            assertEquals(WorkCompletionOpcode.RECV, p.opcode[r]);
            assertEquals(64, p.byteLen[r]);
            // rxe flags the invalidation with the kernel's IB_WC_WITH_INVALIDATE (1 << 2, what libibverbs
            // calls IBV_WC_IP_CSUM_OK) instead of IBV_WC_WITH_INV (1 << 3), and sets GRH on every receive:
            // exactly GRH | 1 << 2. See Completions.WITH_INV.
            assertEquals(Completions.GRH | Completions.RXE_WITH_INVALIDATE, p.flags[r],
                    "flags 0x" + Integer.toHexString(p.flags[r]));
            assertEquals(0, p.flags[r] & Completions.WITH_INV);

            // Both windows are dead now.
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 4, lb.bufB.address() + 100, 8, k1));
            lb.reconnect();
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 5, lb.bufB.address() + 8192, 8, k2));
            lb.reconnect();

            // An invalidated type 2 window can be bound again, with the next rkey. (This needs ibv_mw.rkey to
            // hold k1: rxe passes it to the kernel as the window's current rkey, and the kernel refuses a bind
            // whose current rkey does not match; see SendWorkRequests.afterPosted.)
            int k3 = w1.nextRkey();
            assertEquals((k1 & 0xffffff00) | ((k1 + 1) & 0xff), k3);
            send.get(0).wrId(63).opcode(SendOpcode.BIND_MW).flags(SendFlags.SIGNALED)
                    .bindMemoryWindow(w1, k3, lb.bufB, 0, 4096, RW);
            lb.b.postSend(send, 1);
            Loopback.Polled rebound = lb.await(1);
            assertEquals(WorkCompletionStatus.SUCCESS, rebound.status[0], "re-bind: " + rebound);
            assertEquals(WorkCompletionStatus.SUCCESS, write(lb, send, 6, lb.bufB.address(), 8, k3));
        }
    }

    /** The receiver learns which rkey the peer's SEND_WITH_INV invalidated, on a plain and an extended CQ. */
    @Test
    void invalidatedRkeyIsReportedOnTheReceiver() throws Exception {
        for (Loopback.CqKind kind : new Loopback.CqKind[] {Loopback.CqKind.PLAIN, Loopback.CqKind.EXTENDED}) {
            try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0, kind, true);
                 SendWorkRequests send = new SendWorkRequests(1, 1);
                 RecvWorkRequests recv = new RecvWorkRequests(1, 1);
                 Completions rx = new Completions(4)) {
                MemoryWindow w = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2));
                int k = w.nextRkey();
                send.get(0).wrId(60).opcode(SendOpcode.BIND_MW).flags(SendFlags.SIGNALED)
                        .bindMemoryWindow(w, k, lb.bufB, 0, 4096, RW);
                lb.b.postSend(send, 1);
                assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0]);
                recv.set(0, 70, lb.bufB, 16384, 64);
                lb.b.postRecv(recv, 1);
                send.get(0).wrId(3).opcode(SendOpcode.SEND_WITH_INV).flags(0).local(lb.bufA, 0, 16).invalidateRkey(k);
                lb.a.postSend(send, 1);
                long deadline = System.nanoTime() + 10_000_000_000L;
                int n;
                while ((n = lb.cq.poll(rx)) == 0) {
                    assertTrue(System.nanoTime() < deadline, "no receive completion");
                }
                assertEquals(1, n, kind.toString());
                assertEquals(70, rx.wrId(0), rx.describe(0));
                assertTrue((rx.flags(0) & Completions.RXE_WITH_INVALIDATE) != 0, kind + " flags 0x"
                        + Integer.toHexString(rx.flags(0)));
                assertEquals(k, rx.invalidatedRkey(0), kind + ": invalidated rkey");
                assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, write(lb, send, 4, lb.bufB.address(), 8, k),
                        kind + ": the window is invalid now");
            }
        }
    }

    /** One signaled operation built on {@code x} and posted; returns its completion. */
    private static Loopback.Polled post(Loopback lb, ExtendedSend x, java.util.function.Consumer<ExtendedSend> build) {
        x.start();
        build.accept(x);
        x.complete();
        return lb.await(1);
    }

    /**
     * ibv_wr_bind_mw: a type 2 window bound through the extended send API, used by the peer's RDMA write and read
     * (also built with ibv_wr_*), invalidated with ibv_wr_local_inv, then bound again with the next rkey. The second
     * bind works only because the binding gives ibv_mw.rkey the posted rkey (rdma-core's wr_bind_mw leaves it, and
     * Soft-RoCE's kernel refuses a bind naming a stale current rkey).
     */
    @Test
    void type2WindowBoundThroughTheExtendedSendApi() throws Exception {
        long ops = ExtendedSendOps.BIND_MW | ExtendedSendOps.LOCAL_INV | ExtendedSendOps.RDMA_WRITE
                | ExtendedSendOps.RDMA_READ;
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, ops)) {
            MemoryWindow w = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2));
            ExtendedSend xa = lb.a.extendedSend();
            ExtendedSend xb = lb.b.extendedSend();
            int before = w.rkey();
            int k = w.nextRkey();
            // B binds its own memory: rxe lets only the QP that bound a type 2 window use it (rxe_lookup_mw).
            xb.start();
            xb.bindMemoryWindow(80, SendFlags.SIGNALED, w, k, lb.bufB, 4096, 4096, RW);
            assertEquals(before, w.rkey(), "not posted yet: the window keeps its rkey");
            xb.complete();
            assertEquals(k, w.rkey(), "posted: the window has the new rkey");
            Loopback.Polled bound = lb.await(1);
            assertEquals(WorkCompletionStatus.SUCCESS, bound.status[0], bound.toString());
            assertEquals(WorkCompletionOpcode.BIND_MW, bound.opcode[0]);
            assertEquals(80, bound.wrId[0]);

            long base = lb.bufB.addressOf(4096, 4096);
            fill(lb.bufA.segment(), 0, 1024, 41);
            Loopback.Polled p = post(lb, xa, x -> x.rdmaWrite(1, SendFlags.SIGNALED, k, base + 100)
                    .setSge(lb.bufA.lkey(), lb.bufA.address(), 1024));
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 1024), bytes(lb.bufB.segment(), 4096 + 100, 1024));
            p = post(lb, xa, x -> x.rdmaRead(2, SendFlags.SIGNALED, k, base)
                    .setSge(lb.bufA.lkey(), lb.bufA.address() + 8192, 4096));
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertArrayEquals(bytes(lb.bufB.segment(), 4096, 4096), bytes(lb.bufA.segment(), 8192, 4096));

            // ibv_wr_local_inv on B: the rkey is dead for A.
            p = post(lb, xb, x -> x.localInvalidate(81, SendFlags.SIGNALED, k));
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertEquals(WorkCompletionOpcode.LOCAL_INV, p.opcode[0]);
            p = post(lb, xa, x -> x.rdmaWrite(3, SendFlags.SIGNALED, k, base).setSge(lb.bufA.lkey(), lb.bufA.address(), 8));
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, p.status[0], p.toString());
            lb.reconnect();

            // Bound again through ibv_wr_bind_mw with the next rkey, over another range.
            int k2 = w.nextRkey();
            assertEquals((k & 0xffffff00) | ((k + 1) & 0xff), k2);
            p = post(lb, xb, x -> x.bindMemoryWindow(82, SendFlags.SIGNALED, w, k2, lb.bufB, 0, 2048, RW));
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], "re-bind: " + p);
            assertEquals(k2, w.rkey());
            fill(lb.bufA.segment(), 0, 64, 42);
            p = post(lb, xa, x -> x.rdmaWrite(4, SendFlags.SIGNALED, k2, lb.bufB.address() + 8)
                    .setSge(lb.bufA.lkey(), lb.bufA.address(), 64));
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertArrayEquals(bytes(lb.bufA.segment(), 0, 64), bytes(lb.bufB.segment(), 8, 64));

            // Misuse inside a batch is refused and the batch aborted (the send queue lock released): a range
            // outside the region, a closed region. Nothing was posted, and the window keeps its rkey.
            xb.start();
            assertThrows(IndexOutOfBoundsException.class,
                    () -> xb.bindMemoryWindow(83, SendFlags.SIGNALED, w, w.nextRkey(), lb.bufB, 60000, 8192, RW));
            assertFalse(xb.inBatch());
            MemoryRegion closed = lb.pd.allocateRegion(4096, Access.LOCAL_WRITE);
            closed.close();
            xb.start();
            assertThrows(IllegalStateException.class,
                    () -> xb.bindMemoryWindow(84, SendFlags.SIGNALED, w, w.nextRkey(), closed, 0, 64, RW));
            assertFalse(xb.inBatch());
            assertEquals(k2, w.rkey());
            lb.expectNothingMore();
        }
    }

    /**
     * Where ibv_wr_bind_mw is not available the binding says so instead of crashing: Soft-RoCE refuses
     * IBV_QP_EX_WITH_BIND_MW on a UD queue pair at creation (providers/rxe/rxe.c check_qp_init_attr: UD takes only
     * SEND and SEND_WITH_IMM), a VerbsUnsupportedException; on a QP created without it, rxe leaves wr_bind_mw NULL
     * and the builder is refused before it is called.
     */
    @Test
    void bindMwThroughTheExtendedSendApiWhereItIsUnsupported() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 4096, ExtendedSendOps.SEND)) {
            VerbsUnsupportedException e = assertThrows(VerbsUnsupportedException.class, () -> lb.pd.createQueuePair(
                    new QueuePairInit(QueuePairType.UD, lb.cq, lb.cq).extendedSendOps(ExtendedSendOps.SEND
                            | ExtendedSendOps.BIND_MW)));
            assertEquals("ibv_create_qp_ex", e.verb());
            assertEquals(95, e.errno(), e.getMessage());
            assertTrue(e.getMessage().contains("unsupported by this device"), e.getMessage());

            MemoryWindow w = lb.keep(lb.pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2));
            ExtendedSend x = lb.b.extendedSend();
            x.start();
            IllegalStateException notEnabled = assertThrows(IllegalStateException.class,
                    () -> x.bindMemoryWindow(1, SendFlags.SIGNALED, w, w.nextRkey(), lb.bufB, 0, 64, RW));
            assertTrue(notEnabled.getMessage().contains("IBV_QP_EX_WITH_BIND_MW"), notEnabled.getMessage());
            assertFalse(x.inBatch(), "the batch was aborted");
            lb.expectNothingMore();
        }
    }
}
