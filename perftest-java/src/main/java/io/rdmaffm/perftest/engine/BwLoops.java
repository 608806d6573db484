package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.SendFlags;

/**
 * perftest's bandwidth loops (run_iter_bw, run_iter_bw_server, run_iter_bi), allocation-free: inputs in a
 * {@link BwSpec}, counters and timestamps into a {@link Measurement}, posts and polls through a
 * {@link DataPath}. Figures are computed after the loop from the timestamps. Each loop ends within the stall
 * limit when the peer stops making progress, and a failed completion ends it with the completion's status.
 */
final class BwLoops {
    /**
     * The loops read the clock on every completion but only on every 64th empty poll (for the stall limit and
     * the duration states): where the clocksource is not the TSC (a VM: HPET), each read is a system call, and
     * reading it on every empty poll slowed the loop by the same order as the work itself.
     */
    static final int IDLE_CLOCK_MASK = 63;
    /** A send_bw server in duration mode ends when, past its duration, no message came for this long. */
    private static final long DURATION_END_QUIET_NANOS = 200_000_000L;

    private BwLoops() {
    }

    /**
     * run_iter_bw: keeps up to tx_depth work requests in flight per QP, signals every cq_mod-th (and the last),
     * and records tposted per post and tcompleted per counted completion; in duration mode it counts the
     * completions inside the sample window instead.
     */
    static void client(DataPath d, BwSpec b, Measurement m) {
        boolean duration = b.duration();
        long iters = duration ? Long.MAX_VALUE : b.iterations();
        long totalTarget = duration ? Long.MAX_VALUE : iters * d.queuePairs();
        int baseFlags = b.inline() ? SendFlags.INLINE : 0;
        boolean stamps = !duration && !b.noPeak();
        m.reset();
        long totS = 0;
        long totC = 0;
        long start = d.nanoTime();
        long sampleStart = start + b.marginNanos();
        long sampleEnd = start + b.durationNanos() - b.marginNanos();
        long end = start + b.durationNanos();
        boolean sampling = false;
        boolean stopPosting = false;
        long signaledTarget = 0;
        long sampled = 0;
        long lastProgress = start;
        int idlePolls = 0;
        if (!duration && b.noPeak()) {
            m.tposted[0] = start;
        }
        // SW rate limit (perftest's gap_deadline): a burst may start once its time has come, the next one gap
        // later; between bursts the loop only polls.
        boolean paced = b.paced();
        long nextBurst = start;
        long burstLeft = 0;
        while (true) {
            if (!stopPosting) {
                if (paced && burstLeft <= 0 && d.nanoTime() - nextBurst >= 0) {
                    nextBurst += b.burstGapNanos();
                    burstLeft = b.burst();
                }
                if (!paced) {
                    totS = postWithinTxDepth(d, b, iters, baseFlags, m, stamps, totS, Long.MAX_VALUE);
                } else if (burstLeft > 0) {
                    long before = totS;
                    totS = postWithinTxDepth(d, b, iters, baseFlags, m, stamps, totS, burstLeft);
                    burstLeft -= totS - before;
                }
            }
            int n = d.pollSends(DataPath.BATCH);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = d.nanoTime();
            if (n > 0) {
                lastProgress = now;
                for (int k = 0; k < n; k++) {
                    long inc = completedBySignal(d, b, k, m, totC);
                    totC += inc;
                    if (sampling) {
                        sampled += inc;
                    }
                    if (stamps) {
                        m.tcompleted[(int) (totC - 1)] = now;
                    }
                }
            } else if (now - lastProgress > b.stallNanos()) {
                throw new RunFailure("no completion for " + (b.stallNanos() / 1_000_000_000L) + " s (" + totC
                        + " of " + (duration ? "?" : String.valueOf(totalTarget))
                        + " work requests completed): the peer or the link stalled");
            }
            if (duration) {
                if (!sampling && !stopPosting && now >= sampleStart && now < sampleEnd) {
                    sampling = true;
                    m.windowStart = now;
                } else if (sampling && now >= sampleEnd) {
                    sampling = false;
                    m.windowEnd = now;
                    m.counted = sampled;
                }
                if (now >= end && !stopPosting) {
                    stopPosting = true;
                    signaledTarget = signaledWorkRequests(m.scnt, b.cqMod());
                }
                if (stopPosting && totC >= signaledTarget) {
                    break;
                }
            } else if (totC >= totalTarget) {
                break;
            }
        }
        if (!duration && b.noPeak()) {
            m.tcompleted[0] = d.nanoTime();
        }
    }

