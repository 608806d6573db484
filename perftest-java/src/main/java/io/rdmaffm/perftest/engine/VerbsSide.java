package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.CompletionChannel;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.CycleClock;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.SharedReceiveQueue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Objects;

/**
 * The verbs objects one measured loop works on: QPs, their CQs, the buffer, preallocated work requests and
 * completion arrays. A real run and the untimed warm-up (on a QP connected to itself) use the same loops
 * over different sides, so the warm-up compiles exactly the code that is measured. Built with
 * {@link #builder}; closing it frees the work requests and completion arrays (the verbs objects belong to
 * whoever created them).
 */
final class VerbsSide implements DataPath, AutoCloseable {
    /**
     * The loops' clock: the CPU's cycle counter where the kernel keeps time by it, as perftest reads it
     * ({@link CycleClock}); System.nanoTime cost a latency loop about 80 instructions per read.
     * {@code -Drdmaffm.cycleClock=false} keeps System.nanoTime, for comparison.
     */
    private static final CycleClock CLOCK = Boolean.parseBoolean(System.getProperty("rdmaffm.cycleClock", "true"))
            ? CycleClock.calibrate(Duration.ofMillis(20)) : CycleClock.systemNanoTime();

    private final QueuePair[] qps;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    /** Non-null with {@code -e}: polls wait for completion events when a CQ is empty. */
    private final CompletionChannel channel;
    private final MemoryRegion mr;
    /** Per QP: the lkey of its region ({@code mr}'s, or its own with {@code --mr_per_qp}). */
    private final int[] lkeys;
    /** Per QP: the absolute addresses of the local send and receive areas, the peer's target and its rkey. */
    private final long[] localSend;
    private final long[] localRecv;
    private final long[] remoteAddr;
    private final int[] remoteRkey;
    /** UD only: per QP the address handle and QP number of the peer, and the Q_Key. */
    private final AddressHandle[] ah;
    private final int[] remoteQpn;
    private final int qkey;
    private final SendWorkRequests[] sendWrs;
    private final RecvWorkRequests[] recvWrs;
    /** {@code --use-srq}: receives go here, not to the QPs (null: each QP's own receive queue). */
    private final SharedReceiveQueue srq;
    /** {@code --recv_post_list}: receives are re-posted N at a time, once N of a QP's have completed. */
    private final int recvPostList;
    /** Per QP: completed receives not re-posted yet (with {@link #recvPostList} above 1). */
    private final int[] unposted;
    private final Completions sendWc = new Completions(BATCH);
    private final Completions recvWc = new Completions(BATCH);
    /** Latency loops poll one completion at a time: exactly one is ever outstanding per CQ. */
    private final Completions sendOne = new Completions(1);
    private final Completions recvOne = new Completions(1);
    private Completions sendView = sendWc;
    private Completions recvView = recvWc;

    private VerbsSide(Builder b) {
        this.qps = b.qps;
        this.sendCq = Objects.requireNonNull(b.sendCq, "send CQ");
        this.recvCq = Objects.requireNonNull(b.recvCq, "receive CQ");
        this.srq = b.srq;
        this.recvPostList = b.recvPostList;
        this.unposted = new int[qps.length];
        this.channel = b.channel;
        this.mr = b.mr;
        this.lkeys = b.lkeys != null ? b.lkeys : new int[qps.length];
        if (b.lkeys == null) {
            java.util.Arrays.fill(lkeys, mr.lkey());
        }
        this.localSend = b.localSend;
        this.localRecv = b.localRecv;
        this.remoteAddr = b.remoteAddr;
        this.remoteRkey = b.remoteRkey;
        this.ah = b.ah;
        this.remoteQpn = b.remoteQpn;
        this.qkey = b.qkey;
        this.sendWrs = new SendWorkRequests[qps.length];
        this.recvWrs = new RecvWorkRequests[qps.length];
        for (int i = 0; i < qps.length; i++) {
            sendWrs[i] = new SendWorkRequests(Math.max(1, b.postList), 1);
            recvWrs[i] = new RecvWorkRequests(Math.max(1, b.rxDepth), 1);
        }
    }

