package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.exchange.PingPongDest;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.vocab.Verb;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.Mtu;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.QueuePairType;

/**
 * The queue pair state transitions perftest makes: INIT with the verb's remote access, RTR and RTS towards the
 * peer's keys, and the same towards the QP itself for the warm-up.
 */
final class QueuePairStates {
    /** perftest's Q_Key for UD. */
    static final int UD_QKEY = 0x11111111;

    private QueuePairStates() {
    }

    /** The address of a peer with {@code peerGid} (ignored without GID) and {@code peerLid}. */
    static AddressVector addressVector(OpenDevice dev, int serviceLevel, byte[] peerGid, int peerLid) {
        AddressVector av = new AddressVector().port(dev.ibPort()).dlid(peerLid).serviceLevel(serviceLevel);
        if (dev.withGid() && peerGid != null) {
            av.global(peerGid, dev.gidIndex());
        }
        return av;
    }

    /** RESET to INIT with the remote access the verb needs (UD: the Q_Key), on P_Key index {@code pkeyIndex}. */
    static void init(QueuePair qp, QueuePairType type, Verb verb, int ibPort, int pkeyIndex) {
        if (type == QueuePairType.UD) {
            qp.modify(QueuePairAttributes.initUd(ibPort, UD_QKEY).pkeyIndex(pkeyIndex));
            return;
        }
        int remoteAccess = switch (verb) {
            case WRITE -> Access.REMOTE_WRITE;
            case READ -> Access.REMOTE_READ;
            case ATOMIC -> Access.REMOTE_ATOMIC;
            case SEND -> Access.REMOTE_WRITE | Access.LOCAL_WRITE;
        };
        qp.modify(QueuePairAttributes.init(ibPort, remoteAccess).pkeyIndex(pkeyIndex));
    }

    /**
     * INIT to RTR towards the peer's QP, and to RTS where this side sends ({@code sends}). UD has no peer
     * QP here: it goes to RTR and RTS at once.
     */
    static void connect(QueuePair qp, QueuePairType type, RunParameters p, PingPongDest local, PingPongDest remote,
            AddressVector av, int mtu, int outReads, boolean sends) {
        if (type == QueuePairType.UD) {
            qp.modify(new QueuePairAttributes().state(QueuePairState.RTR));
            qp.modify(QueuePairAttributes.rts(local.psn()));
        } else if (type == QueuePairType.RC) {
            qp.modify(QueuePairAttributes.rtrRc(Mtu.of(mtu), remote.qpn(), remote.psn(), av, outReads));
            if (sends) {
                qp.modify(QueuePairAttributes.rtsRc(local.psn(), p.endpoint().qpTimeout(), 7, 7,
                        Math.max(1, remote.outReads())));
            }
        } else {
            qp.modify(QueuePairAttributes.rtr(Mtu.of(mtu), remote.qpn(), remote.psn(), av));
            if (sends) {
                qp.modify(QueuePairAttributes.rts(local.psn()));
            }
        }
    }

    /** RESET to RTS with the QP as its own peer: the warm-up's loopback. */
    static void connectToSelf(QueuePair qp, QueuePairType type, OpenDevice dev, RunParameters p, int mtu,
            int outReads) {
        int ibPort = dev.ibPort();
        if (type == QueuePairType.UD) {
            qp.modify(QueuePairAttributes.initUd(ibPort, UD_QKEY));
            qp.modify(new QueuePairAttributes().state(QueuePairState.RTR));
            qp.modify(QueuePairAttributes.rts(0));
            return;
        }
        qp.modify(QueuePairAttributes.init(ibPort,
                Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        AddressVector av = addressVector(dev, p.endpoint().serviceLevel(), dev.gid(), dev.lid());
        qp.modify(QueuePairAttributes.rtrRc(Mtu.of(mtu), qp.qpNumber(), 0, av, Math.max(1, outReads)));
        qp.modify(QueuePairAttributes.rtsRc(0, p.endpoint().qpTimeout(), 7, 7, Math.max(1, outReads)));
    }
}