    /** After the peer's end, how long an endless sender's drain waits for a completion before the peer is gone. */
    private static final long PEER_GONE_NANOS = 2_000_000_000L;

    /**
     * run_iter_bw_infinitely: posts as {@link #client} with no end, hands every interval of {@code b}'s duration to
     * {@code sink} (perftest's row every -D seconds), and once {@code stop} is set or {@code peer} has ended stops
     * posting and waits for the signaled work requests it posted, so nothing is left in flight. Then it tells the
     * peer ({@link PeerEnd#endOurs}); with {@code peerUsesUs} ({@code -b}: the peer's writes and reads land here) it
     * keeps its QPs until the peer has stopped too, for at most the stall limit. A completion with an error once
     * the peer has ended stops the drain instead of the run: the peer's QPs are gone (C perftest dies on Ctrl-C).
     * The whole run's count and time go to {@code m} (window and counted).
     */
    static void clientInfinitely(DataPath d, BwSpec b, Measurement m, IntervalSink sink, StopSignal stop,
                                 PeerEnd peer, boolean peerUsesUs) {
        int baseFlags = b.inline() ? SendFlags.INLINE : 0;
        m.reset();
        long totS = 0;
        long totC = 0;
        long start = d.nanoTime();
        long intervalStart = start;
        long intervalCount = 0;
        long lastProgress = start;
        boolean stopping = false;
        boolean peerGone = false;
        long signaledTarget = 0;
        int idlePolls = 0;
        while (true) {
            if (!stopping) {
                totS = postWithinTxDepth(d, b, Long.MAX_VALUE, baseFlags, m, false, totS, Long.MAX_VALUE);
            }
            int n = d.pollSends(DataPath.BATCH);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = d.nanoTime();
            if (n > 0) {
                lastProgress = now;
                for (int k = 0; k < n; k++) {
                    if (stopping && !d.sendOk(k) && peer.ended()) {
                        peerGone = true;
                        break;
                    }
                    long inc = completedBySignal(d, b, k, m, totC);
                    totC += inc;
                    intervalCount += inc;
                }
            } else if (stopping && peer.ended() && now - lastProgress > Math.min(b.stallNanos(), PEER_GONE_NANOS)) {
                // The peer ended and nothing of ours completes: its QPs went with it (C perftest dies on Ctrl-C,
                // and rxe retries writes to a vanished QP for longer than the stall limit). What is in flight is
                // flushed when our QPs are destroyed.
                peerGone = true;
            } else if (now - lastProgress > b.stallNanos()) {
                throw new RunFailure("no completion for " + (b.stallNanos() / 1_000_000_000L) + " s (" + totC
                        + " work requests completed): the peer or the link stalled");
            }
            if (!stopping && now - intervalStart >= b.durationNanos()) {
                sink.interval(intervalCount, intervalStart, now);
                intervalStart = now;
                intervalCount = 0;
            }
            if (!stopping && (stop.stopped() || peer.ended())) {
                stopping = true;
                signaledTarget = signaledWorkRequests(m.scnt, b.cqMod());
            }
            if (stopping && (totC >= signaledTarget || peerGone)) {
                break;
            }
        }
        m.windowStart = start;
        m.windowEnd = d.nanoTime();
        m.counted = totC;
        peer.endOurs();
        if (peerUsesUs) {
            awaitPeerEnd(peer, b.stallNanos());
        }
    }

