package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.AddressVector;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * One {@code struct rdma_cm_event}, copied out of librdmacm's memory and already acknowledged
 * ({@code rdma_ack_cm_event}), so it can be kept as long as wanted.
 *
 * @param type               what happened
 * @param status             the event's status: 0, a negative errno (address, route and connect errors), or for
 *                           {@link CmEventType#REJECTED} the peer's reject reason (28 = rejected by the
 *                           application, 8 = no listener on that port)
 * @param id                 the id it concerns; for {@link CmEventType#CONNECT_REQUEST} the new id of the incoming
 *                           connection (the application owns it: accept, reject, and close it)
 * @param listenId           the listening id, for {@link CmEventType#CONNECT_REQUEST}; else null
 * @param privateData        the peer's private data (a copy; on InfiniBand and RoCE the length is the protocol's
 *                           fixed size, so the sender's bytes are a prefix followed by zeros)
 * @param responderResources responder_resources the peer offered (connection events)
 * @param initiatorDepth     initiator_depth the peer offered (connection events)
 * @param retryCount         retry_count of a connect request
 * @param rnrRetryCount      rnr_retry_count of a connect request
 * @param qpNumber           the peer's QP number (UD: param.ud.qp_num; connected: param.conn.qp_num)
 * @param qkey               the peer's Q_Key (UD only)
 * @param addressVector      for the ESTABLISHED event of a {@link PortSpace#UDP} id: how to reach the peer
 *                           (param.ud.ah_attr), for {@code ProtectionDomain.createAddressHandle}; else null
 */
public record CmEvent(CmEventType type, int status, CmId id, CmId listenId, byte[] privateData,
                      int responderResources, int initiatorDepth, int retryCount, int rnrRetryCount, int qpNumber,
                      int qkey, AddressVector addressVector) {
    public CmEvent {
        privateData = privateData == null ? new byte[0] : privateData.clone();
        addressVector = addressVector == null ? null : addressVector.copy();
    }

    /** An event without an address vector (every event but a UD ESTABLISHED). */
    public CmEvent(CmEventType type, int status, CmId id, CmId listenId, byte[] privateData, int responderResources,
                   int initiatorDepth, int retryCount, int rnrRetryCount, int qpNumber, int qkey) {
        this(type, status, id, listenId, privateData, responderResources, initiatorDepth, retryCount, rnrRetryCount,
                qpNumber, qkey, null);
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /** The peer's address vector of a UD ESTABLISHED event (a copy), or null. */
    @Override
    public AddressVector addressVector() {
        return addressVector == null ? null : addressVector.copy();
    }

    /** The first {@code n} bytes of the private data (fewer if there are fewer). */
    public byte[] privateData(int n) {
        return java.util.Arrays.copyOf(privateData, Math.min(n, privateData.length));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("CmEvent[").append(type).append(", status ").append(status);
        if (privateData.length > 0) {
            int shown = Math.min(16, privateData.length);
            sb.append(", private data ").append(privateData.length).append(" bytes ")
                    .append(HexFormat.of().formatHex(privateData, 0, shown)).append(shown < privateData.length ? "..." : "");
        }
        if (qpNumber != 0) {
            sb.append(", qp 0x").append(Integer.toHexString(qpNumber));
        }
        if (qkey != 0) {
            sb.append(", qkey 0x").append(Integer.toHexString(qkey));
        }
        if (addressVector != null) {
            sb.append(", ").append(addressVector);
        }
        return sb.append(']').toString();
    }
}
