package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.SendFlags;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * A device in a test: send queues of a fixed depth that a simulated adapter works off a few requests per poll
 * (completions only for signaled requests, as verbs does), receive queues fed by a simulated peer (or by our
 * own sends in loopback), and a virtual clock that every poll and clock read advances. It records what the
 * loops did (post sizes, signaled requests, queue occupancy, when the first send and receive happened) and
 * refuses what a real device would refuse: a send queue or receive queue over its depth.
 */
final class FakeDataPath implements DataPath {
    /** Prepared send requests per QP (the largest post list the tests use). */
    static final int PREPARED = 64;

    private final int qps;
    private final int sqDepth;
    private final int rqDepth;
    private final int[][] flags;
    private final List<List<Boolean>> posted = new ArrayList<>();
    private final int[] executed;
    private final int[] retired;
    private final ArrayDeque<long[]> sendCq = new ArrayDeque<>();
    private final long[][] polledSends = new long[BATCH][];
    private final List<ArrayDeque<Integer>> postedSlots = new ArrayList<>();
    private final ArrayDeque<Long> recvCq = new ArrayDeque<>();
    private final long[] polledRecvs = new long[BATCH];
    private final MemorySegment memory;
    private final long slot;

    // ---- behaviour, set by the test
    /** Virtual nanoseconds per poll and per clock read. */
    long pollTick = 1_000;
    long clockTick = 10;
    /** Requests the adapter executes per poll (over all QPs). */
    int executedPerPoll = 4;
    /** The adapter stops after this many requests in all (a stalled peer or link). */
    long executeLimit = Long.MAX_VALUE;
    /** The request (in execution order) whose completion fails. */
    long failAt = -1;
    /** Loopback: an executed send delivers a message to our own receive queue; a write copies its last byte. */
    boolean loopback;
    /** Message size, for the last byte a write copies in loopback. */
    long messageSize = 2;
    /** Messages the peer sends on each QP, a few per poll, from poll number {@link #peerFromPoll} on. */
    long[] peerMessages;
    int peerPerPoll = 4;
    int peerFromPoll;

    // ---- what happened
    long now = 1_000_000_000L;
    int polls;
    long executedTotal;
    final List<Integer> postSizes = new ArrayList<>();
    int maxOutstanding;
    final long[] receivesPosted;
    int maxReceivesPosted;
    long receiverNotReady;
    long firstSendAt = -1;
    long firstReceiveAt = -1;
    /** (time, completions) of every send poll that returned some. */
    final List<long[]> sendPolls = new ArrayList<>();

    FakeDataPath(int qps, int sqDepth, int rqDepth) {
        this.qps = qps;
        this.sqDepth = sqDepth;
        this.rqDepth = rqDepth;
        this.flags = new int[qps][PREPARED];
        this.executed = new int[qps];
        this.retired = new int[qps];
        this.receivesPosted = new long[qps];
        for (int i = 0; i < qps; i++) {
            posted.add(new ArrayList<>());
            postedSlots.add(new ArrayDeque<>());
        }
        this.slot = 4096;
        this.memory = MemorySegment.ofArray(new byte[(int) (2 * qps * slot)]);
        this.peerMessages = new long[qps];
    }

    /** Whether request {@code index} of QP {@code qp} was posted signaled. */
    boolean signaled(int qp, int index) {
        return posted.get(qp).get(index);
    }

    /** Requests posted on QP {@code qp}. */
    int postedCount(int qp) {
        return posted.get(qp).size();
    }

    /** Signaled completions not yet polled. */
    int unpolledSendCompletions() {
        return sendCq.size();
    }

    /** Requests posted and executed by the adapter but covered by no completion the loop has seen. */
    int notRetired(int qp) {
        return posted.get(qp).size() - retired[qp];
    }

    @Override
    public int queuePairs() {
        return qps;
    }

    @Override
    public void sendFlags(int qp, int request, int f) {
        flags[qp][request] = f;
    }

