package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.AddressHandle;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * perftest's measured loops (run_iter_bw, run_iter_bw_server, run_iter_lat_write, run_iter_lat_send,
 * run_iter_lat), allocation-free: every array they write is passed in, timestamps are System.nanoTime,
 * work requests and completion arrays are preallocated in the {@link Side}. Figures are computed after the
 * loop from the timestamps. Each loop ends within the stall limit when the peer stops making progress,
 * and a failed completion ends it with the completion's status.
 */
final class Loops {
    private Loops() {
    }

    /** The peer's RDMA writes land in memory the JIT must re-read on every spin. */
    private static final VarHandle BYTE = JAVA_BYTE.varHandle();

    /** What the bandwidth client loop needs to know beyond the Side. */
    static final class BwSpec {
        SendOpcode opcode;
        long size;
        long iterations;
        int txDepth;
        int cqMod;
        int postList;
        boolean inline;
        boolean noPeak;
        /** UD only. */
        AddressHandle[] ah;
        int[] remoteQpn;
        int qkey;
        /** Duration mode: nanos of margin and of the whole run, 0 for iteration mode. */
        long marginNanos;
        long durationNanos;
        /** Results of duration mode: completions in the sampling window and its start/end. */
        long sampled;
        long sampleStart;
        long sampleEnd;
    }

    /** Work requests of QP i for every post of this run: opcode, local buffer, remote target. */
    /**
     * The bandwidth loops read the clock on every completion but only on every 64th empty poll (for the stall
     * limit and the duration states): where the clocksource is not the TSC (a VM: HPET), each read is a
     * system call, and reading it on every empty poll slowed the loop by the same order as the work itself.
     */
    private static final int IDLE_CLOCK_MASK = 63;

    static void prepareSends(Side s, BwSpec b) {
        for (int i = 0; i < s.qps.length; i++) {
            SendWorkRequests wrs = s.sendWrs[i];
            for (int j = 0; j < wrs.size(); j++) {
                SendWorkRequests.Request r = wrs.get(j).wrId(i).opcode(b.opcode)
                        .sge(0, s.localSend[i], (int) b.size, s.mr.lkey()).numSge(b.size == 0 ? 0 : 1);
                switch (b.opcode) {
                    case RDMA_WRITE, RDMA_WRITE_WITH_IMM, RDMA_READ -> r.rdma(s.remoteAddr[i], s.remoteRkey[i]);
                    case ATOMIC_FETCH_AND_ADD -> r.atomic(s.remoteAddr[i], s.remoteRkey[i], 1, 0);
                    case ATOMIC_CMP_AND_SWP -> r.atomic(s.remoteAddr[i], s.remoteRkey[i], 0, 0);
                    default -> {
                        if (b.ah != null) {
                            r.ud(b.ah[i], b.remoteQpn[i], b.qkey);
                        }
                    }
                }
            }
        }
    }

    /**
     * run_iter_bw: keeps up to tx_depth work requests in flight per QP, signals every cq_mod-th (and the
     * last), and records tposted per post and tcompleted per counted completion.
     */
    static void bwClient(Side s, BwSpec b, long[] scnt, long[] ccnt, long[] tposted, long[] tcompleted) {
        int q = s.qps.length;
        boolean duration = b.durationNanos > 0;
        long iters = duration ? Long.MAX_VALUE : b.iterations;
        long totalTarget = duration ? Long.MAX_VALUE : iters * q;
        int baseFlags = b.inline ? SendFlags.INLINE : 0;
        for (int i = 0; i < q; i++) {
            scnt[i] = 0;
            ccnt[i] = 0;
        }
        long totS = 0;
        long totC = 0;
        long start = System.nanoTime();
        long sampleStart = start + b.marginNanos;
        long sampleEnd = start + b.durationNanos - b.marginNanos;
        long end = start + b.durationNanos;
        boolean sampling = false;
        boolean stopPosting = false;
        long signaledTarget = 0;
        long sampled = 0;
        long lastProgress = start;
        Completions wc = s.sendWc;
        int idlePolls = 0;
        if (!duration && b.noPeak) {
            tposted[0] = start;
        }
        while (true) {
            if (!stopPosting) {
                totS = postWithinTxDepth(s, b, iters, baseFlags, scnt, ccnt, !duration && !b.noPeak ? tposted : null,
                        totS);
            }
            int n = s.poll(s.sendCq, wc);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = System.nanoTime();
            if (n > 0) {
                lastProgress = now;
                for (int k = 0; k < n; k++) {
                    long inc = completedBySignal(b, wc, k, scnt, ccnt, totC);
                    totC += inc;
                    if (sampling) {
                        sampled += inc;
                    }
                    if (!duration && !b.noPeak) {
                        tcompleted[(int) (totC - 1)] = now;
                    }
                }
            } else if (now - lastProgress > s.stallNanos) {
                throw new RunFailure("no completion for " + (s.stallNanos / 1_000_000_000L) + " s ("
                        + totC + " of " + (duration ? "?" : String.valueOf(totalTarget))
                        + " work requests completed): the peer or the link stalled");
            }
            if (duration) {
                if (!sampling && !stopPosting && now >= sampleStart && now < sampleEnd) {
                    sampling = true;
                    b.sampleStart = now;
                } else if (sampling && now >= sampleEnd) {
                    sampling = false;
                    b.sampleEnd = now;
                    b.sampled = sampled;
                }
                if (now >= end && !stopPosting) {
                    stopPosting = true;
                    signaledTarget = signaledWorkRequests(scnt, b.cqMod);
                }
                if (stopPosting && totC >= signaledTarget) {
                    break;
                }
            } else if (totC >= totalTarget) {
                break;
            }
        }
        if (!duration && b.noPeak) {
            tcompleted[0] = System.nanoTime();
        }
    }

