package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.CompletionChannel;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.RecvWorkRequests;
import io.rdmaffm.verbs.SendWorkRequests;

import java.time.Duration;

/**
 * The verbs objects one measured loop works on: QPs, their CQs, the buffer, preallocated work requests and
 * completion arrays. A real run and the untimed warm-up (on a QP connected to itself) use the same loops
 * over different Sides, so the warm-up compiles exactly the code that is measured.
 */
final class Side {
    static final int POLL_BATCH = 16;

    final QueuePair[] qps;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final CompletionChannel channel;
    final MemoryRegion mr;
    /** Per QP: local send area address, and the remote (peer's) target address and rkey. */
    final long[] localSend;
    final long[] localRecv;
    final long[] remoteAddr;
    final int[] remoteRkey;
    final SendWorkRequests[] sendWrs;
    final RecvWorkRequests[] recvWrs;
    final Completions sendWc = new Completions(POLL_BATCH);
    final Completions recvWc = new Completions(POLL_BATCH);
    /** Latency loops poll one completion at a time: exactly one is ever outstanding per CQ. */
    final Completions sendOne = new Completions(1);
    final Completions recvOne = new Completions(1);
    final boolean events;
    final long stallNanos;

    Side(QueuePair[] qps, CompletionQueue sendCq, CompletionQueue recvCq, CompletionChannel channel, MemoryRegion mr,
         long[] localSend, long[] localRecv, long[] remoteAddr, int[] remoteRkey, int postList, int rxDepth,
         boolean events, Duration stall) {
        this.qps = qps;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
        this.channel = channel;
        this.mr = mr;
        this.localSend = localSend;
        this.localRecv = localRecv;
        this.remoteAddr = remoteAddr;
        this.remoteRkey = remoteRkey;
        this.events = events;
        this.stallNanos = stall.toNanos();
        this.sendWrs = new SendWorkRequests[qps.length];
        this.recvWrs = new RecvWorkRequests[qps.length];
        for (int i = 0; i < qps.length; i++) {
            sendWrs[i] = new SendWorkRequests(Math.max(1, postList), 1);
            recvWrs[i] = new RecvWorkRequests(Math.max(1, rxDepth), 1);
        }
    }

    /** One poll; with events, arms the CQ and waits for its event when it is empty. */
    int poll(CompletionQueue cq, Completions wc) {
        int n = cq.poll(wc);
        if (n > 0 || !events) {
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

    void close() {
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
}