    @Override
    public void postSend(int qp, int count) {
        if (count < 1 || count > PREPARED) {
            throw new IllegalArgumentException("cannot post " + count + " of " + PREPARED + " prepared requests");
        }
        List<Boolean> q = posted.get(qp);
        if (q.size() + count - retired[qp] > sqDepth) {
            // ibv_post_send fails with ENOMEM on a full send queue.
            throw new IllegalStateException("send queue of QP " + qp + " overflows: " + (q.size() - retired[qp])
                    + " outstanding + " + count + " > " + sqDepth);
        }
        for (int j = 0; j < count; j++) {
            q.add((flags[qp][j] & SendFlags.SIGNALED) != 0);
        }
        postSizes.add(count);
        maxOutstanding = Math.max(maxOutstanding, q.size() - retired[qp]);
        if (firstSendAt < 0) {
            firstSendAt = now;
        }
    }

    @Override
    public void postRecv(int qp, int slotIndex, int count) {
        ArrayDeque<Integer> q = postedSlots.get(qp);
        for (int s = slotIndex; s < slotIndex + count; s++) {
            q.add(s);
        }
        if (q.size() > rqDepth) {
            throw new IllegalStateException("receive queue of QP " + qp + " overflows: " + q.size() + " > " + rqDepth);
        }
        receivesPosted[qp] += count;
        maxReceivesPosted = Math.max(maxReceivesPosted, q.size());
    }

    /** One poll's worth of adapter and peer work, and time. */
    private void step() {
        polls++;
        now += pollTick;
        int budget = executedPerPoll;
        boolean progress = true;
        while (budget > 0 && progress && executedTotal < executeLimit) {
            progress = false;
            for (int i = 0; i < qps && budget > 0 && executedTotal < executeLimit; i++) {
                if (executed[i] < posted.get(i).size()) {
                    execute(i, executed[i]++);
                    budget--;
                    progress = true;
                }
            }
        }
        if (polls > peerFromPoll) {
            for (int i = 0; i < qps; i++) {
                for (int k = 0; k < peerPerPoll && peerMessages[i] > 0; k++) {
                    peerMessages[i]--;
                    deliver(i);
                }
            }
        }
    }

    private void execute(int qp, int index) {
        boolean failed = executedTotal == failAt;
        executedTotal++;
        if (posted.get(qp).get(index) || failed) {
            sendCq.add(new long[] {qp, index, failed ? 1 : 0});
        }
        if (loopback) {
            deliver(qp);
            long last = messageSize - 1;
            memory.set(JAVA_BYTE, recvOffset(qp) + last, memory.get(JAVA_BYTE, sendOffset(qp) + last));
        }
    }

    private void deliver(int qp) {
        Integer s = postedSlots.get(qp).poll();
        if (s == null) {
            receiverNotReady++;
            return;
        }
        recvCq.add(((long) qp << 32) | s);
    }

    @Override
    public int pollSends(int max) {
        step();
        int n = Math.min(max, sendCq.size());
        for (int k = 0; k < n; k++) {
            long[] c = sendCq.poll();
            polledSends[k] = c;
            int qp = (int) c[0];
            retired[qp] = Math.max(retired[qp], (int) c[1] + 1);
        }
        if (n > 0) {
            sendPolls.add(new long[] {now, n});
        }
        return n;
    }

    @Override
    public boolean sendOk(int k) {
        return polledSends[k][2] == 0;
    }

    @Override
    public long sendWrId(int k) {
        return polledSends[k][0];
    }

    @Override
    public String describeSend(int k) {
        return "status 12 (retry exceeded) on QP " + polledSends[k][0];
    }

    @Override
    public int pollRecvs(int max) {
        step();
        int n = Math.min(max, recvCq.size());
        for (int k = 0; k < n; k++) {
            polledRecvs[k] = recvCq.poll();
        }
        if (n > 0 && firstReceiveAt < 0) {
            firstReceiveAt = now;
        }
        return n;
    }

    @Override
    public boolean recvOk(int k) {
        return true;
    }

    @Override
    public long recvWrId(int k) {
        return polledRecvs[k];
    }

    @Override
    public String describeRecv(int k) {
        return "success";
    }

    @Override
    public MemorySegment memory() {
        return memory;
    }

    @Override
    public long sendOffset(int qp) {
        return qp * slot;
    }

    @Override
    public long recvOffset(int qp) {
        return (qps + qp) * slot;
    }

    @Override
    public long nanoTime() {
        now += clockTick;
        return now;
    }
}