    /** The loops' clock. */
    static CycleClock clock() {
        return CLOCK;
    }

    /** A side over {@code qps} and the buffer {@code mr}; the other parts are set on the builder. */
    static Builder builder(QueuePair[] qps, MemoryRegion mr) {
        return new Builder(qps, mr);
    }

    /** Work requests of every QP for this run's posts: opcode, local buffer, remote target. */
    void prepareSends(SendOpcode opcode, long size) {
        for (int i = 0; i < qps.length; i++) {
            SendWorkRequests wrs = sendWrs[i];
            for (int j = 0; j < wrs.size(); j++) {
                SendWorkRequests.Request r = wrs.get(j).wrId(i).opcode(opcode)
                        .sge(0, localSend[i], (int) size, lkeys[i]).numSge(size == 0 ? 0 : 1);
                switch (opcode) {
                    case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> r.rdma(remoteAddr[i], remoteRkey[i]);
                    case ATOMIC_FETCH_AND_ADD -> r.atomic(remoteAddr[i], remoteRkey[i], 1, 0);
                    case ATOMIC_CMP_AND_SWP -> r.atomic(remoteAddr[i], remoteRkey[i], 0, 0);
                    default -> {
                        if (ah != null) {
                            r.ud(ah[i], remoteQpn[i], qkey);
                        }
                    }
                }
            }
        }
    }

    /** Posts the initial receives of every QP: {@code depth} entries of {@code recvBytes} into its area. */
    void postReceives(int depth, int recvBytes) {
        for (int i = 0; i < qps.length; i++) {
            for (int slot = 0; slot < depth; slot++) {
                recvWrs[i].setRaw(slot, ((long) i << 32) | slot, localRecv[i], recvBytes, lkeys[i]);
            }
            if (srq != null) {
                srq.postRecv(recvWrs[i], 0, depth);
            } else {
                qps[i].postRecv(recvWrs[i], 0, depth);
            }
        }
    }

    @Override
    public int queuePairs() {
        return qps.length;
    }

    @Override
    public void sendFlags(int qp, int request, int flags) {
        sendWrs[qp].get(request).flags(flags);
    }

    @Override
    public void postSend(int qp, int count) {
        qps[qp].postSend(sendWrs[qp], count);
    }

    @Override
    public void postRecv(int qp, int slot, int count) {
        if (recvPostList > 1 && count == 1) {
            // A QP's receives complete in the order they were posted, and the ring's depth is a multiple of N
            // (the rules): the N slots ending at this one are free and contiguous.
            if (++unposted[qp] < recvPostList) {
                return;
            }
            unposted[qp] = 0;
            slot -= recvPostList - 1;
            count = recvPostList;
        }
        if (srq != null) {
            srq.postRecv(recvWrs[qp], slot, count);
        } else {
            qps[qp].postRecv(recvWrs[qp], slot, count);
        }
    }

    @Override
    public int pollSends(int max) {
        Completions view = max == 1 ? sendOne : sendWc;
        if (view != sendView) {
            sendView = view; // only on a change: a reference store costs a card mark on every poll
        }
        return poll(sendCq, view);
    }

    @Override
    public boolean sendOk(int k) {
        return sendView.isSuccess(k);
    }

    @Override
    public long sendWrId(int k) {
        return sendView.wrId(k);
    }

    @Override
    public String describeSend(int k) {
        return sendView.describe(k);
    }

    @Override
    public int pollRecvs(int max) {
        Completions view = max == 1 ? recvOne : recvWc;
        if (view != recvView) {
            recvView = view;
        }
        return poll(recvCq, view);
    }

    @Override
    public boolean recvOk(int k) {
        return recvView.isSuccess(k);
    }

    @Override
    public long recvWrId(int k) {
        return recvView.wrId(k);
    }

    @Override
    public String describeRecv(int k) {
        return recvView.describe(k);
    }

