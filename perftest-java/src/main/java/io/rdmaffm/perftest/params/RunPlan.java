package io.rdmaffm.perftest.params;

import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Verb;

import java.util.ArrayList;
import java.util.List;

/**
 * What a run does once the device is known, derived from the parameters and the device's facts by
 * {@link #derive}, a pure function: the message sizes measured, the queue depths, CQ moderation, outstanding
 * reads and inline size perftest would choose, and the MTU this side proposes.
 *
 * @param sizes      the message sizes measured, in order (one, or every power of two with {@code -a}; UD keeps
 *                   only those within the MTU): the only list of sizes a run uses. Before the MTU exchange the
 *                   sizes asked for (on UD {@code -a} stops at this side's MTU); {@link #agreed} applies
 *                   perftest's UD rule at the MTU both sides settled on
 * @param mtu        this side's MTU as {@code enum ibv_mtu} ({@link #derive}), or the one both sides settled on
 *                   (the smaller: {@link #agreed})
 * @param txDepth    send queue depth (at most the iterations in iteration mode)
 * @param rxDepth    receive queue depth
 * @param cqMod      signal every cqMod-th send
 * @param outReads   outstanding reads and atomics (1 for the other verbs)
 * @param inlineSize inline data size (0 for read and atomic)
 */
public record RunPlan(List<Long> sizes, int mtu, int txDepth, int rxDepth, int cqMod, int outReads, int inlineSize) {
    /** The global routing header in front of every UD receive. */
    public static final int GRH_BYTES = 40;
    /** {@code -a}: every power of two from 2 B to 8 MiB. */
    static final int ALL_SIZES = 23;
    /** The size perftest sets for {@code -a} (MAX_SIZE) before its sweep: what its UD rule compares. */
    static final long ALL_SIZES_MAX = 1L << ALL_SIZES;

    /** Copies the sizes. */
    public RunPlan {
        sizes = List.copyOf(sizes);
    }

    /**
     * The plan of {@code p} on a device with {@code d}'s facts.
     *
     * @throws IllegalArgumentException when the sizes do not fit the device (over the port's maximum message
     *                                  size); UD's MTU rule waits for the MTU both sides agree on ({@link #agreed})
     */
    public static RunPlan derive(RunParameters p, DeviceFacts d) {
        RunParameters.Workload w = p.workload();
        Connection c = p.endpoint().connection();
        int mtu = p.endpoint().mtuBytes() > 0 ? Math.min(mtuEnum(p.endpoint().mtuBytes()), d.activeMtu())
                : d.activeMtu();
        List<Long> sizes = sizes(w, c, mtuBytes(mtu));
        long largest = sizes.stream().mapToLong(Long::longValue).max().orElse(0);
        if (largest > d.portMaxMessageSize()) {
            throw new IllegalArgumentException("message size " + largest + " exceeds the port's maximum of "
                    + d.portMaxMessageSize());
        }
        Verb verb = p.verb();
        boolean bw = p.tool().bandwidth();
        int tx = w.duration() ? w.txDepth() : (int) Math.min(w.txDepth(), w.iterations());
        int rx = w.rxDepth();
        if (verb == Verb.SEND) {
            if (!w.duration()) {
                rx = (int) Math.min(rx, w.iterations());
            }
            if (c != Connection.RC && w.rxDepth() == 512) {
                rx = (int) Math.min(w.iterations(), 16000);
            }
        }
        int cqMod = w.cqModeration() > 0 ? w.cqModeration() : ParameterRules.DEFAULT_CQ_MODERATION;
        if (w.cqModeration() == 0) {
            if (w.postList() > 1) {
                cqMod = w.postList();
            } else if (w.size() > 8192 && c != Connection.UD && !w.allSizes() && !w.useEvents()) {
                cqMod = 1;
            }
        }
        cqMod = bw ? Math.max(1, Math.min(cqMod, tx)) : 1;
        boolean reads = verb == Verb.READ || verb == Verb.ATOMIC;
        int outReads = !reads ? 1 : w.outstandingReads() > 0 ? Math.min(w.outstandingReads(), d.maxQpRdAtom())
                : d.maxQpRdAtom();
        return new RunPlan(sizes, mtu, tx, rx, cqMod, outReads, inline(p, d, reads));
    }

