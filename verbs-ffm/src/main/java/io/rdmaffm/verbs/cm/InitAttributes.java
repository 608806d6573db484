package io.rdmaffm.verbs.cm;

import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.LinkLayer;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairState;
import io.rdmaffm.verbs.internal.Errors;
import io.rdmaffm.verbs.internal.Lifetime;
import io.rdmaffm.verbs.internal.VerbsBridge;
import io.rdmaffm.verbs.raw.Cm;
import io.rdmaffm.verbs.raw.Downcalls;
import io.rdmaffm.verbs.raw.Offsets;
import io.rdmaffm.verbs.raw.Structs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** {@code rdma_init_qp_attr} for {@link CmId#queuePairAttributes}. */
final class InitAttributes {
    private InitAttributes() {
    }

    /**
     * attr_mask bits 21-23, which old rdma_ucm kernels set in rdma_init_qp_attr's answer for InfiniBand ports (the
     * kernel-only IB_QP_SMAC, IB_QP_ALT_SMAC, IB_QP_VID); librdmacm clears them before ibv_modify_qp
     * (ucma_modify_qp_rtr, "Workaround for rdma_ucm kernel bug"), and so does this.
     */
    private static final int KERNEL_ONLY_IB_BITS = 0xe00000;

    static QueuePairAttributes of(CmId id, Lifetime life, QueuePairState state) {
        if (state != QueuePairState.INIT && state != QueuePairState.RTR && state != QueuePairState.RTS) {
            throw new IllegalArgumentException("rdma_init_qp_attr gives the attributes for INIT, RTR and RTS, not "
                    + state);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attr = arena.allocate(Structs.ibv_qp_attr);
            attr.set(JAVA_INT, Offsets.ibv_qp_attr.qp_state, state.value());
            MemorySegment mask = arena.allocate(JAVA_INT);
            int rc = life.call(h -> (int) Cm.rdma_init_qp_attr.handle().invokeExact(Downcalls.errnoState(), h, attr, mask));
            Errors.check("rdma_init_qp_attr", rc, "for " + state + ", " + id);
            int m = mask.get(JAVA_INT, 0);
            int port = id.port();
            if (port != 0 && id.context().queryPort(port).linkLayer() == LinkLayer.INFINIBAND) {
                m &= ~KERNEL_ONLY_IB_BITS;
            }
            return (QueuePairAttributes) VerbsBridge.get(Context.class).queuePairAttributes(attr, m);
        }
    }

    /**
     * A connected-mode id needs a queue pair number to send: its own from {@link CmId#createQueuePair} (numbered
     * {@code own}, 0 for none), or the application's in {@link ConnectionParameters#qpNumber}. librdmacm would send
     * QP number 0 otherwise, and the peer would connect to nothing.
     */
    static void checkQueuePairNumber(String verb, int own, ConnectionParameters parameters) {
        if (own != 0) {
            if (parameters.qpNumber != 0 && parameters.qpNumber != own) {
                throw new IllegalArgumentException(verb + ": this id has QP 0x" + Integer.toHexString(own)
                        + " from createQueuePair, which librdmacm uses; ConnectionParameters.qpNumber(0x"
                        + Integer.toHexString(parameters.qpNumber) + ") names another one");
            }
        } else if (parameters.qpNumber == 0) {
            throw new IllegalArgumentException(verb + ": this id has no queue pair; create one with createQueuePair,"
                    + " or give the number of your own with ConnectionParameters.qpNumber");
        }
    }
}
