package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UD multicast on the device: a QP attached to a group receives what is sent to the group's GID and QPN
 * 0xFFFFFF; attachments are owned by the QP (misuse throws, closing an attached QP detaches it first).
 */
@Tag("rdma")
class MulticastRdmaTest {
    /** perftest's default group (multicast_resources.h MCG_GID), so a capture of the C tool can be compared. */
    static final byte[] MGID = {(byte) 0xff, 1, 0, 0, 0, 2, (byte) 201, (byte) 133, 0, 0, 0, 0, 0, 0, 0, 0};

    /**
     * Soft-RoCE on Linux 6.1 attaches (max_mcast_grp 8192) but joins the group at the link layer only: it delivers
     * to a host that holds an IPv6-level join of the group (docs/multicast.md; scripts/multicast-vms.sh, C and Java
     * both ways between two VMs). This test makes no such join, so it runs with -Dmulticast.delivers=true where the
     * device delivers without one.
     */
    @Test
    void anAttachedQpReceivesWhatIsSentToTheGroup() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("multicast.delivers"),
                "rxe (Linux 6.1) delivers only to a host holding an IPv6-level join of the group, which this test does not "
                        + "make (docs/multicast.md; scripts/multicast-vms.sh); -Dmulticast.delivers=true where no join is needed");
        try (Loopback lb = new Loopback(QueuePairType.UD, 1 << 14, 0);
             SendWorkRequests send = new SendWorkRequests(1, 1);
             RecvWorkRequests recv = new RecvWorkRequests(1, 1)) {
            MulticastGroup group = new MulticastGroup(MGID, 0);
            lb.b.attachMulticast(group);
            assertEquals(java.util.List.of(group), lb.b.multicastGroups());
            AddressHandle ah = lb.keep(lb.pd.createAddressHandle(
                    new AddressVector().port(Loopback.PORT).global(MGID, lb.gid.index())));
            UdRdmaTest.fill(lb.bufA.segment(), 0, 200, 9);
            recv.set(0, 100, lb.bufB, 0, 200 + UdRdmaTest.GRH);
            lb.b.postRecv(recv, 1);
            send.get(0).wrId(1).opcode(SendOpcode.SEND).flags(SendFlags.SIGNALED).local(lb.bufA, 0, 200)
                    .ud(ah, MulticastGroup.MULTICAST_QPN, Loopback.QKEY);
            lb.a.postSend(send, 1);
            Loopback.Polled p = lb.await(2);
            int r = p.of(100);
            assertEquals(WorkCompletionStatus.SUCCESS, p.status[r], p.toString());
            assertEquals(lb.a.qpNumber(), p.srcQp[r], "src_qp names the sender");
            assertArrayEquals(UdRdmaTest.bytes(lb.bufA.segment(), 0, 200),
                    UdRdmaTest.bytes(lb.bufB.segment(), UdRdmaTest.GRH, 200));
            lb.b.detachMulticast(group);
            assertEquals(java.util.List.of(), lb.b.multicastGroups());
        }
    }

    @Test
    void misuseThrowsAndCloseDetaches() throws Exception {
        MulticastGroup group = new MulticastGroup(MGID, 0);
        try (Loopback ud = new Loopback(QueuePairType.UD, 1 << 12, 0)) {
            ud.a.attachMulticast(group);
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> ud.a.attachMulticast(group));
            assertTrue(twice.getMessage().contains("already attached"), twice.getMessage());
            IllegalStateException notIn = assertThrows(IllegalStateException.class, () -> ud.b.detachMulticast(group));
            assertTrue(notIn.getMessage().contains("is not attached"), notIn.getMessage());
            // Closed while attached: the QP leaves the group first (rxe refuses to destroy an attached QP, EBUSY).
            ud.a.close();
            assertThrows(IllegalStateException.class, () -> ud.a.attachMulticast(group));
        }
        try (Loopback rc = new Loopback(QueuePairType.RC, 1 << 12, 0)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rc.a.attachMulticast(group));
            assertTrue(e.getMessage().contains("only UD queue pairs"), e.getMessage());
        }
    }
}
