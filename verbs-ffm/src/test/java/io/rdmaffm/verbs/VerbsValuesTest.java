package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Structs;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Pure-Java parts of the verbs API: attribute masks, what lands in the native structs, enum lookups. No device. */
class VerbsValuesTest {
    private static final StructLayout QA = Structs.ibv_qp_attr;

    @Test
    void queuePairAttributeMasksSayExactlyWhatWasSet() {
        assertEquals(0, new QueuePairAttributes().mask());
        assertEquals(Constants.IBV_QP_STATE | Constants.IBV_QP_PKEY_INDEX | Constants.IBV_QP_PORT
                | Constants.IBV_QP_ACCESS_FLAGS, QueuePairAttributes.init(1, 0).mask());
        assertEquals(Constants.IBV_QP_STATE | Constants.IBV_QP_PKEY_INDEX | Constants.IBV_QP_PORT | Constants.IBV_QP_QKEY,
                QueuePairAttributes.initUd(1, 0x11111111).mask());
        assertEquals(Constants.IBV_QP_STATE | Constants.IBV_QP_PATH_MTU | Constants.IBV_QP_DEST_QPN
                | Constants.IBV_QP_RQ_PSN | Constants.IBV_QP_AV | Constants.IBV_QP_MAX_DEST_RD_ATOMIC
                | Constants.IBV_QP_MIN_RNR_TIMER,
                QueuePairAttributes.rtrRc(Mtu.MTU_1024, 5, 0, new AddressVector(), 1).mask());
        assertEquals(Constants.IBV_QP_STATE | Constants.IBV_QP_SQ_PSN | Constants.IBV_QP_TIMEOUT
                | Constants.IBV_QP_RETRY_CNT | Constants.IBV_QP_RNR_RETRY | Constants.IBV_QP_MAX_QP_RD_ATOMIC,
                QueuePairAttributes.rtsRc(0, 14, 7, 7, 1).mask());
        assertEquals(Constants.IBV_QP_STATE | Constants.IBV_QP_SQ_PSN, QueuePairAttributes.rts(0).mask());
    }

    /**
     * Attributes from rdma_init_qp_attr are written back whole (fields Java has no setter for survive), with the
     * fields a setter changed on top; the mask is rdma_cm's plus the setters' bits.
     */
    @Test
    void queuePairAttributesFromRdmaCmAreCopiedWholeAndSettersOverrideSingleFields() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment rdmaCm = arena.allocate(QA);
            rdmaCm.set(JAVA_INT, Structs.offset(QA, "qp_state"), QueuePairState.RTR.value());
            rdmaCm.set(JAVA_INT, Structs.offset(QA, "dest_qp_num"), 0x4321);
            rdmaCm.set(JAVA_BYTE, Structs.offset(QA, "max_dest_rd_atomic"), (byte) 16);
            rdmaCm.set(JAVA_INT, Structs.offset(QA, "ah_attr.grh.flow_label"), 0xabcde);
            rdmaCm.set(JAVA_BYTE, Structs.offset(QA, "alt_timeout"), (byte) 9);
            int mask = Constants.IBV_QP_STATE | Constants.IBV_QP_DEST_QPN | Constants.IBV_QP_AV
                    | Constants.IBV_QP_MAX_DEST_RD_ATOMIC;
            QueuePairAttributes a = QueuePairAttributes.fromNative(rdmaCm, mask);
            assertEquals(QueuePairState.RTR, a.state());
            assertEquals(mask, a.mask());
            a.maxDestRdAtomic(2).enSqdAsyncNotify(true);
            assertEquals(mask | Constants.IBV_QP_EN_SQD_ASYNC_NOTIFY, a.mask());
            assertTrue(a.toString().contains("RTR") && a.toString().contains("rdma_init_qp_attr"), a.toString());

