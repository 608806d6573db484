package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * struct ibv_qp_attr plus its attribute mask for {@code ibv_modify_qp}: each setter sets the field and
 * the matching IBV_QP_* bit, so the mask always says exactly what was set. Static factories give the usual
 * RESET→INIT→RTR→RTS steps.
 */
public final class QueuePairAttributes {
    int mask;
    QueuePairState state;
    int port;
    int pkeyIndex;
    int qkey;
    int accessFlags;
    Mtu pathMtu;
    int destQpNumber;
    int rqPsn;
    int sqPsn;
    int maxDestRdAtomic;
    int maxRdAtomic;
    int minRnrTimer;
    int timeout;
    int retryCount;
    int rnrRetry;
    AddressVector addressVector;

    public QueuePairAttributes state(QueuePairState s) {
        state = s;
        mask |= Constants.IBV_QP_STATE;
        return this;
    }

    public QueuePairAttributes port(int p) {
        port = p;
        mask |= Constants.IBV_QP_PORT;
        return this;
    }

    public QueuePairAttributes pkeyIndex(int i) {
        pkeyIndex = i;
        mask |= Constants.IBV_QP_PKEY_INDEX;
        return this;
    }

    public QueuePairAttributes qkey(int q) {
        qkey = q;
        mask |= Constants.IBV_QP_QKEY;
        return this;
    }

    /** IBV_ACCESS_REMOTE_* bits the peer may use on this QP. */
    public QueuePairAttributes accessFlags(int flags) {
        accessFlags = flags;
        mask |= Constants.IBV_QP_ACCESS_FLAGS;
        return this;
    }

    public QueuePairAttributes pathMtu(Mtu m) {
        pathMtu = m;
        mask |= Constants.IBV_QP_PATH_MTU;
        return this;
    }

    public QueuePairAttributes destQpNumber(int qpn) {
        destQpNumber = qpn;
        mask |= Constants.IBV_QP_DEST_QPN;
        return this;
    }

    public QueuePairAttributes rqPsn(int psn) {
        rqPsn = psn & 0xffffff;
        mask |= Constants.IBV_QP_RQ_PSN;
        return this;
    }

    public QueuePairAttributes sqPsn(int psn) {
        sqPsn = psn & 0xffffff;
        mask |= Constants.IBV_QP_SQ_PSN;
        return this;
    }