    /**
     * Posts on every QP while it has iterations left and room under tx_depth, signaling every cq_mod-th work
     * request and the last; stamps each post into {@code tposted} unless it is null. Returns the new total posted.
     */
    private static long postWithinTxDepth(Side s, BwSpec b, long iters, int baseFlags, long[] scnt, long[] ccnt,
                                          long[] tposted, long totS) {
        for (int i = 0; i < s.qps.length; i++) {
            while (scnt[i] < iters && scnt[i] - ccnt[i] + b.postList <= b.txDepth) {
                SendWorkRequests wrs = s.sendWrs[i];
                for (int j = 0; j < b.postList; j++) {
                    long n = scnt[i] + j;
                    boolean signaled = n % b.cqMod == b.cqMod - 1 || n == iters - 1;
                    wrs.get(j).flags(signaled ? baseFlags | SendFlags.SIGNALED : baseFlags);
                }
                if (tposted != null) {
                    tposted[(int) totS] = System.nanoTime();
                }
                s.qps[i].postSend(wrs, b.postList);
                scnt[i] += b.postList;
                totS += b.postList;
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
    private static long completedBySignal(BwSpec b, Completions wc, int k, long[] scnt, long[] ccnt, long totC) {
        if (!wc.isSuccess(k)) {
            throw new RunFailure("completion with error: " + wc.describe(k) + " after " + totC
                    + " completed work requests");
        }
        int i = (int) wc.wrId(k);
        long inc = Math.min(b.cqMod, scnt[i] - ccnt[i]);
        ccnt[i] += inc;
        return inc;
    }

    /**
     * run_iter_bw_server for send_bw: receives were posted before the barrier; re-posts while more messages
     * are due, counts completions, and times the run from the first receive to the last.
     * Returns {first, last} nanos in {@code times}.
     */
    static void bwSendServer(Side s, long iterations, int rxDepth, long[] rcnt, long[] times, long durationNanos,
                             long marginNanos, long[] sampledOut) {
        int q = s.qps.length;
        boolean duration = durationNanos > 0;
        for (int i = 0; i < q; i++) {
            rcnt[i] = 0;
        }
        long total = 0;
        long target = duration ? Long.MAX_VALUE : iterations * q;
        long first = 0;
        long lastProgress = System.nanoTime();
        long sampleStart = 0;
        long sampleEnd = 0;
        long sampled = 0;
        Completions wc = s.recvWc;
        int idlePolls = 0;
        while (total < target) {
            int n = s.poll(s.recvCq, wc);
            if (n == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = System.nanoTime();
            if (n == 0) {
                if (now - lastProgress > s.stallNanos) {
                    if (duration && first != 0) {
                        break; // the client stopped sending at the end of its duration
                    }
                    throw new RunFailure("no message for " + (s.stallNanos / 1_000_000_000L) + " s (" + total + " of "
                            + target + " received): the peer stopped sending");
                }
                continue;
            }
            if (first == 0) {
                first = now;
                sampleStart = now + marginNanos;
                sampleEnd = now + durationNanos - marginNanos;
            }
            lastProgress = now;
            for (int k = 0; k < n; k++) {
                if (!wc.isSuccess(k)) {
                    throw new RunFailure("receive completion with error: " + wc.describe(k));
                }
                int i = (int) (wc.wrId(k) >>> 32);
                int slot = (int) wc.wrId(k);
                rcnt[i]++;
                total++;
                if (duration && now >= sampleStart && now < sampleEnd) {
                    sampled++;
                }
                if (duration || rcnt[i] + rxDepth <= iterations) {
                    s.qps[i].postRecv(s.recvWrs[i], slot, 1);
                }
            }
            if (duration && now >= first + durationNanos && now - lastProgress > 200_000_000L) {
                break;
            }
        }
        times[0] = duration ? sampleStart : first;
        times[1] = duration ? sampleEnd : System.nanoTime();
        sampledOut[0] = sampled;
    }

    /**
     * run_iter_bi for ib_send_bw -b: each side sends its iterations and receives the peer's at once. Receives
     * were posted before the barrier. The server holds its sends back until the first message arrives, so it
     * cannot overrun a client that has not started (perftest's before_first_rx). Sends are timed as in
     * {@link #bwClient}; the run ends when every send has completed and every peer message has arrived.
     */
    static void bwBidirectionalSend(Side s, BwSpec b, boolean server, int rxDepth, long[] scnt, long[] ccnt,
                                    long[] rcnt, long[] tposted, long[] tcompleted) {
        int q = s.qps.length;
        long iters = b.iterations;
        long target = iters * q;
        int baseFlags = b.inline ? SendFlags.INLINE : 0;
        for (int i = 0; i < q; i++) {
            scnt[i] = 0;
            ccnt[i] = 0;
            rcnt[i] = 0;
        }
        long totS = 0;
        long totC = 0;
        long totR = 0;
        boolean holdSends = server;
        long lastProgress = System.nanoTime();
        if (b.noPeak) {
            tposted[0] = lastProgress;
        }
        Completions swc = s.sendWc;
        Completions rwc = s.recvWc;
        int idlePolls = 0;
        while (totC < target || totR < target) {
            if (!holdSends) {
                totS = postWithinTxDepth(s, b, iters, baseFlags, scnt, ccnt, b.noPeak ? null : tposted, totS);
            }
            int nr = s.poll(s.recvCq, rwc);
            for (int k = 0; k < nr; k++) {
                if (!rwc.isSuccess(k)) {
                    throw new RunFailure("receive completion with error: " + rwc.describe(k) + " after " + totR
                            + " received messages");
                }
                int i = (int) (rwc.wrId(k) >>> 32);
                int slot = (int) rwc.wrId(k);
                rcnt[i]++;
                totR++;
                if (rcnt[i] + rxDepth <= iters) {
                    s.qps[i].postRecv(s.recvWrs[i], slot, 1);
                }
            }
            if (nr > 0) {
                holdSends = false;
            }
            int ns = s.poll(s.sendCq, swc);
            if (nr == 0 && ns == 0 && (++idlePolls & IDLE_CLOCK_MASK) != 0) {
                continue;
            }
            long now = System.nanoTime();
            if (nr > 0 || ns > 0) {
                lastProgress = now;
            } else if (now - lastProgress > s.stallNanos) {
                throw new RunFailure("no completion for " + (s.stallNanos / 1_000_000_000L) + " s (" + totC + " of "
                        + target + " sends completed, " + totR + " of " + target
                        + " messages received): the peer or the link stalled");
            }
            for (int k = 0; k < ns; k++) {
                totC += completedBySignal(b, swc, k, scnt, ccnt, totC);
                if (!b.noPeak) {
                    tcompleted[(int) (totC - 1)] = now;
                }
            }
        }
        if (b.noPeak) {
            tcompleted[0] = System.nanoTime();
        }
    }

    /** Posts the initial receives of QP i: rxDepth entries, wr_id = (qp << 32) | slot. */
    static void postReceives(Side s, int rxDepth, int recvBytes) {
        for (int i = 0; i < s.qps.length; i++) {
            for (int slot = 0; slot < rxDepth; slot++) {
                s.recvWrs[i].setRaw(slot, ((long) i << 32) | slot, s.localRecv[i], recvBytes, s.mr.lkey());
            }
            s.qps[i].postRecv(s.recvWrs[i], 0, rxDepth);
        }
    }

    /**
     * run_iter_lat_write: ping-pong on the last byte of the message. The server posts first; each side waits
     * until the peer's write has stamped the expected counter into the last byte of its receive area.
     */
    static void writeLatency(Side s, long size, long iters, boolean server, boolean inline, long[] tposted) {
        MemorySegment buf = s.mr.segment();
        long postOff = lastByteOffset(s, s.localSend[0], size);
        long pollOff = lastByteOffset(s, s.localRecv[0], size);
        SendWorkRequests wrs = signaledSend(s, inline);
        Completions wc = s.sendOne;
        long scnt = 0;
        long ccnt = 0;
        long rcnt = 0;
        while (scnt < iters || ccnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && server)) {
                rcnt++;
                byte expected = (byte) rcnt;
                long spins = 0;
                long since = 0;
                while ((byte) BYTE.getOpaque(buf, pollOff) != expected) {
                    if ((++spins & 0xFFF) == 0) {
                        long now = System.nanoTime();
                        if (since == 0) {
                            since = now;
                        } else if (now - since > s.stallNanos) {
                            throw new RunFailure("no RDMA write from the peer for " + (s.stallNanos / 1_000_000_000L)
                                    + " s (after " + (rcnt - 1) + " of " + iters + "): the peer stopped");
                        }
                    }
                }
            }
            if (scnt < iters) {
                tposted[(int) scnt] = System.nanoTime();
                buf.set(JAVA_BYTE, postOff, (byte) ++scnt);
                s.qps[0].postSend(wrs, 1);
            }
            if (ccnt < iters) {
                awaitOne(s, s.sendCq, wc, "RDMA write");
                ccnt++;
            }
        }
    }

    /**
     * run_iter_lat_send: the client sends first; each side waits for the peer's message, re-posts a receive
     * while more are due, then sends and waits for its send completion.
     */
    static void sendLatency(Side s, long iters, int rxDepth, boolean server, boolean inline, long[] tposted) {
        SendWorkRequests wrs = signaledSend(s, inline);
        long scnt = 0;
        long rcnt = 0;
        while (scnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && !server)) {
                int slot = awaitOne(s, s.recvCq, s.recvOne, "receive");
                rcnt++;
                if (rcnt + rxDepth <= iters) {
                    s.qps[0].postRecv(s.recvWrs[0], slot, 1);
                }
            }
            if (scnt < iters) {
                tposted[(int) scnt] = System.nanoTime();
                scnt++;
                s.qps[0].postSend(wrs, 1);
                awaitOne(s, s.sendCq, s.sendOne, "send");
            }
        }
    }

