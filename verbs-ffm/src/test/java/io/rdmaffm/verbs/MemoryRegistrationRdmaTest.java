package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static io.rdmaffm.verbs.UdRdmaTest.bytes;
import static io.rdmaffm.verbs.UdRdmaTest.fill;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory registration on the device: every combination of the access flags, user memory from an Arena next
 * to memory the region owns, remote access refused where a flag is missing, and the registrations Soft-RoCE
 * does not have (on-demand paging on kernel 6.1, dma-buf).
 */
@Tag("rdma")
class MemoryRegistrationRdmaTest {
    private static final int[] FLAGS = {Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ,
        Access.REMOTE_ATOMIC, Access.MW_BIND, Access.RELAXED_ORDERING};
    private static final int EINVAL = 22;
    private static final int EOPNOTSUPP = 95;

    @Test
    void everyAccessFlagCombination() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain()) {
            int remote = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
            int accepted = 0;
            for (int combo = 0; combo < 1 << FLAGS.length; combo++) {
                int mask = 0;
                StringBuilder names = new StringBuilder();
                for (int f = 0; f < FLAGS.length; f++) {
                    if ((combo & 1 << f) != 0) {
                        mask |= FLAGS[f];
                        names.append(Access.describe(FLAGS[f])).append(' ');
                    }
                }
                // IB spec (and ib_check_mr_access): remote write or atomic needs local write.
                boolean valid = (mask & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) == 0
                        || (mask & Access.LOCAL_WRITE) != 0;
                if (valid) {
                    try (MemoryRegion mr = pd.allocateRegion(8192, mask)) {
                        accepted++;
                        assertEquals(mask, mr.accessFlags(), names.toString());
                        assertEquals(8192, mr.length());
                        assertEquals(0, mr.address() % 4096, "allocateRegion is page aligned");
                        assertTrue(mr.lkey() != 0, names.toString());
                        // rxe: rkey = lkey when any remote flag is set, else 0 (rxe_mr_init).
                        int expectRkey = (mask & remote) != 0 ? mr.lkey() : 0;
                        assertEquals(expectRkey, mr.rkey(), names + "lkey 0x" + Integer.toHexString(mr.lkey()));
                    } catch (VerbsException e) {
                        throw new AssertionError("refused " + names + ": " + e.getMessage(), e);
                    }
                } else {
                    final int m = mask;
                    VerbsException e = assertThrows(VerbsException.class, () -> pd.allocateRegion(8192, m), names.toString());
                    assertEquals("ibv_reg_mr", e.verb());
                    assertEquals(EINVAL, e.errno(), names + e.getMessage());
                }
            }
            assertEquals(40, accepted, "64 combinations minus the 24 with remote write/atomic but no local write");
        }
    }

    @Test
    void arenaMemoryAndOwnedMemoryBothCarryTraffic() throws Exception {
        try (Arena arena = Arena.ofShared();
             Loopback lb = new Loopback(QueuePairType.RC, 1 << 16, 0);
             SendWorkRequests send = new SendWorkRequests(2, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            // Deliberately not page aligned.
            MemorySegment user = arena.allocate(3 * 4096 + 100, 8).asSlice(100);
            int all = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
            MemoryRegion mr = lb.keep(lb.pd.registerMemory(user, all));
            assertSame(user, mr.segment());
            assertEquals(user.address(), mr.address());
            assertEquals(user.byteSize(), mr.length());
            MemoryRegion owned = lb.keep(lb.pd.allocateRegion(16384, all));

            // arena → owned by RDMA write; owned → arena by RDMA read; owned → arena by send.
            fill(user, 0, 5000, 7);
            send.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 5000)
                    .rdma(owned.addressOf(1000, 5000), owned.rkey());
            send.get(1).wrId(2).opcode(SendOpcode.RDMA_READ).flags(SendFlags.SIGNALED).local(mr, 6000, 5000)
                    .rdma(owned.addressOf(1000, 5000), owned.rkey());
            lb.a.postSend(send, 2);
            Loopback.Polled p = lb.await(2);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[0], p.toString());
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[1], p.toString());
            assertArrayEquals(bytes(user, 0, 5000), bytes(owned.segment(), 1000, 5000));
            assertArrayEquals(bytes(user, 0, 5000), bytes(user, 6000, 5000));

            recv.set(0, 10, mr, 11000, 1000);
            lb.b.postRecv(recv, 1);
            fill(owned.segment(), 0, 900, 9);
            send.get(0).wrId(3).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(owned, 0, 900);
            lb.a.postSend(send, 1);
            Loopback.Polled s = lb.await(2);
            assertEquals(900, s.byteLen[s.of(10)]);
            assertArrayEquals(bytes(owned.segment(), 0, 900), bytes(user, 11000, 900));
            // Atomics need an 8-byte aligned target address, not an aligned region: the region starts 4 bytes
            // past an 8-byte boundary, so offset 12004 is aligned.
            long t = 12004;
            assertEquals(0, (user.address() + t) % 8);
            user.set(JAVA_LONG, t, 40L);
            send.get(0).wrId(4).opcode(SendOpcode.ATOMIC_FETCH_AND_ADD).flags(SendFlags.SIGNALED).local(owned, 0, 8)
                    .atomic(mr.addressOf(t, 8), mr.rkey(), 2, 0);
            lb.a.postSend(send, 1);
            assertEquals(WorkCompletionStatus.SUCCESS, lb.await(1).status[0]);
            assertEquals(42L, user.get(JAVA_LONG, t));
            assertEquals(40L, owned.segment().get(JAVA_LONG, 0));
        }
    }

    /** One signaled operation from bufA into {@code target}; returns its completion status. */
    private static WorkCompletionStatus op(Loopback lb, SendWorkRequests send, SendOpcode opcode, MemoryRegion target) {
        var r = send.get(0).wrId(opcode.value()).opcode(opcode).flags(SendFlags.SIGNALED);
        if (opcode == SendOpcode.ATOMIC_FETCH_AND_ADD) {
            r.local(lb.bufA, 0, 8).atomic(target.address(), target.rkey(), 1, 0);
        } else {
            r.local(lb.bufA, 0, 64).rdma(target.address(), target.rkey());
        }
        lb.a.postSend(send, 1);
        return lb.await(1).status[0];
    }

    @Test
    void remoteAccessWithoutTheFlagIsARemoteAccessError() throws Exception {
        try (Loopback lb = new Loopback(QueuePairType.RC, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1)) {
            int lw = Access.LOCAL_WRITE;
            MemoryRegion noWrite = lb.keep(lb.pd.allocateRegion(4096, lw | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            MemoryRegion noRead = lb.keep(lb.pd.allocateRegion(4096, lw | Access.REMOTE_WRITE | Access.REMOTE_ATOMIC));
            MemoryRegion noAtomic = lb.keep(lb.pd.allocateRegion(4096, lw | Access.REMOTE_WRITE | Access.REMOTE_READ));
            // Each region allows the other two operations.
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.RDMA_READ, noWrite));
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.ATOMIC_FETCH_AND_ADD, noWrite));
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.RDMA_WRITE, noRead));
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.ATOMIC_FETCH_AND_ADD, noRead));
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.RDMA_WRITE, noAtomic));
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.RDMA_READ, noAtomic));
            // And refuses the missing one; each refusal moves the QPs to ERR, so reconnect in between.
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, op(lb, send, SendOpcode.RDMA_WRITE, noWrite));
            assertEquals(QueuePairState.ERR, lb.a.state());
            lb.reconnect();
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, op(lb, send, SendOpcode.RDMA_READ, noRead));
            lb.reconnect();
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, op(lb, send, SendOpcode.ATOMIC_FETCH_AND_ADD, noAtomic));
            lb.reconnect();
            // A region with no remote flag at all has rkey 0 on rxe; using it is refused the same way.
            MemoryRegion local = lb.keep(lb.pd.allocateRegion(4096, lw));
            assertEquals(WorkCompletionStatus.REM_ACCESS_ERR, op(lb, send, SendOpcode.RDMA_WRITE, local));
            lb.reconnect();
            assertEquals(WorkCompletionStatus.SUCCESS, op(lb, send, SendOpcode.RDMA_WRITE, noAtomic), "recovered");
        }
    }

    @Test
    void onDemandPagingIsNotAvailableOnThisKernel() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain()) {
            int odp = Access.LOCAL_WRITE | Access.ON_DEMAND;
            VerbsException e = assertThrows(VerbsException.class, () -> pd.allocateRegion(8192, odp));
            assertEquals("ibv_reg_mr", e.verb());
            // Linux 6.1's ib_uverbs_reg_mr answers ON_DEMAND on a device without on-demand paging with EINVAL
            // ("ODP support not available"); the binding sees the device's odp_caps lack IBV_ODP_SUPPORT and
            // reports it as unsupported, keeping the errno the kernel gave.
            assertEquals(EINVAL, e.errno(), e.getMessage());
            assertInstanceOf(VerbsUnsupportedException.class, e, e.getMessage());
            assertTrue(e.getMessage().contains("access 0x41"), e.getMessage());
            assertTrue(e.getMessage().contains("no on-demand paging"), e.getMessage());
            // The same flags without ON_DEMAND register fine.
            pd.allocateRegion(8192, Access.LOCAL_WRITE).close();
        }
    }

    @Test
    void dmabufRegistrationIsUnsupported() {
        try (Context ctx = Context.open(RdmaTestDevice.name());
             ProtectionDomain pd = ctx.allocateProtectionDomain()) {
            // rxe has no reg_dmabuf_mr op: libibverbs' stub answers EOPNOTSUPP before the fd is looked at.
            VerbsException e = assertThrows(VerbsException.class,
                    () -> pd.registerDmabuf(0, 4096, 0x10000, ctx.asyncEventFd(), Access.LOCAL_WRITE));
            assertInstanceOf(VerbsUnsupportedException.class, e, e.getMessage());
            assertEquals("ibv_reg_dmabuf_mr", e.verb());
            assertEquals(EOPNOTSUPP, e.errno(), e.getMessage());
            assertEquals(0, pd.openChildren(), "nothing was registered");
        }
    }
}