    /**
     * This plan at {@code agreedMtu}, the MTU both sides settled on in the exchange (perftest's check_mtu): on UD
     * a message larger than the MTU shrinks to it with perftest's two stderr lines when the size was not given
     * ({@code -a}, or no {@code -s}), and {@code -a}'s sweep stops at it; a given {@code -s} larger than it is
     * refused with perftest's line. The other connections keep their sizes.
     *
     * @throws InvalidParameterException when {@code -s} was given on UD and exceeds the agreed MTU
     */
    public Agreed agreed(RunParameters p, int agreedMtu) {
        RunParameters.Workload w = p.workload();
        long mtuBytes = mtuBytes(agreedMtu);
        long asked = w.allSizes() ? ALL_SIZES_MAX : w.size();
        List<Long> agreedSizes = sizes;
        String notice = null;
        if (p.endpoint().connection() == Connection.UD && asked > mtuBytes) {
            if (!w.allSizes() && w.sizeGiven()) {
                throw new InvalidParameterException("Max message size in UD cannot be greater than MTU (-s " + asked
                        + ", MTU " + mtuBytes + " bytes as agreed with the peer)");
            }
            notice = " Max msg size in UD is MTU " + mtuBytes + "\n Changing to this MTU\n";
            List<Long> within = new ArrayList<>();
            for (long s : sizes) {
                if (s <= mtuBytes) {
                    within.add(s);
                }
            }
            agreedSizes = w.allSizes() ? within : List.of(mtuBytes);
        }
        return new Agreed(new RunPlan(agreedSizes, agreedMtu, txDepth, rxDepth, cqMod, outReads, inlineSize), notice);
    }

    /**
     * A plan at the agreed MTU.
     *
     * @param plan   the plan the run uses
     * @param notice perftest's stderr lines when UD's size shrank to the MTU (each ending in a newline), or null
     */
    public record Agreed(RunPlan plan, String notice) {
    }

    private static List<Long> sizes(RunParameters.Workload w, Connection c, long mtuBytes) {
        List<Long> sizes = new ArrayList<>();
        if (!w.allSizes()) {
            sizes.add(w.size());
        } else {
            for (int i = 0; i < ALL_SIZES; i++) {
                long s = 2L << i;
                if (c != Connection.UD || s <= mtuBytes) {
                    sizes.add(s);
                }
            }
        }
        return sizes;
    }

    /** perftest's inline size: {@code -I}, else its own choice on Mellanox latency runs, else none. */
    private static int inline(RunParameters p, DeviceFacts d, boolean reads) {
        if (reads) {
            return 0;
        }
        if (p.workload().inlineSize() >= 0) {
            return p.workload().inlineSize();
        }
        if (d.vendorId() == DeviceFacts.MELLANOX_VENDOR && !p.tool().bandwidth()) {
            return p.verb() == Verb.WRITE ? 220 : p.endpoint().connection() == Connection.UD ? 188 : 236;
        }
        return 0;
    }

    /** The largest size measured: what the buffers are sized for. */
    public long largestSize() {
        long m = 0;
        for (long s : sizes) {
            m = Math.max(m, s);
        }
        return m;
    }

    /** Size number {@code index}. */
    public long size(int index) {
        return sizes.get(index);
    }

    /**
     * The stride of the buffer: one slot per QP and direction, the largest message (plus the GRH for UD) rounded
     * to at least a page and up to whole cache lines, with the page and line sizes both sides settled on.
     */
    public long slot(boolean ud, int pageSize, int cacheLineSize) {
        long buf = Math.max(largestSize() + (ud ? GRH_BYTES : 0), pageSize);
        return ((buf + cacheLineSize - 1) / cacheLineSize) * cacheLineSize;
    }

    /** Bytes of an {@code enum ibv_mtu} value (1 = 256 .. 5 = 4096). */
    public static int mtuBytes(int mtuEnum) {
        return 128 << mtuEnum;
    }

    /** The {@code enum ibv_mtu} value of 256, 512, 1024, 2048 or 4096 bytes. */
    static int mtuEnum(int bytes) {
        return Integer.numberOfTrailingZeros(bytes) - 7;
    }
}
