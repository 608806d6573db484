package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.Mtu;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.WorkCompletionOpcode;
import io.rdmaffm.verbs.WorkCompletionStatus;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One lane of a rank's RDMA side (docs/fabric-design.md §11): its own completion queue, work requests and
 * completion array, and one RC QP per link (a link is one peer in one role, e.g. the ring's next rank), in the
 * rank's shared {@link RankRegion}; only the lane's thread touches it. Every message is an RDMA WRITE_WITH_IMM
 * (zero bytes for credits): the peer learns of it from the receive it consumes, whose immediate lands in that
 * link's queue. Waits poll the CQ until their deadline, and check the coordinator's abort, the worker's
 * interruption and the other lanes' failures on the way. On close the QPs go to ERR and the flushed work requests are drained before anything is
 * deregistered: memory stays registered while a work request may still point into it (the region is closed after
 * every lane's endpoint).
 */
final class RdmaEndpoint implements PeerLinks, AutoCloseable {
    static final int SEND_DEPTH = 64;
    static final int RECV_DEPTH = 128;

    private final OpenDevice dev;
    private final CompletionQueue cq;
    private final MemoryRegion mr;
    private final QueuePair[] qps;
    private final int[] psn;
    private final int[] peer;
    private final String[] peerHost;
    private final long[] remoteAddr;
    private final int[] remoteKey;
    private final int[] outstanding;
    /** Per link, when each outstanding write was posted, oldest at {@link #oldest} (a QP completes in order); -1: a signal. */
    private final long[][] postedAt;
    private final int[] oldest;
    /** Per link: data writes completed and the nanoseconds from their post to their completion (the peer's ACK). */
    private final long[] writes;
    private final long[] writeNanos;
    private final IntFifo[] imms;
    private final SendWorkRequests send = new SendWorkRequests(1, 1);
    private final RecvWorkRequests recv = new RecvWorkRequests(1, 1);
    private final Completions wc = new Completions(32);
    private final long stepNanos;
    private final LaneGate gate;
    private int idlePolls;
    /** Whether completed writes are counted (the timed iterations only: not warm-up, not the check's run). */
    private boolean timingWrites;

    /**
     * @param region    the rank's PD and registered region
     * @param peers     the peer rank of each link
     * @param hosts     every rank's host (the rank table), for the messages
     * @param gate      the other lanes' failures and the coordinator's abort, checked while waiting
     */
    RdmaEndpoint(OpenDevice dev, RankRegion region, int[] peers, List<String> hosts, long stepNanos, LaneGate gate) {
        this.dev = dev;
        this.stepNanos = stepNanos;
        this.gate = gate;
        int n = peers.length;
        qps = new QueuePair[n];
        psn = new int[n];
        peer = peers.clone();
        peerHost = new String[n];
        remoteAddr = new long[n];
        remoteKey = new int[n];
        outstanding = new int[n];
        postedAt = new long[n][SEND_DEPTH];
        oldest = new int[n];
        writes = new long[n];
        writeNanos = new long[n];
        imms = new IntFifo[n];
        ProtectionDomain pd = region.pd();
        mr = region.mr();
        cq = dev.context().createCompletionQueue(Math.max(1, n * (SEND_DEPTH + RECV_DEPTH)));
        try {
            for (int i = 0; i < n; i++) {
                peerHost[i] = hosts.get(peers[i]);
                imms[i] = new IntFifo(4 * RECV_DEPTH + 1024);
                qps[i] = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(SEND_DEPTH)
                        .maxRecvWr(RECV_DEPTH).maxSendSge(1).maxRecvSge(1));
                qps[i].modify(QueuePairAttributes.init(dev.ibPort(), Access.REMOTE_WRITE));
                psn[i] = ThreadLocalRandom.current().nextInt(1 << 24);
                for (int r = 0; r < RECV_DEPTH; r++) {
                    postRecv(i);
                }
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The peer rank of a link. */
    int peer(int link) {
        return peer[link];
    }

    /** What the peer of {@code link} needs to reach its QP and write at {@code offset} of the region. */
    QpRecord record(int link, String name, long offset) {
        return new QpRecord(peer[link], name, qps[link].qpNumber(), psn[link], dev.lid(), dev.gid(),
                activeMtu(), mr.addressOf(offset, 0), mr.rkey());
    }

    private int activeMtu() {
        return dev.facts().activeMtu();
    }

    /** INIT to RTR and RTS towards the peer's QP; writes go to the address it gave. */
    void connect(int link, QpRecord remote) {
        AddressVector av = new AddressVector().port(dev.ibPort()).dlid(remote.lid());
        if (dev.withGid() && remote.gid() != null) {
            av.global(remote.gid(), dev.gidIndex());
        }
        Mtu mtu = Mtu.of(Math.min(activeMtu(), remote.mtu()));
        qps[link].modify(QueuePairAttributes.rtrRc(mtu, remote.qpn(), remote.psn(), av, 1));
        // ACK timeout 14 (67 ms) and 7 retries: a dead peer shows as RETRY_EXC_ERR within about a second.
        qps[link].modify(QueuePairAttributes.rtsRc(psn[link], 14, 7, 7, 1));
        remoteAddr[link] = remote.addr();
        remoteKey[link] = remote.rkey();
    }

    private void postRecv(int link) {
        recv.reset(0).wrId(0, ((long) link << 1) | 1);
        qps[link].postRecv(recv, 1);
    }

    /**
     * WRITE_WITH_IMM of {@code bytes} (0: a signal) from {@code from} of the region to {@code to} past the address
     * the peer gave; waits for room in the send queue first.
     */
    @Override
    public void write(int link, long from, long bytes, long to, int imm) {
        long deadline = System.nanoTime() + stepNanos;
        while (outstanding[link] >= SEND_DEPTH) {
            pollOrWait(deadline, link, "room in the send queue");
        }
        SendWorkRequests.Request r = send.get(0).reset().wrId((long) link << 1)
                .opcode(SendOpcode.RDMA_WRITE_WITH_IMM).flags(SendFlags.SIGNALED).immData(imm)
                .rdma(remoteAddr[link] + to, remoteKey[link]);
        if (bytes > 0) {
            r.local(mr, from, (int) bytes);
        }
        postedAt[link][(oldest[link] + outstanding[link]) % SEND_DEPTH] = bytes > 0 ? System.nanoTime() : -1;
        qps[link].postSend(send, 1);
        outstanding[link]++;
    }

    /** The next immediate from the peer of {@code link}, waiting at most a step. */
    @Override
    public int awaitImm(int link) {
        long deadline = System.nanoTime() + stepNanos;
        while (imms[link].isEmpty()) {
            pollOrWait(deadline, link, "a write");
        }
        return imms[link].take();
    }

    /** Whether an immediate from the peer of {@code link} is waiting (polls once). */
    boolean hasImm(int link) {
        if (imms[link].isEmpty()) {
            poll();
        }
        return !imms[link].isEmpty();
    }

    /** Waits until the sends of {@code link} have completed, at most a step. */
    void awaitSends(int link) {
        long deadline = System.nanoTime() + stepNanos;
        while (outstanding[link] > 0) {
            pollOrWait(deadline, link, "the completion of its writes");
        }
    }

    @Override
    public void timeWrites(boolean on) {
        if (on) {
            java.util.Arrays.fill(writes, 0);
            java.util.Arrays.fill(writeNanos, 0);
        }
        timingWrites = on;
    }

    /** Data writes on {@code link} completed while {@link #timeWrites} was on. */
    long writes(int link) {
        return writes[link];
    }

    /**
     * Nanoseconds from post to completion summed over those writes: the link's own time (its wire, the peer's NIC
     * and ACK), read when this rank next polls, so a step's computation adds to every link alike.
     */
    long writeNanos(int link) {
        return writeNanos[link];
    }

    /** Waits until every link's sends have completed. */
    @Override
    public void awaitAllSends() {
        for (int i = 0; i < qps.length; i++) {
            awaitSends(i);
        }
    }

    /** Polls once; past the deadline, or when the run is aborted, throws. */
    void pollOrWait(long deadline, int link, String what) {
        if (poll() > 0) {
            idlePolls = 0;
            return;
        }
        gate.check();
        if (System.nanoTime() > deadline) {
            throw new FabricFailure("step timeout: no " + what + " from rank " + peer[link] + " ("
                    + peerHost[link] + ") within " + stepNanos / 1_000_000_000L + " s");
        }
        Idle.pause(++idlePolls);
    }

    /** Polls the CQ once and files what came; a failed completion names the link's peer. */
    int poll() {
        int got = cq.poll(wc);
        for (int i = 0; i < got; i++) {
            int link = (int) (wc.wrId(i) >>> 1);
            boolean isRecv = (wc.wrId(i) & 1) != 0;
            if (wc.status(i) != WorkCompletionStatus.SUCCESS) {
                throw new FabricFailure((isRecv ? "receive" : "write") + " on the link to rank " + peer[link] + " ("
                        + peerHost[link] + ") failed: " + wc.status(i)
                        + (wc.status(i) == WorkCompletionStatus.RETRY_EXC_ERR ? " (the peer stopped answering)" : ""));
            }
            if (isRecv) {
                if (wc.opcode(i) != WorkCompletionOpcode.RECV_RDMA_WITH_IMM) {
                    throw new FabricFailure("rank " + peer[link] + " sent " + wc.opcode(i) + ", not a write with immediate");
                }
                imms[link].add(wc.immData(i));
                postRecv(link);
            } else {
                long posted = postedAt[link][oldest[link]];
                oldest[link] = (oldest[link] + 1) % SEND_DEPTH;
                outstanding[link]--;
                if (posted >= 0 && timingWrites) {
                    writes[link]++;
                    writeNanos[link] += System.nanoTime() - posted;
                }
            }
        }
        return got;
    }

    /**
     * QPs to ERR, the flushed work requests drained (bounded), then QPs and CQ closed; the caller deregisters the
     * region after every lane's endpoint is closed, when no work request can point into it any more.
     */
    @Override
    public void close() {
        for (QueuePair qp : qps) {
            if (qp != null) {
                try {
                    qp.toError();
                } catch (RuntimeException e) {
                    // already in error or gone: the drain below still runs
                }
            }
        }
        long end = System.nanoTime() + 2_000_000_000L;
        long quietSince = System.nanoTime();
        while (System.nanoTime() < end && System.nanoTime() - quietSince < 50_000_000L) {
            try {
                if (cq.poll(wc) > 0) {
                    quietSince = System.nanoTime();
                }
            } catch (RuntimeException e) {
                break;
            }
        }
        for (QueuePair qp : qps) {
            if (qp != null) {
                qp.close();
            }
        }
        cq.close();
        send.close();
        recv.close();
        wc.close();
    }
}