    @Override
    public MemorySegment memory() {
        return mr.segment();
    }

    @Override
    public long sendOffset(int qp) {
        return localSend[qp] - mr.address();
    }

    @Override
    public long recvOffset(int qp) {
        return localRecv[qp] - mr.address();
    }

    @Override
    public long nanoTime() {
        return CLOCK.nanoTime();
    }

    /** One poll; with events, arms the CQ and waits for its event when it is empty. */
    private int poll(CompletionQueue cq, Completions wc) {
        int n = cq.poll(wc);
        if (n > 0 || channel == null) {
            return n;
        }
        cq.requestNotify(false);
        n = cq.poll(wc);
        if (n > 0) {
            return n;
        }
        channel.awaitEvent(Duration.ofMillis(100));
        return cq.poll(wc);
    }

    @Override
    public void close() {
        for (SendWorkRequests s : sendWrs) {
            s.close();
        }
        for (RecvWorkRequests r : recvWrs) {
            r.close();
        }
        sendWc.close();
        recvWc.close();
        sendOne.close();
        recvOne.close();
    }

    /** The parts of a {@link VerbsSide}; setters return {@code this}. */
    static final class Builder {
        private final QueuePair[] qps;
        private final MemoryRegion mr;
        private CompletionQueue sendCq;
        private CompletionQueue recvCq;
        private CompletionChannel channel;
        private long[] localSend;
        private long[] localRecv;
        private long[] remoteAddr;
        private int[] remoteRkey;
        private AddressHandle[] ah;
        private int[] remoteQpn;
        private int qkey;
        private int postList = 1;
        private int rxDepth = 1;
        private int recvPostList = 1;
        private int[] lkeys;
        private SharedReceiveQueue srq;

        private Builder(QueuePair[] qps, MemoryRegion mr) {
            this.qps = qps.clone();
            this.mr = mr;
        }

        /** The CQs the QPs' sends and receives complete on (the same CQ twice is fine). */
        Builder completionQueues(CompletionQueue send, CompletionQueue receive) {
            this.sendCq = send;
            this.recvCq = receive;
            return this;
        }

        /** {@code -e}: wait for events on {@code c} instead of busy polling (null: busy polling). */
        Builder events(CompletionChannel c) {
            this.channel = c;
            return this;
        }

        /** Absolute addresses of each QP's send and receive area in the buffer. */
        Builder areas(long[] send, long[] receive) {
            this.localSend = send.clone();
            this.localRecv = receive.clone();
            return this;
        }

        /** Each QP's target in the peer's memory (RDMA and atomic verbs). */
        Builder remote(long[] addresses, int[] rkeys) {
            this.remoteAddr = addresses.clone();
            this.remoteRkey = rkeys.clone();
            return this;
        }

        /** UD: each QP's address handle and remote QP number, and the Q_Key. */
        Builder datagram(AddressHandle[] handles, int[] qpns, int qKey) {
            this.ah = handles.clone();
            this.remoteQpn = qpns.clone();
            this.qkey = qKey;
            return this;
        }

        /** Work requests per post call ({@code -l}). */
        Builder postList(int n) {
            this.postList = n;
            return this;
        }

        /** Receives kept posted per QP. */
        Builder receiveDepth(int n) {
            this.rxDepth = n;
            return this;
        }

        /** Receives re-posted per post call ({@code --recv_post_list}); the receive depth is a multiple of it. */
        Builder recvPostList(int n) {
            this.recvPostList = n;
            return this;
        }

        /** Per QP: the lkey its work requests carry (default: the buffer's region's for every QP). */
        Builder localKeys(int[] keys) {
            this.lkeys = keys.clone();
            return this;
        }

        /** The shared receive queue every receive is posted to, or null. */
        Builder sharedReceiveQueue(SharedReceiveQueue s) {
            this.srq = s;
            return this;
        }

        VerbsSide build() {
            Objects.requireNonNull(localSend, "areas");
            Objects.requireNonNull(remoteAddr, "remote");
            return new VerbsSide(this);
        }
    }
}