    /** run_iter_lat (read and atomic): post one, wait for it, repeat. */
    static void oneSidedLatency(Side s, long iters, long[] tposted) {
        SendWorkRequests wrs = s.sendWrs[0];
        wrs.get(0).flags(SendFlags.SIGNALED);
        for (long scnt = 0; scnt < iters; scnt++) {
            tposted[(int) scnt] = System.nanoTime();
            s.qps[0].postSend(wrs, 1);
            awaitOne(s, s.sendCq, s.sendOne, "operation");
        }
    }

    /**
     * Duration mode ({@code -D}) of the latency loops: perftest's alarm states as deadlines. Each side runs on
     * its own clock: after {@code margin} it starts counting completed round trips (sample[0] = start), at
     * {@code duration - margin} it stops counting (sample[1] = end, sample[2] = count), at {@code duration} it
     * stops, even while waiting for the peer, whose clock ends at about the same time.
     */
    static final class Clock {
        final long start;
        final long sampleStart;
        final long sampleEnd;
        final long end;
        long sampled;
        long sampledAt;
        long stoppedAt;
        boolean sampling;

        Clock(long durationNanos, long marginNanos) {
            start = System.nanoTime();
            sampleStart = start + marginNanos;
            sampleEnd = start + durationNanos - marginNanos;
            end = start + durationNanos;
        }