            MemorySegment out = arena.allocate(QA);
            a.writeTo(out);
            assertEquals(0x4321, out.get(JAVA_INT, Structs.offset(QA, "dest_qp_num")));
            assertEquals(0xabcde, out.get(JAVA_INT, Structs.offset(QA, "ah_attr.grh.flow_label")));
            assertEquals(9, out.get(JAVA_BYTE, Structs.offset(QA, "alt_timeout")), "a field Java has no setter for");
            assertEquals(2, out.get(JAVA_BYTE, Structs.offset(QA, "max_dest_rd_atomic")), "the setter wins");
            assertEquals(1, out.get(JAVA_BYTE, Structs.offset(QA, "en_sqd_async_notify")));
            assertEquals(QueuePairState.RTR.value(), out.get(JAVA_INT, Structs.offset(QA, "qp_state")));
        }
        assertEquals(null, new QueuePairAttributes().port(1).state(), "no state without IBV_QP_STATE");
    }

    @Test
    void queuePairAttributesLandInTheirCFields() {
        byte[] gid = new byte[16];
        gid[15] = 7;
        QueuePairAttributes a = QueuePairAttributes.rtrRc(Mtu.MTU_4096, 0x123456, 0x1abcdef,
                new AddressVector().port(1).global(gid, 3).hopLimit(64).trafficClass(5).flowLabel(9).serviceLevel(2), 4);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(QA);
            a.writeTo(s);
            assertEquals(QueuePairState.RTR.value(), s.get(JAVA_INT, Structs.offset(QA, "qp_state")));
            assertEquals(5, s.get(JAVA_INT, Structs.offset(QA, "path_mtu")));
            assertEquals(0x123456, s.get(JAVA_INT, Structs.offset(QA, "dest_qp_num")));
            assertEquals(0xabcdef, s.get(JAVA_INT, Structs.offset(QA, "rq_psn")), "PSNs are 24 bits");
            assertEquals(4, s.get(JAVA_BYTE, Structs.offset(QA, "max_dest_rd_atomic")));
            assertEquals(12, s.get(JAVA_BYTE, Structs.offset(QA, "min_rnr_timer")));
            assertEquals(1, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.is_global")));
            assertEquals(1, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.port_num")));
            assertEquals(2, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.sl")));
            assertEquals(3, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.grh.sgid_index")));
            assertEquals(64, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.grh.hop_limit")));
            assertEquals(5, s.get(JAVA_BYTE, Structs.offset(QA, "ah_attr.grh.traffic_class")));
            assertEquals(9, s.get(JAVA_INT, Structs.offset(QA, "ah_attr.grh.flow_label")));
            assertArrayEquals(gid, s.asSlice(Structs.offset(QA, "ah_attr.grh.dgid"), 16).toArray(JAVA_BYTE));
        }
        assertEquals("INIT->RTR, attr_mask 0x" + Integer.toHexString(a.mask()), a.describe(QueuePairState.INIT));
        assertThrows(IllegalArgumentException.class, () -> new AddressVector().global(new byte[4], 0));
    }

    @Test
    void rtsAttributesAndThePkeyIndex() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(QA);
            QueuePairAttributes.rtsRc(0x1000001, 14, 6, 5, 2).pkeyIndex(3).writeTo(s);
            assertEquals(1, s.get(JAVA_INT, Structs.offset(QA, "sq_psn")));
            assertEquals(14, s.get(JAVA_BYTE, Structs.offset(QA, "timeout")));
            assertEquals(6, s.get(JAVA_BYTE, Structs.offset(QA, "retry_cnt")));
            assertEquals(5, s.get(JAVA_BYTE, Structs.offset(QA, "rnr_retry")));
            assertEquals(2, s.get(JAVA_BYTE, Structs.offset(QA, "max_rd_atomic")));
            assertEquals(3, s.get(JAVA_SHORT, Structs.offset(QA, "pkey_index")));
        }
    }

    @Test
    void enumLookupsMatchTheCValues() {
        for (Mtu m : Mtu.values()) {
            assertEquals(m, Mtu.of(m.value()));
            assertEquals(m, Mtu.ofBytes(m.bytes()));
            assertEquals(256 << (m.value() - 1), m.bytes());
        }
        assertThrows(IllegalArgumentException.class, () -> Mtu.of(0));
        assertThrows(IllegalArgumentException.class, () -> Mtu.ofBytes(1500));

        assertEquals(Constants.IBV_ACCESS_LOCAL_WRITE | Constants.IBV_ACCESS_REMOTE_READ,
                Access.LOCAL_WRITE | Access.REMOTE_READ);
        assertEquals(Constants.IBV_ACCESS_RELAXED_ORDERING, Access.RELAXED_ORDERING);
        assertEquals("LOCAL_WRITE|REMOTE_READ", Access.describe(Access.LOCAL_WRITE | Access.REMOTE_READ));
        assertEquals("0", Access.describe(0));
        assertEquals("ON_DEMAND|0x200", Access.describe(Access.ON_DEMAND | 0x200));

        assertEquals(WorkCompletionStatus.SUCCESS, WorkCompletionStatus.of(Constants.IBV_WC_SUCCESS));
        assertEquals(WorkCompletionStatus.LOC_PROT_ERR, WorkCompletionStatus.of(Constants.IBV_WC_LOC_PROT_ERR));
        assertEquals(WorkCompletionStatus.WR_FLUSH_ERR, WorkCompletionStatus.of(Constants.IBV_WC_WR_FLUSH_ERR));
        assertEquals(WorkCompletionStatus.GENERAL_ERR, WorkCompletionStatus.of(Constants.IBV_WC_GENERAL_ERR));
        assertEquals(WorkCompletionStatus.UNKNOWN, WorkCompletionStatus.of(99));
        assertEquals(WorkCompletionStatus.UNKNOWN, WorkCompletionStatus.of(-1));

        assertEquals(WorkCompletionOpcode.RECV, WorkCompletionOpcode.of(Constants.IBV_WC_RECV));
        assertEquals(WorkCompletionOpcode.RECV_RDMA_WITH_IMM, WorkCompletionOpcode.of(Constants.IBV_WC_RECV_RDMA_WITH_IMM));
        assertEquals(WorkCompletionOpcode.RDMA_WRITE, WorkCompletionOpcode.of(Constants.IBV_WC_RDMA_WRITE));
        assertEquals(WorkCompletionOpcode.UNKNOWN, WorkCompletionOpcode.of(127));

        assertEquals(Constants.IBV_WR_SEND_WITH_INV, SendOpcode.SEND_WITH_INV.value());
        assertEquals(Constants.IBV_WR_ATOMIC_FETCH_AND_ADD, SendOpcode.ATOMIC_FETCH_AND_ADD.value());
        assertEquals(QueuePairType.UD, QueuePairType.of(Constants.IBV_QPT_UD));
        assertThrows(IllegalArgumentException.class, () -> QueuePairType.of(0));
        assertEquals(QueuePairState.ERR, QueuePairState.of(Constants.IBV_QPS_ERR));
        assertEquals(QueuePairState.UNKNOWN, QueuePairState.of(42));
        assertEquals(PortState.ACTIVE, PortState.of(Constants.IBV_PORT_ACTIVE));
        assertEquals(GidType.ROCE_V2, GidType.of(2));
        assertEquals(LinkLayer.ETHERNET, LinkLayer.of(2));
    }

    @Test
    void gidEntriesFormatLikeSysfsAndAsAddresses() {
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        mapped[12] = 10;
        mapped[13] = 77;
        mapped[15] = 1;
        GidEntry v4 = new GidEntry(1, 1, mapped, GidType.ROCE_V2, 3, "veth0");
        assertTrue(v4.isIpv4Mapped());
        assertEquals("0000:0000:0000:0000:0000:ffff:0a4d:0001", v4.toHexString());
        assertEquals("::ffff:10.77.0.1", v4.toAddressString());
        assertEquals("GID[1/1] ::ffff:10.77.0.1 ROCE_V2 veth0", v4.toString());

        byte[] ll = new byte[16];
        ll[0] = (byte) 0xfe;
        ll[1] = (byte) 0x80;
        ll[15] = 1;
        GidEntry v6 = new GidEntry(1, 0, ll, GidType.ROCE_V2, 3, "");
        assertFalse(v6.isIpv4Mapped());
        assertEquals("fe80:0000:0000:0000:0000:0000:0000:0001", v6.toHexString());
        assertEquals("fe80:0:0:0:0:0:0:1", v6.toAddressString());
        assertEquals("GID[1/0] fe80:0:0:0:0:0:0:1 ROCE_V2", v6.toString());

        mapped[15] = 9;
        assertEquals(1, v4.gid()[15], "the entry keeps a copy");
        byte[] copy = v4.gid();
        copy[0] = 1;
        assertEquals(0, v4.gid()[0], "and hands out copies");
        assertEquals(v4, new GidEntry(1, 1, v4.gid(), GidType.ROCE_V2, 3, "veth0"));
        assertNotEquals(v4, v6);
        assertThrows(IllegalArgumentException.class, () -> new GidEntry(1, 0, new byte[15], GidType.IB, 0, ""));
    }

    /**
     * A failed completion's line names no opcode: ibv_poll_cq(3) leaves it undefined, and Soft-RoCE's 0 (SEND)
     * made a write that failed when the link went down read "SEND status LOC_QP_OP_ERR". A successful one names it.
     */
    @Test
    void aFailedCompletionIsDescribedWithoutItsUndefinedOpcode() {
        try (Completions wc = new Completions(2)) {
            long size = Structs.ibv_wc.byteSize();
            MemorySegment a = wc.array;
            a.set(JAVA_LONG, Structs.offset(Structs.ibv_wc, "wr_id"), 7L);
            a.set(JAVA_INT, Structs.offset(Structs.ibv_wc, "status"), 2); // IBV_WC_LOC_QP_OP_ERR
            a.set(JAVA_INT, Structs.offset(Structs.ibv_wc, "opcode"), 0);
            a.set(JAVA_INT, Structs.offset(Structs.ibv_wc, "qp_num"), 0x12);
            a.set(JAVA_LONG, size + Structs.offset(Structs.ibv_wc, "wr_id"), 8L);
            a.set(JAVA_INT, size + Structs.offset(Structs.ibv_wc, "opcode"), 1); // IBV_WC_RDMA_WRITE
            a.set(JAVA_INT, size + Structs.offset(Structs.ibv_wc, "qp_num"), 0x12);
            wc.count = 2;
            assertEquals("wr_id 7 status LOC_QP_OP_ERR (2, vendor error 0x0) qp 0x12", wc.describe(0));
            assertEquals("wr_id 8 RDMA_WRITE status SUCCESS (0, vendor error 0x0) qp 0x12", wc.describe(1));
        }
    }
}
