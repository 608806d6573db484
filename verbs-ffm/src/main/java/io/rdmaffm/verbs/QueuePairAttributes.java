package io.rdmaffm.verbs;

import io.rdmaffm.verbs.raw.Constants;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * struct ibv_qp_attr plus its attribute mask for {@code ibv_modify_qp}: each setter sets the field and
 * the matching IBV_QP_* bit, so the mask always says exactly what was set. Static factories give the usual
 * RESET→INIT→RTR→RTS steps. Attributes can also come whole from rdma_cm ({@code rdma_init_qp_attr}, see
 * {@code CmId.queuePairAttributes}); setters then override single fields of what rdma_cm chose.
 */
public final class QueuePairAttributes {
    int mask;
    /** The IBV_QP_* bits set through setters: written over {@link #fromNative} when there is one. */
    private int overridden;
    /** A whole struct ibv_qp_attr from rdma_init_qp_attr, written as is; null when built field by field. */
    private byte[] fromNative;
    boolean enSqdAsyncNotify;
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
        set(Constants.IBV_QP_STATE);
        return this;
    }

    public QueuePairAttributes port(int p) {
        port = p;
        set(Constants.IBV_QP_PORT);
        return this;
    }

    public QueuePairAttributes pkeyIndex(int i) {
        pkeyIndex = i;
        set(Constants.IBV_QP_PKEY_INDEX);
        return this;
    }

    public QueuePairAttributes qkey(int q) {
        qkey = q;
        set(Constants.IBV_QP_QKEY);
        return this;
    }

    /** IBV_ACCESS_REMOTE_* bits the peer may use on this QP. */
    public QueuePairAttributes accessFlags(int flags) {
        accessFlags = flags;
        set(Constants.IBV_QP_ACCESS_FLAGS);
        return this;
    }

    public QueuePairAttributes pathMtu(Mtu m) {
        pathMtu = m;
        set(Constants.IBV_QP_PATH_MTU);
        return this;
    }

    public QueuePairAttributes destQpNumber(int qpn) {
        destQpNumber = qpn;
        set(Constants.IBV_QP_DEST_QPN);
        return this;
    }

    public QueuePairAttributes rqPsn(int psn) {
        rqPsn = psn & 0xffffff;
        set(Constants.IBV_QP_RQ_PSN);
        return this;
    }

    public QueuePairAttributes sqPsn(int psn) {
        sqPsn = psn & 0xffffff;
        set(Constants.IBV_QP_SQ_PSN);
        return this;
    }

    /** Incoming RDMA reads/atomics this QP may have outstanding as responder. */
    public QueuePairAttributes maxDestRdAtomic(int n) {
        maxDestRdAtomic = n;
        set(Constants.IBV_QP_MAX_DEST_RD_ATOMIC);
        return this;
    }

    /** Outgoing RDMA reads/atomics this QP may have outstanding as initiator. */
    public QueuePairAttributes maxRdAtomic(int n) {
        maxRdAtomic = n;
        set(Constants.IBV_QP_MAX_QP_RD_ATOMIC);
        return this;
    }

    public QueuePairAttributes minRnrTimer(int t) {
        minRnrTimer = t;
        set(Constants.IBV_QP_MIN_RNR_TIMER);
        return this;
    }

    /** Local ACK timeout: 4.096 µs × 2^timeout. */
    public QueuePairAttributes timeout(int t) {
        timeout = t;
        set(Constants.IBV_QP_TIMEOUT);
        return this;
    }

    public QueuePairAttributes retryCount(int n) {
        retryCount = n;
        set(Constants.IBV_QP_RETRY_CNT);
        return this;
    }

    public QueuePairAttributes rnrRetry(int n) {
        rnrRetry = n;
        set(Constants.IBV_QP_RNR_RETRY);
        return this;
    }

    public QueuePairAttributes addressVector(AddressVector av) {
        addressVector = av;
        set(Constants.IBV_QP_AV);
        return this;
    }

    /**
     * IBV_QP_EN_SQD_ASYNC_NOTIFY, with a move to SQD: ask for an IBV_EVENT_SQ_DRAINED async event once the send
     * queue has drained (Soft-RoCE raises it whether or not this is set).
     */
    public QueuePairAttributes enSqdAsyncNotify(boolean notify) {
        enSqdAsyncNotify = notify;
        set(Constants.IBV_QP_EN_SQD_ASYNC_NOTIFY);
        return this;
    }

    private void set(int bit) {
        mask |= bit;
        overridden |= bit;
    }

    /** The IBV_QP_* mask of what has been set. */
    public int mask() {
        return mask;
    }

    /** The state these attributes move a QP to (qp_state with IBV_QP_STATE), or null when they change no state. */
    public QueuePairState state() {
        return (mask & Constants.IBV_QP_STATE) != 0 ? state : null;
    }

    /**
     * Attributes as rdma_cm computed them ({@code rdma_init_qp_attr}): the whole struct is kept and written back
     * unchanged, so fields Java has no setter for (alternate path, GRH flow label ...) survive.
     */
    static QueuePairAttributes fromNative(MemorySegment attr, int mask) {
        StructLayout l = Structs.ibv_qp_attr;
        QueuePairAttributes a = new QueuePairAttributes();
        a.fromNative = attr.asSlice(0, l.byteSize()).toArray(JAVA_BYTE);
        a.mask = mask;
        // The fields modify() itself looks at: the target state and, for UD, the port whose MTU bounds sends.
        a.state = QueuePairState.of(attr.get(JAVA_INT, Offsets.ibv_qp_attr.qp_state));
        a.port = Byte.toUnsignedInt(attr.get(JAVA_BYTE, Offsets.ibv_qp_attr.port_num));
        return a;
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
        if (fromNative != null) {
            MemorySegment.copy(fromNative, 0, a, JAVA_BYTE, 0, fromNative.length);
            writeFields(a, overridden);
        } else {
            writeFields(a, -1);
        }
    }

    /** Writes the fields whose IBV_QP_* bit is in {@code which}. */
    private void writeFields(MemorySegment a, int which) {
        if ((which & Constants.IBV_QP_STATE) != 0 && state != null) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.qp_state, state.value());
        }
        if ((which & Constants.IBV_QP_PATH_MTU) != 0 && pathMtu != null) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.path_mtu, pathMtu.value());
        }
        if ((which & Constants.IBV_QP_QKEY) != 0) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.qkey, qkey);
        }
        if ((which & Constants.IBV_QP_RQ_PSN) != 0) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.rq_psn, rqPsn);
        }
        if ((which & Constants.IBV_QP_SQ_PSN) != 0) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.sq_psn, sqPsn);
        }
        if ((which & Constants.IBV_QP_DEST_QPN) != 0) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.dest_qp_num, destQpNumber);
        }
        if ((which & Constants.IBV_QP_ACCESS_FLAGS) != 0) {
            a.set(JAVA_INT, Offsets.ibv_qp_attr.qp_access_flags, accessFlags);
        }
        if ((which & Constants.IBV_QP_AV) != 0 && addressVector != null) {
            addressVector.writeTo(a, Offsets.ibv_qp_attr.ah_attr);
        }
        if ((which & Constants.IBV_QP_PKEY_INDEX) != 0) {
            a.set(JAVA_SHORT, Offsets.ibv_qp_attr.pkey_index, (short) pkeyIndex);
        }
        if ((which & Constants.IBV_QP_EN_SQD_ASYNC_NOTIFY) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.en_sqd_async_notify, (byte) (enSqdAsyncNotify ? 1 : 0));
        }
        if ((which & Constants.IBV_QP_MAX_QP_RD_ATOMIC) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.max_rd_atomic, (byte) maxRdAtomic);
        }
        if ((which & Constants.IBV_QP_MAX_DEST_RD_ATOMIC) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.max_dest_rd_atomic, (byte) maxDestRdAtomic);
        }
        if ((which & Constants.IBV_QP_MIN_RNR_TIMER) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.min_rnr_timer, (byte) minRnrTimer);
        }
        if ((which & Constants.IBV_QP_PORT) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.port_num, (byte) port);
        }
        if ((which & Constants.IBV_QP_TIMEOUT) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.timeout, (byte) timeout);
        }
        if ((which & Constants.IBV_QP_RETRY_CNT) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.retry_cnt, (byte) retryCount);
        }
        if ((which & Constants.IBV_QP_RNR_RETRY) != 0) {
            a.set(JAVA_BYTE, Offsets.ibv_qp_attr.rnr_retry, (byte) rnrRetry);
        }
    }

    String describe(QueuePairState from) {
        return (from == null ? "?" : from) + "->" + (state() == null ? "(same state)" : state()) + ", attr_mask 0x"
                + Integer.toHexString(mask) + (fromNative != null ? " (from rdma_init_qp_attr)" : "");
    }

    @Override
    public String toString() {
        return "QueuePairAttributes[" + describe(null).substring(3) + "]";
    }
}
