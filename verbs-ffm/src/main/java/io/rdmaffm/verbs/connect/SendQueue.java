package io.rdmaffm.verbs.connect;

import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;

/**
 * The send queue's accounting, under the connection's lock: a ring of prepared work requests (one per slot of the
 * granted depth), the sequence number of every work request posted, which ones are signaled, and what each was (for
 * the message of a failed completion). Sequence numbers start at 1 and are the work requests' wr_id; RC completes a
 * send queue in order, so a successful completion of sequence s completes everything up to s, signaled or not.
 *
 * <p>Rules: never more than {@code depth} work requests in flight; signal every {@code interval}-th, the one that
 * fills the queue (so a full queue always has a completion coming), the one posted to an idle queue (so an operation
 * done one at a time reports itself, at any interval) and those the caller forces (blocking and asynchronous
 * operations, fences). Allocation-free.
 */
final class SendQueue implements AutoCloseable {
    static final byte SEND = 1;
    static final byte WRITE = 2;
    static final byte READ = 3;
    static final byte CREDIT = 4;
    private static final String[] NAMES = {"?", "SEND", "RDMA WRITE", "RDMA READ", "credit update"};

    private final QueuePair qp;
    private final SendWorkRequests wrs;
    final int depth;
    private final int interval;
    /** Sends and writes up to this many bytes go inline (0: none). */
    private final int inlineMax;
    private final byte[] kind;
    private final int[] length;
    private final long[] localAddress;
    private final long[] remoteAddress;
    private final int[] rkey;
    /** The next sequence number; every one up to {@link #completed} is complete (volatile: read without the lock). */
    long next = 1;
    volatile long completed;
    /** The highest signaled sequence number posted. */
    long lastSignaled;
    private int unsignaledRun;

    SendQueue(QueuePair qp, int depth, int interval, int inlineThreshold) {
        this.qp = qp;
        this.depth = depth;
        this.interval = Math.max(1, Math.min(interval, depth / 2));
        this.inlineMax = Math.min(inlineThreshold, qp.capabilities().maxInlineData());
        this.wrs = new SendWorkRequests(depth, 1);
        this.kind = new byte[depth];
        this.length = new int[depth];
        this.localAddress = new long[depth];
        this.remoteAddress = new long[depth];
        this.rkey = new int[depth];
    }

    /** Work requests that may still be posted. */
    int free() {
        return depth - (int) (next - 1 - completed);
    }

    boolean idle() {
        return next - 1 == completed;
    }

    /** The slot of a sequence number. */
    int slot(long seq) {
        return (int) (seq % depth);
    }

    /**
     * Posts one work request ({@code ibv_post_send} of its slot); the caller checked {@link #free()}. Returns its
     * sequence number. {@code length} 0 posts no SGE.
     */
    long post(byte what, SendOpcode opcode, long local, int lkey, int bytes, long remote, int key, int imm,
              boolean forceSignal) {
        long seq = next;
        int slot = slot(seq);
        boolean signal = forceSignal || unsignaledRun + 1 >= interval || free() == 1 || idle();
        int flags = signal ? SendFlags.SIGNALED : 0;
        if (bytes > 0 && bytes <= inlineMax && opcode != SendOpcode.RDMA_READ) {
            flags |= SendFlags.INLINE;
        }
        SendWorkRequests.Request r = wrs.get(slot).wrId(seq).opcode(opcode).flags(flags);
        if (bytes == 0) {
            r.numSge(0);
        } else {
            r.numSge(1).sge(0, local, bytes, lkey);
        }
        if (opcode == SendOpcode.SEND_WITH_IMM) {
            r.immData(imm);
        } else {
            r.rdma(remote, key);
        }
        long t0 = CarrierTime.start();
        // Inline also on rxe, where the kernel sends in this system call (1 ms-2 s under TCG): handing the post to a
        // platform thread was measured worse (docs/connection-api.md, "What holds a carrier").
        qp.postSend(wrs, slot, 1);
        CarrierTime.end(CarrierTime.POST_SEND, t0);
        kind[slot] = what;
        length[slot] = bytes;
        localAddress[slot] = local;
        remoteAddress[slot] = remote;
        rkey[slot] = key;
        next = seq + 1;
        if (signal) {
            lastSignaled = seq;
            unsignaledRun = 0;
        } else {
            unsignaledRun++;
        }
        return seq;
    }

    /** True when a signaled work request at or after {@code seq} is in flight, so {@code seq}'s completion will show. */
    boolean covered(long seq) {
        return lastSignaled >= seq;
    }

    /** The operation of sequence {@code seq}: "SEND", "RDMA WRITE", "RDMA READ" or "credit update". */
    String name(long seq) {
        return NAMES[kind[slot(seq)]];
    }

    /** The details of sequence {@code seq}, for messages: "#17 (8 bytes, local 0x.., remote 0x.. rkey 0x..)". */
    String details(long seq) {
        int slot = slot(seq);
        StringBuilder sb = new StringBuilder("#").append(seq).append(" (").append(length[slot]).append(" bytes");
        if (kind[slot] == SEND) {
            sb.append(" from 0x").append(Long.toHexString(localAddress[slot]));
        } else {
            sb.append(", local 0x").append(Long.toHexString(localAddress[slot])).append(", remote 0x")
                    .append(Long.toHexString(remoteAddress[slot])).append(" rkey 0x")
                    .append(Integer.toHexString(rkey[slot]));
        }
        return sb.append(')').toString();
    }

    /** Completion {@code i}'s status as text: "REM_ACCESS_ERR (status 10, vendor error 0x0)". */
    static String status(Completions wc, int i) {
        return wc.status(i) + " (status " + wc.statusCode(i) + ", vendor error 0x" + Integer.toHexString(wc.vendorError(i))
                + ")";
    }

    @Override
    public void close() {
        wrs.close();
    }
}