        /** Counts one round trip if inside the sample window; false once the run is over. */
        boolean tick() {
            long now = System.nanoTime();
            if (now >= sampleStart && now < sampleEnd) {
                if (!sampling) {
                    sampling = true;
                    sampledAt = now;
                }
                sampled++;
            } else if (sampling && now >= sampleEnd) {
                sampling = false;
                stoppedAt = now;
            }
            return now < end;
        }

        boolean over() {
            return System.nanoTime() >= end;
        }

        /** [sample start, sample end, round trips counted]. */
        void report(long[] sample) {
            sample[0] = sampledAt;
            sample[1] = stoppedAt != 0 ? stoppedAt : Math.min(System.nanoTime(), sampleEnd);
            sample[2] = sampled;
        }
    }

    /** {@link #writeLatency} for {@code -D}: ping-pong until the clock ends; a peer that stops ends the wait. */
    static void writeLatencyDuration(Side s, long size, boolean server, boolean inline, Clock clock, long[] sample) {
        MemorySegment buf = s.mr.segment();
        long postOff = lastByteOffset(s, s.localSend[0], size);
        long pollOff = lastByteOffset(s, s.localRecv[0], size);
        SendWorkRequests wrs = signaledSend(s, inline);
        long scnt = 0;
        long rcnt = 0;
        outer:
        while (true) {
            if (!(scnt < 1 && server)) {
                rcnt++;
                byte expected = (byte) rcnt;
                int spins = 0;
                while ((byte) BYTE.getOpaque(buf, pollOff) != expected) {
                    if ((++spins & 0xFF) == 0 && clock.over()) {
                        break outer;
                    }
                }
            }
            buf.set(JAVA_BYTE, postOff, (byte) ++scnt);
            s.qps[0].postSend(wrs, 1);
            if (!clock.tick()) {
                break;
            }
            awaitOne(s, s.sendCq, s.sendOne, "RDMA write");
        }
        clock.report(sample);
    }

