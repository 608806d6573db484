package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.raw.Offsets.rdma_conn_param;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * {@code struct rdma_conn_param} for {@link CmId#connect} and {@link CmId#accept}. Defaults: no private data,
 * responder resources 1, initiator depth 1, retry count 7, RNR retry count 7. Private data is limited by the
 * protocol: 56 bytes in a connect request, 196 in an accept, 148 in a reject (on InfiniBand and RoCE).
 */
public final class ConnectionParameters {
    byte[] privateData = new byte[0];
    int responderResources = 1;
    int initiatorDepth = 1;
    int flowControl;
    int retryCount = 7;
    int rnrRetryCount = 7;
    int qpNumber;
    boolean srq;

    /** Bytes delivered to the peer with the request or reply (at most 255 here; the protocol allows less). */
    public ConnectionParameters privateData(byte[] data) {
        if (data == null) {
            data = new byte[0];
        }
        if (data.length > 255) {
            throw new IllegalArgumentException("private data is at most 255 bytes (private_data_len is 8 bits), not "
                    + data.length);
        }
        privateData = data.clone();
        return this;
    }

    /** Incoming RDMA reads and atomics this side will serve at once (responder_resources, 0..255). */
    public ConnectionParameters responderResources(int n) {
        responderResources = u8("responder_resources", n);
        return this;
    }

    /** Outgoing RDMA reads and atomics this side may have outstanding (initiator_depth, 0..255). */
    public ConnectionParameters initiatorDepth(int n) {
        initiatorDepth = u8("initiator_depth", n);
        return this;
    }

    public ConnectionParameters flowControl(boolean on) {
        flowControl = on ? 1 : 0;
        return this;
    }

    /** Transport retries on a missing ACK (retry_count, 0..7). */
    public ConnectionParameters retryCount(int n) {
        retryCount = range("retry_count", n, 7);
        return this;
    }

    /** The retry count set (for checks of what a caller asks for). */
    public int retryCount() {
        return retryCount;
    }

    /** The RNR retry count set. */
    public int rnrRetryCount() {
        return rnrRetryCount;
    }

    /** Retries after a receiver-not-ready NAK (rnr_retry_count, 0..7; 7 = forever). */
    public ConnectionParameters rnrRetryCount(int n) {
        rnrRetryCount = range("rnr_retry_count", n, 7);
        return this;
    }

    /**
     * qp_num: the number of a queue pair the application created itself ({@code ProtectionDomain.createQueuePair}),
     * for an id without one from {@link CmId#createQueuePair}. librdmacm then leaves the QP alone: the application
     * moves it with {@link CmId#queuePairAttributes} and, on the active side, completes the connection with
     * {@link CmId#establish()}. Ignored by librdmacm when the id has a queue pair of its own.
     */
    public ConnectionParameters qpNumber(int qpn) {
        if ((qpn & ~0xffffff) != 0 || qpn == 0) {
            throw new IllegalArgumentException("a QP number is 24 bits and not 0, not 0x" + Integer.toHexString(qpn));
        }
        qpNumber = qpn;
        return this;
    }

    /** srq: the application's queue pair ({@link #qpNumber}) receives from a shared receive queue. */
    public ConnectionParameters srq(boolean usesSrq) {
        srq = usesSrq;
        return this;
    }

    private static int u8(String what, int n) {
        return range(what, n, 255);
    }

    private static int range(String what, int n, int max) {
        if (n < 0 || n > max) {
            throw new IllegalArgumentException(what + " must be in 0.." + max + ", not " + n);
        }
        return n;
    }

    /** These parameters as a {@code struct rdma_conn_param} in {@code arena}. */
    MemorySegment toNative(Arena arena) {
        MemorySegment c = arena.allocate(Structs.rdma_conn_param);
        c.fill((byte) 0);
        if (privateData.length > 0) {
            c.set(ADDRESS, rdma_conn_param.private_data, arena.allocateFrom(JAVA_BYTE, privateData));
        }
        c.set(JAVA_BYTE, rdma_conn_param.private_data_len, (byte) privateData.length);
        c.set(JAVA_BYTE, rdma_conn_param.responder_resources, (byte) responderResources);
        c.set(JAVA_BYTE, rdma_conn_param.initiator_depth, (byte) initiatorDepth);
        c.set(JAVA_BYTE, rdma_conn_param.flow_control, (byte) flowControl);
        c.set(JAVA_BYTE, rdma_conn_param.retry_count, (byte) retryCount);
        c.set(JAVA_BYTE, rdma_conn_param.rnr_retry_count, (byte) rnrRetryCount);
        // Used by librdmacm only when the id has no queue pair of its own (rdma_connect/rdma_accept take id->qp's).
        c.set(JAVA_INT, rdma_conn_param.qp_num, qpNumber);
        c.set(JAVA_BYTE, rdma_conn_param.srq, (byte) (srq ? 1 : 0));
        return c;
    }
}