    /** Incoming RDMA reads/atomics this QP may have outstanding as responder. */
    public QueuePairAttributes maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        mask |= Constants.IBV_QP_MAX_DEST_RD_ATOMIC;
        return this;
    }

    /** Outgoing RDMA reads/atomics this QP may have outstanding as initiator. */
    public QueuePairAttributes maxRdAtomic(int n) {
        maxRdAtomic = n;
        mask |= Constants.IBV_QP_MAX_QP_RD_ATOMIC;
        return this;
    }

    public QueuePairAttributes minRnrTimer(int t) {
        minRnrTimer = t;
        mask |= Constants.IBV_QP_MIN_RNR_TIMER;
        return this;
    }

    /** Local ACK timeout: 4.096 µs × 2^timeout. */
    public QueuePairAttributes timeout(int t) {
        timeout = t;
        mask |= Constants.IBV_QP_TIMEOUT;
        return this;
    }

    public QueuePairAttributes retryCount(int n) {
        retryCount = n;
        mask |= Constants.IBV_QP_RETRY_CNT;
        return this;
    }

    public QueuePairAttributes rnrRetry(int n) {
        rnrRetry = n;
        mask |= Constants.IBV_QP_RNR_RETRY;
        return this;
    }

    public QueuePairAttributes addressVector(AddressVector av) {
        addressVector = av;
        mask |= Constants.IBV_QP_AV;
        return this;
    }

    /** The IBV_QP_* mask of what has been set. */
    public int mask() {
        return mask;
    }

    /** RESET→INIT for RC/UC: port, pkey index 0, remote access flags. */
    public static QueuePairAttributes init(int port, int remoteAccess) {
        return new QueuePairAttributes().state(QueuePairState.INIT).pkeyIndex(0).port(port).accessFlags(remoteAccess);
    }

    /** RESET→INIT for UD: port, pkey index 0, qkey. */
    public static QueuePairAttributes initUd(int port, int qkey) {
        return new QueuePairAttributes().state(QueuePairState.INIT).pkeyIndex(0).port(port).qkey(qkey);
    }

    /** INIT→RTR for UC (RC adds {@link #maxDestRdAtomic} and {@link #minRnrTimer}). */
    public static QueuePairAttributes rtr(Mtu mtu, int remoteQpn, int remotePsn, AddressVector av) {
        return new QueuePairAttributes().state(QueuePairState.RTR).pathMtu(mtu).destQpNumber(remoteQpn)
                .rqPsn(remotePsn).addressVector(av);
    }

    /** INIT→RTR for RC with perftest's choices: min RNR timer 12. */
    public static QueuePairAttributes rtrRc(Mtu mtu, int remoteQpn, int remotePsn, AddressVector av, int maxDestRdAtomic) {
        return rtr(mtu, remoteQpn, remotePsn, av).maxDestRdAtomic(maxDestRdAtomic).minRnrTimer(12);
    }

    /** RTR→RTS for UC and UD. */
    public static QueuePairAttributes rts(int sqPsn) {
        return new QueuePairAttributes().state(QueuePairState.RTS).sqPsn(sqPsn);
    }

    /** RTR→RTS for RC: ACK timeout, retry counts and initiator depth. */
    public static QueuePairAttributes rtsRc(int sqPsn, int timeout, int retryCount, int rnrRetry, int maxRdAtomic) {
        return rts(sqPsn).timeout(timeout).retryCount(retryCount).rnrRetry(rnrRetry).maxRdAtomic(maxRdAtomic);
    }

    void writeTo(MemorySegment a) {
        StructLayout l = Structs.ibv_qp_attr;
        if (state != null) {
            a.set(JAVA_INT, Structs.offset(l, "qp_state"), state.value());
        }
        if (pathMtu != null) {
            a.set(JAVA_INT, Structs.offset(l, "path_mtu"), pathMtu.value());
        }
        a.set(JAVA_INT, Structs.offset(l, "qkey"), qkey);
        a.set(JAVA_INT, Structs.offset(l, "rq_psn"), rqPsn);
        a.set(JAVA_INT, Structs.offset(l, "sq_psn"), sqPsn);
        a.set(JAVA_INT, Structs.offset(l, "dest_qp_num"), destQpNumber);
        a.set(JAVA_INT, Structs.offset(l, "qp_access_flags"), accessFlags);
        if (addressVector != null) {
            addressVector.writeTo(a, Structs.offset(l, "ah_attr"));
        }
        a.set(JAVA_SHORT, Structs.offset(l, "pkey_index"), (short) pkeyIndex);
        a.set(JAVA_BYTE, Structs.offset(l, "max_rd_atomic"), (byte) maxRdAtomic);
        a.set(JAVA_BYTE, Structs.offset(l, "max_dest_rd_atomic"), (byte) maxDestRdAtomic);
        a.set(JAVA_BYTE, Structs.offset(l, "min_rnr_timer"), (byte) minRnrTimer);
        a.set(JAVA_BYTE, Structs.offset(l, "port_num"), (byte) port);
        a.set(JAVA_BYTE, Structs.offset(l, "timeout"), (byte) timeout);
        a.set(JAVA_BYTE, Structs.offset(l, "retry_cnt"), (byte) retryCount);
        a.set(JAVA_BYTE, Structs.offset(l, "rnr_retry"), (byte) rnrRetry);
    }

    String describe(QueuePairState from) {
        return (from == null ? "?" : from) + "->" + (state == null ? "(same state)" : state) + ", attr_mask 0x"
                + Integer.toHexString(mask);
    }
}