    /** {@link #sendLatency} for {@code -D}: receives are always re-posted; the clock ends the run. */
    static void sendLatencyDuration(Side s, boolean server, boolean inline, Clock clock, long[] sample) {
        SendWorkRequests wrs = signaledSend(s, inline);
        long scnt = 0;
        outer:
        while (true) {
            if (!(scnt < 1 && !server)) {
                int spins = 0;
                while (s.poll(s.recvCq, s.recvOne) == 0) {
                    if ((++spins & 0xFF) == 0 && clock.over()) {
                        break outer;
                    }
                }
                if (!s.recvOne.isSuccess(0)) {
                    throw new RunFailure("receive completion with error: " + s.recvOne.describe(0));
                }
                s.qps[0].postRecv(s.recvWrs[0], (int) s.recvOne.wrId(0), 1);
                if (!clock.tick()) {
                    break;
                }
            }
            scnt++;
            s.qps[0].postSend(wrs, 1);
            awaitOne(s, s.sendCq, s.sendOne, "send");
        }
        clock.report(sample);
    }

    /** {@link #oneSidedLatency} for {@code -D}. */
    static void oneSidedLatencyDuration(Side s, Clock clock, long[] sample) {
        SendWorkRequests wrs = s.sendWrs[0];
        wrs.get(0).flags(SendFlags.SIGNALED);
        do {
            s.qps[0].postSend(wrs, 1);
            awaitOne(s, s.sendCq, s.sendOne, "operation");
        } while (clock.tick());
        clock.report(sample);
    }

    /** The offset in the MR of the last byte of a {@code size}-byte message at {@code address}. */
    private static long lastByteOffset(Side s, long address, long size) {
        return address - s.mr.address() + size - 1;
    }

    /** QP 0's prepared request, every post signaled (latency loops wait for each completion). */
    private static SendWorkRequests signaledSend(Side s, boolean inline) {
        SendWorkRequests wrs = s.sendWrs[0];
        wrs.get(0).flags(SendFlags.SIGNALED | (inline ? SendFlags.INLINE : 0));
        return wrs;
    }

    /** Busy-polls (or waits for events) until one completion; returns the low 32 bits of its wr_id. */
    static int awaitOne(Side s, io.rdmaffm.verbs.CompletionQueue cq, Completions wc, String what) {
        long since = 0;
        int spins = 0;
        while (true) {
            int n = s.poll(cq, wc);
            if (n > 0) {
                if (!wc.isSuccess(0)) {
                    throw new RunFailure(what + " completion with error: " + wc.describe(0));
                }
                return (int) wc.wrId(0);
            }
            if ((++spins & 0x3FF) == 0) {
                long now = System.nanoTime();
                if (since == 0) {
                    since = now;
                } else if (now - since > s.stallNanos) {
                    throw new RunFailure("no " + what + " completion for " + (s.stallNanos / 1_000_000_000L)
                            + " s: the peer or the link stalled");
                }
            }
        }
    }
}
