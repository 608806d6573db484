package io.rdmaffm.perftest.engine;

import io.rdmaffm.verbs.SendFlags;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * perftest's latency loops (run_iter_lat_write, run_iter_lat_send, run_iter_lat) and their duration mode,
 * allocation-free: inputs in a {@link LatencySpec}, one timestamp per round trip (or the sample window) into a
 * {@link Measurement}, posts and polls on QP 0 through a {@link DataPath}.
 */
final class LatencyLoops {
    /** The peer's RDMA writes land in memory the JIT must re-read on every spin. */
    private static final VarHandle BYTE = JAVA_BYTE.varHandle();

    private LatencyLoops() {
    }

    /**
     * run_iter_lat_write: ping-pong on the last byte of the message. The server posts first; each side waits
     * until the peer's write has stamped the expected counter into the last byte of its receive area.
     */
    static void write(DataPath d, LatencySpec l, Measurement m) {
        MemorySegment buf = d.memory();
        long postOff = d.sendOffset(0) + l.size() - 1;
        long pollOff = d.recvOffset(0) + l.size() - 1;
        long iters = l.iterations();
        signalEverySend(d, l.inline());
        long scnt = 0;
        long ccnt = 0;
        long rcnt = 0;
        while (scnt < iters || ccnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && l.server())) {
                rcnt++;
                byte expected = (byte) rcnt;
                long spins = 0;
                long since = 0;
                while ((byte) BYTE.getOpaque(buf, pollOff) != expected) {
                    if ((++spins & 0xFFF) == 0) {
                        long now = d.nanoTime();
                        if (since == 0) {
                            since = now;
                        } else if (now - since > l.stallNanos()) {
                            throw new RunFailure("no RDMA write from the peer for " + (l.stallNanos() / 1_000_000_000L)
                                    + " s (after " + (rcnt - 1) + " of " + iters + "): the peer stopped");
                        }
                    }
                }
            }
            if (scnt < iters) {
                gap(d, l.gapNanos());
                m.tposted[(int) scnt] = d.nanoTime();
                buf.set(JAVA_BYTE, postOff, (byte) ++scnt);
                d.postSend(0, 1);
            }
            if (ccnt < iters) {
                awaitSend(d, l, "RDMA write");
                ccnt++;
            }
        }
    }

    /**
     * run_iter_lat_send: the client sends first; each side waits for the peer's message, re-posts a receive
     * while more are due, then sends and waits for its send completion.
     */
    static void send(DataPath d, LatencySpec l, Measurement m) {
        signalEverySend(d, l.inline());
        long iters = l.iterations();
        long scnt = 0;
        long rcnt = 0;
        while (scnt < iters || rcnt < iters) {
            if (rcnt < iters && !(scnt < 1 && !l.server())) {
                int slot = awaitRecv(d, l);
                rcnt++;
                if (rcnt + l.rxDepth() <= iters) {
                    d.postRecv(0, slot, 1);
                }
            }
            if (scnt < iters) {
                gap(d, l.gapNanos());
                m.tposted[(int) scnt] = d.nanoTime();
                scnt++;
                d.postSend(0, 1);
                awaitSend(d, l, "send");
            }
        }
    }

    /** run_iter_lat (read and atomic): post one, wait for it, repeat. */
    static void oneSided(DataPath d, LatencySpec l, Measurement m) {
        signalEverySend(d, false);
        for (long scnt = 0; scnt < l.iterations(); scnt++) {
            gap(d, l.gapNanos());
            m.tposted[(int) scnt] = d.nanoTime();
            d.postSend(0, 1);
            awaitSend(d, l, "operation");
        }
    }

    /** {@link #write} for {@code -D}: ping-pong until the clock ends; a peer that stops ends the wait. */
    static void writeDuration(DataPath d, LatencySpec l, Measurement m) {
        DurationClock clock = new DurationClock(d, l.durationNanos(), l.marginNanos());
        MemorySegment buf = d.memory();
        long postOff = d.sendOffset(0) + l.size() - 1;
        long pollOff = d.recvOffset(0) + l.size() - 1;
        signalEverySend(d, l.inline());
        long scnt = 0;
        long rcnt = 0;
        outer:
        while (true) {
            if (!(scnt < 1 && l.server())) {
                rcnt++;
                byte expected = (byte) rcnt;
                int spins = 0;
                long since = 0;
                while ((byte) BYTE.getOpaque(buf, pollOff) != expected) {
                    if ((++spins & 0xFF) == 0) {
                        long now = d.nanoTime();
                        if (now >= clock.end) {
                            break outer;
                        }
                        // a peer that died mid-run would otherwise hold us until the clock ends
                        if (since == 0) {
                            since = now;
                        } else if (now - since > l.stallNanos()) {
                            throw stalled(l, "peer RDMA write");
                        }
                    }
                }
            }
            gap(d, l.gapNanos());
            buf.set(JAVA_BYTE, postOff, (byte) ++scnt);
            d.postSend(0, 1);
            if (!clock.tick()) {
                break;
            }
            awaitSend(d, l, "RDMA write");
        }
        clock.report(m);
    }

    /** {@link #send} for {@code -D}: receives are always re-posted; the clock ends the run. */
    static void sendDuration(DataPath d, LatencySpec l, Measurement m) {
        DurationClock clock = new DurationClock(d, l.durationNanos(), l.marginNanos());
        signalEverySend(d, l.inline());
        long scnt = 0;
        outer:
        while (true) {
            if (!(scnt < 1 && !l.server())) {
                int spins = 0;
                long since = 0;
                while (d.pollRecvs(1) == 0) {
                    if ((++spins & 0xFF) == 0) {
                        long now = d.nanoTime();
                        if (now >= clock.end) {
                            break outer;
                        }
                        if (since == 0) {
                            since = now;
                        } else if (now - since > l.stallNanos()) {
                            throw stalled(l, "receive");
                        }
                    }
                }
                if (!d.recvOk(0)) {
                    throw new RunFailure("receive completion with error: " + d.describeRecv(0));
                }
                d.postRecv(0, (int) d.recvWrId(0), 1);
                if (!clock.tick()) {
                    break;
                }
            }
            gap(d, l.gapNanos());
            scnt++;
            d.postSend(0, 1);
            awaitSend(d, l, "send");
        }
        clock.report(m);
    }

    /** {@link #oneSided} for {@code -D}. */
    static void oneSidedDuration(DataPath d, LatencySpec l, Measurement m) {
        DurationClock clock = new DurationClock(d, l.durationNanos(), l.marginNanos());
        signalEverySend(d, false);
        do {
            gap(d, l.gapNanos());
            d.postSend(0, 1);
            awaitSend(d, l, "operation");
        } while (clock.tick());
        clock.report(m);
    }

    /** {@code --latency_gap}: spins on the loop's clock for {@code nanos}, as perftest spins on its cycle counter. */
    static void gap(DataPath d, long nanos) {
        if (nanos > 0) {
            long end = d.nanoTime() + nanos;
            while (d.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    /** QP 0's prepared request, every post signaled (latency loops wait for each completion). */
    private static void signalEverySend(DataPath d, boolean inline) {
        d.sendFlags(0, 0, SendFlags.SIGNALED | (inline ? SendFlags.INLINE : 0));
    }

    /** Busy-polls (or waits for events) until the one outstanding send completes. */
    private static void awaitSend(DataPath d, LatencySpec l, String what) {
        long since = 0;
        int spins = 0;
        while (true) {
            if (d.pollSends(1) > 0) {
                if (!d.sendOk(0)) {
                    throw new RunFailure(what + " completion with error: " + d.describeSend(0));
                }
                return;
            }
            if ((++spins & 0x3FF) == 0) {
                long now = d.nanoTime();
                if (since == 0) {
                    since = now;
                } else if (now - since > l.stallNanos()) {
                    throw stalled(l, what);
                }
            }
        }
    }

    /** Busy-polls (or waits for events) until the peer's next message; returns its receive slot. */
    private static int awaitRecv(DataPath d, LatencySpec l) {
        long since = 0;
        int spins = 0;
        while (true) {
            if (d.pollRecvs(1) > 0) {
                if (!d.recvOk(0)) {
                    throw new RunFailure("receive completion with error: " + d.describeRecv(0));
                }
                return (int) d.recvWrId(0);
            }
            if ((++spins & 0x3FF) == 0) {
                long now = d.nanoTime();
                if (since == 0) {
                    since = now;
                } else if (now - since > l.stallNanos()) {
                    throw stalled(l, "receive");
                }
            }
        }
    }

    /**
     * The stall limit's failure. Each waiting loop runs its stall clock inline, not in a method: on a QP connected
     * to itself the warm-up seldom waits, so such a method, inlined wherever the warm-up did reach it, stayed at a
     * low tier on its own and compiled in the measured window when a compiled loop called it at a site the
     * warm-up never took (ib_send_lat -D, 3 of 4 runs in the Soft-RoCE VM).
     */
    private static RunFailure stalled(LatencySpec l, String what) {
        return new RunFailure("no " + what + " completion for " + (l.stallNanos() / 1_000_000_000L)
                + " s: the peer or the link stalled");
    }

    /**
     * Duration mode ({@code -D}) of the latency loops: perftest's alarm states as deadlines. Each side runs on
     * its own clock: after {@code margin} it starts counting completed round trips, at {@code duration - margin}
     * it stops counting, at {@code duration} it stops, even while waiting for the peer, whose clock ends at
     * about the same time.
     */
    static final class DurationClock {
        private final DataPath d;
        private final long sampleStart;
        private final long sampleEnd;
        /**
         * When the run is over. The loops read it themselves where they wait: a method for it would be called only
         * there, where a loop on a QP connected to itself never waits, and would compile in the measured window.
         */
        final long end;
        private long sampled;
        private long sampledAt;
        private long stoppedAt;
        private boolean sampling;

        DurationClock(DataPath d, long durationNanos, long marginNanos) {
            this.d = d;
            long start = d.nanoTime();
            sampleStart = start + marginNanos;
            sampleEnd = start + durationNanos - marginNanos;
            end = start + durationNanos;
        }

        /** Counts one round trip if inside the sample window; false once the run is over. */
        boolean tick() {
            long now = d.nanoTime();
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

        /** The window and the round trips counted in it. */
        void report(Measurement m) {
            m.windowStart = sampledAt;
            m.windowEnd = stoppedAt != 0 ? stoppedAt : Math.min(d.nanoTime(), sampleEnd);
            m.counted = sampled;
        }
    }
}