    /** Parks in short sleeps (nothing of ours is in flight) until the peer has ended or {@code limitNanos} passed. */
    private static void awaitPeerEnd(PeerEnd peer, long limitNanos) {
        long start = System.nanoTime();
        while (!peer.ended() && System.nanoTime() - start < limitNanos) {
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * run_iter_bw_infinitely_server for ib_send_bw: re-posts every receive, hands every interval's count of
     * received messages to {@code sink} (perftest's receiver prints its row every -D seconds too) until the peer
     * has ended. Once {@code stop} is set it tells the peer and keeps receiving until the sender has drained and
     * ended; a sender that goes quiet for the stall limit ends the run then, a failure unless it was stopped.
     */
    static void sendServerInfinitely(DataPath d, BwSpec b, Measurement m, IntervalSink sink, StopSignal stop,
                                     PeerEnd peer) {
        m.reset();
        long[] rcnt = m.rcnt;
        long total = 0;
        long start = d.nanoTime();
        long intervalStart = start;
        long intervalCount = 0;
        long lastProgress = start;
        boolean stopping = false;
        int idlePolls = 0;
        while (true) {
            int n = d.pollRecvs(DataPath.BATCH);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = d.nanoTime();
            if (n > 0) {
                lastProgress = now;
                for (int k = 0; k < n; k++) {
                    if (!d.recvOk(k)) {
                        throw new RunFailure("receive completion with error: " + d.describeRecv(k));
                    }
                    int i = (int) (d.recvWrId(k) >>> 32);
                    rcnt[i]++;
                    d.postRecv(i, (int) d.recvWrId(k), 1);
                }
                total += n;
                intervalCount += n;
            } else if (now - lastProgress > b.stallNanos()) {
                if (stopping) {
                    break;
                }
                throw new RunFailure("no message for " + (b.stallNanos() / 1_000_000_000L) + " s (" + total
                        + " received): the peer stopped sending");
            }
            if (!stopping && now - intervalStart >= b.durationNanos()) {
                sink.interval(intervalCount, intervalStart, now);
                intervalStart = now;
                intervalCount = 0;
            }
            if (peer.ended()) {
                break;
            }
            if (!stopping && stop.stopped()) {
                stopping = true;
                peer.endOurs();
            }
        }
        if (!stopping) {
            peer.endOurs();
        }
        m.windowStart = start;
        m.windowEnd = d.nanoTime();
        m.counted = total;
    }

    /**
     * Posts on every QP while it has iterations left and room under tx_depth, signaling every cq_mod-th work
     * request and the last; stamps each post into tposted when {@code stamps}; stops once {@code budget} work
     * requests are posted (a whole post list at a time, as perftest's burst). Returns the new total posted.
     */
    private static long postWithinTxDepth(DataPath d, BwSpec b, long iters, int baseFlags, Measurement m,
                                          boolean stamps, long totS, long budget) {
        long first = totS;
        long[] scnt = m.scnt;
        long[] ccnt = m.ccnt;
        int postList = b.postList();
        int cqMod = b.cqMod();
        for (int i = 0; i < scnt.length; i++) {
            while (scnt[i] < iters && scnt[i] - ccnt[i] + postList <= b.txDepth() && totS - first < budget) {
                for (int j = 0; j < postList; j++) {
                    long n = scnt[i] + j;
                    boolean signaled = n % cqMod == cqMod - 1 || n == iters - 1;
                    d.sendFlags(i, j, signaled ? baseFlags | SendFlags.SIGNALED : baseFlags);
                }
                if (stamps) {
                    m.tposted[(int) totS] = d.nanoTime();
                }
                d.postSend(i, postList);
                scnt[i] += postList;
                totS += postList;
            }
        }
        return totS;
    }

    /**
     * Work requests covered by a signaled completion once posting has stopped: in duration mode no request is
     * the "last" one, so up to cq_mod - 1 unsignaled requests at the tail never produce a completion (perftest
     * leaves them too: its loop ends on the alarm state). Waiting for them would stall; waiting for the
     * signaled ones leaves no completion behind in the CQ.
     */
    private static long signaledWorkRequests(long[] scnt, int cqMod) {
        long covered = 0;
        for (long posted : scnt) {
            covered += posted / cqMod * cqMod;
        }
        return covered;
    }

    /** Work requests one signaled send completion stands for (up to cq_mod); a failed completion ends the run. */
    private static long completedBySignal(DataPath d, BwSpec b, int k, Measurement m, long totC) {
        if (!d.sendOk(k)) {
            throw new RunFailure("completion with error: " + d.describeSend(k) + " after " + totC
                    + " completed work requests");
        }
        int i = (int) d.sendWrId(k);
        long inc = Math.min(b.cqMod(), m.scnt[i] - m.ccnt[i]);
        m.ccnt[i] += inc;
        return inc;
    }

    /**
     * run_iter_bw_server for send_bw: receives were posted before the barrier; re-posts while more messages
     * are due, counts completions, and times the run from the first receive to the last. In duration mode the
     * window is counted from the first receive, and the run ends once the client has stopped sending.
     * The window (or first and last receive) and the count of the window go to {@code m}.
     */
    static void sendServer(DataPath d, BwSpec b, int rxDepth, Measurement m) {
        boolean duration = b.duration();
        long iterations = b.iterations();
        long target = duration ? Long.MAX_VALUE : iterations * d.queuePairs();
        m.reset();
        long[] rcnt = m.rcnt;
        long total = 0;
        long first = 0;
        long lastProgress = d.nanoTime();
        long sampleStart = 0;
        long sampleEnd = 0;
        long sampled = 0;
        int idlePolls = 0;
        while (total < target) {
            int n = d.pollRecvs(DataPath.BATCH);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = d.nanoTime();
            if (n == 0) {
                // The client stopped sending at the end of its duration. Only an idle poll can tell (right after
                // a receive no time has passed since it): checked there, the server ended only at the stall
                // limit, 10 s late, and a Java client's closing handshake (10 s) could give up on it first.
                if (duration && first != 0 && now >= first + b.durationNanos()
                        && now - lastProgress > DURATION_END_QUIET_NANOS) {
                    break;
                }
                if (now - lastProgress > b.stallNanos()) {
                    if (duration && first != 0) {
                        break;
                    }
                    throw new RunFailure("no message for " + (b.stallNanos() / 1_000_000_000L) + " s (" + total
                            + " of " + (duration ? "?" : String.valueOf(target)) + " received): the peer stopped sending");
                }
                continue;
            }
            if (first == 0) {
                first = now;
                sampleStart = now + b.marginNanos();
                sampleEnd = now + b.durationNanos() - b.marginNanos();
            }
            lastProgress = now;
            for (int k = 0; k < n; k++) {
                if (!d.recvOk(k)) {
                    throw new RunFailure("receive completion with error: " + d.describeRecv(k));
                }
                int i = (int) (d.recvWrId(k) >>> 32);
                int slot = (int) d.recvWrId(k);
                rcnt[i]++;
                total++;
                if (duration && now >= sampleStart && now < sampleEnd) {
                    sampled++;
                }
                if (duration || rcnt[i] + rxDepth <= iterations) {
                    d.postRecv(i, slot, 1);
                }
            }
        }
        m.windowStart = duration ? sampleStart : first;
        m.windowEnd = duration ? sampleEnd : d.nanoTime();
        m.counted = sampled;
    }

    /**
     * run_iter_bi for ib_send_bw -b: each side sends its iterations and receives the peer's at once. Receives
     * were posted before the barrier. The server holds its sends back until the first message arrives, so it
     * cannot overrun a client that has not started (perftest's before_first_rx). Sends are timed as in
     * {@link #client}; the run ends when every send has completed and every peer message has arrived.
     */
    static void bidirectionalSend(DataPath d, BwSpec b, boolean server, int rxDepth, Measurement m) {
        long iters = b.iterations();
        long target = iters * d.queuePairs();
        int baseFlags = b.inline() ? SendFlags.INLINE : 0;
        m.reset();
        long totS = 0;
        long totC = 0;
        long totR = 0;
        boolean holdSends = server;
        long lastProgress = d.nanoTime();
        if (b.noPeak()) {
            m.tposted[0] = lastProgress;
        }
        int idlePolls = 0;
        while (totC < target || totR < target) {
            if (!holdSends) {
                totS = postWithinTxDepth(d, b, iters, baseFlags, m, !b.noPeak(), totS, Long.MAX_VALUE);
            }
            int nr = d.pollRecvs(DataPath.BATCH);
            totR += receivedAndReposted(d, nr, iters, rxDepth, m, totR);
            if (nr > 0) {
                holdSends = false;
            }
            int ns = d.pollSends(DataPath.BATCH);
            if (nr == 0 && ns == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = d.nanoTime();
            if (nr > 0 || ns > 0) {
                lastProgress = now;
            } else if (now - lastProgress > b.stallNanos()) {
                throw new RunFailure("no completion for " + (b.stallNanos() / 1_000_000_000L) + " s (" + totC + " of "
                        + target + " sends completed, " + totR + " of " + target
                        + " messages received): the peer or the link stalled");
            }
            for (int k = 0; k < ns; k++) {
                totC += completedBySignal(d, b, k, m, totC);
                if (!b.noPeak()) {
                    m.tcompleted[(int) (totC - 1)] = now;
                }
            }
        }
        if (b.noPeak()) {
            m.tcompleted[0] = d.nanoTime();
        }
    }

    /** Counts {@code n} polled receives and re-posts each while more messages are due; returns {@code n}. */
    private static int receivedAndReposted(DataPath d, int n, long iters, int rxDepth, Measurement m, long totR) {
        for (int k = 0; k < n; k++) {
            if (!d.recvOk(k)) {
                throw new RunFailure("receive completion with error: " + d.describeRecv(k) + " after "
                        + (totR + k) + " received messages");
            }
            int i = (int) (d.recvWrId(k) >>> 32);
            int slot = (int) d.recvWrId(k);
            m.rcnt[i]++;
            if (m.rcnt[i] + rxDepth <= iters) {
                d.postRecv(i, slot, 1);
            }
        }
        return n;
    }
}
