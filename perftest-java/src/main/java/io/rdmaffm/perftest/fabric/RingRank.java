package io.rdmaffm.perftest.fabric;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT_UNALIGNED;

import java.lang.foreign.MemorySegment;

/**
 * One rank of a ring collective (docs/fabric-design.md §5), over any {@link RingLinks}: the index arithmetic, the
 * credits of the two staging slots, the float32 add and the {@code #wrong} check, the same on RDMA and in the
 * host tests' in-memory ring.
 *
 * <p>Reduce-scatter, step s: write chunk (r - s) mod N (from the input at s = 0, the output later) into the next
 * rank's staging slot g mod 2 (g counts reduce-scatter steps over all iterations, so credits carry across them);
 * then wait for the previous rank's write of the same step, add its slot to input chunk (r - s - 1) into output
 * chunk (r - s - 1), and give the slot back (a credit). A slot is written only after its credit came back. After
 * N - 1 steps rank r holds the reduced chunk (r + 1) mod N.
 *
 * <p>All-gather, step s: write the output chunk (o - s) mod N, o the chunk the rank owns ((r + 1) after a
 * reduce-scatter, r alone), straight into the same place of the next rank's output. Before it, each rank tells
 * its previous one it is ready (its own sends are done, so chunks it still reads from cannot be overwritten), and
 * waits for the next rank's ready.
 *
 * <p>With {@code --threads T} a rank runs T of these, one per lane (docs/fabric-design.md §11): lane t owns the
 * same share of every chunk ({@code slice}: its offset and length inside a chunk), over its own QPs to the same
 * two neighbours. Each lane is a whole ring collective of its own on its own bytes of the input, the output and
 * the staging slots, with its own credits, so the lanes never wait on one another inside an iteration.
 */
final class RingRank implements LaneWork {
    static final int RS_DATA = 1;
    static final int AG_DATA = 2;
    static final int CREDIT = 3;
    static final int READY = 4;

    private final int rank;
    private final int n;
    private final FabricPattern pattern;
    private final boolean reduce;
    private final RingLayout layout;
    private final MemorySegment mem;
    private final RingLinks links;
    /** This lane's part of every chunk: from {@code sliceOffset}, {@code sliceBytes} long (multiples of 4). */
    private final long sliceOffset;
    private final long sliceBytes;
    private long rsSteps;
    private long credits;
    /** Per step of an iteration, summed over the timed ones: waiting for the previous rank's data. */
    private final long[] waitNanos;
    /** Per step, summed over the timed ones: held on the sending side (credit or "ready", posting, completions). */
    private final long[] sendNanos;
    private boolean timed;

    /** The whole of every chunk (one lane). */
    RingRank(int rank, FabricPattern pattern, boolean reduce, RingLayout layout, MemorySegment mem, RingLinks links) {
        this(rank, pattern, reduce, layout, mem, links, 0, layout.chunk());
    }

    /** One lane: {@code sliceBytes} from {@code sliceOffset} of every chunk. */
    RingRank(int rank, FabricPattern pattern, boolean reduce, RingLayout layout, MemorySegment mem, RingLinks links,
            long sliceOffset, long sliceBytes) {
        if (sliceOffset % 4 != 0 || sliceBytes % 4 != 0 || sliceBytes < 4
                || sliceOffset + sliceBytes > layout.chunk()) {
            throw new IllegalArgumentException("slice " + sliceOffset + "+" + sliceBytes + " of a chunk of "
                    + layout.chunk() + " bytes");
        }
        this.sliceOffset = sliceOffset;
        this.sliceBytes = sliceBytes;
        this.rank = rank;
        this.n = layout.ranks();
        this.pattern = pattern;
        this.reduce = reduce;
        this.layout = layout;
        this.mem = mem;
        this.links = links;
        int steps = n > 1 ? pattern.steps(n) : 0;
        this.waitNanos = new long[steps];
        this.sendNanos = new long[steps];
    }

    /**
     * From now on (true) the iterations' per-step waits and the links' write times are added up, from zero;
     * warm-up and the check's run are not counted.
     */
    @Override
    public void timed(boolean on) {
        timed = on;
        links.timeWrites(on);
    }

    /**
     * Per step of an iteration (reduce-scatter's N - 1, then all-gather's), the nanoseconds summed over the timed
     * iterations that this rank waited for its previous rank's data: the time the link into it (and everything
     * upstream whose delay travels along the ring) held it up.
     */
    long[] waitNanos() {
        return waitNanos.clone();
    }

    /** Per step, summed over the timed iterations: held on its own sending side (docs/fabric.md, per-link figures). */
    long[] sendNanos() {
        return sendNanos.clone();
    }

    /**
     * Carries the reduce-scatter's step count and credits over from the lane of the case before (a sweep's last
     * size) on the same links: that case's last credits may still be on their way, and are counted here.
     */
    void continueFrom(RingRank before) {
        if (before != null) {
            rsSteps = before.rsSteps;
            credits = before.credits;
        }
    }

    /** (a mod N) for any int a. */
    int mod(long a) {
        return (int) Math.floorMod(a, (long) n);
    }

    static int imm(int type, long seq) {
        return (type << 28) | (int) (seq & 0x0FFF_FFFFL);
    }

    /** Checks an immediate's kind; the message is built only when it is wrong (no allocation per step). */
    private static void expect(int imm, int type, String what, int from) {
        if (imm >>> 28 != type) {
            throw new FabricFailure("ring protocol: expected " + what + " from rank " + from + ", got immediate 0x"
                    + Integer.toHexString(imm));
        }
    }

    /** The input element j of this rank: (r + j) mod 251 (j counts from the start of the whole array). */
    static float input(int rank, long j) {
        return (float) ((rank + j) % 251);
    }

    /** The reduced element j: the exact integer sum over ranks of (r + j) mod 251. */
    static float sum(int ranks, long j) {
        long s = 0;
        for (int r = 0; r < ranks; r++) {
            s += (r + j) % 251;
        }
        return (float) s;
    }

    /** Writes this lane's part of the rank's input. */
    void fillInput() {
        long per = layout.chunk() / 4;
        long from = sliceOffset / 4;
        long count = sliceBytes / 4;
        // Reduce-scatter layouts hold the whole array (n chunks); all-gather alone holds chunk `rank` only.
        int chunks = pattern.reduceScatter() ? n : 1;
        long firstChunk = pattern.reduceScatter() ? 0 : rank;
        for (int k = 0; k < chunks; k++) {
            long at = layout.input() / 4 + k * per + from;
            long j = (firstChunk + k) * per + from;
            for (long i = 0; i < count; i++) {
                mem.setAtIndex(JAVA_FLOAT_UNALIGNED, at + i, input(rank, j + i));
            }
        }
    }

    /** Fills this lane's part of the output with NaN, so that a chunk no transfer wrote cannot pass the check. */
    void poisonOutput() {
        for (int k = 0; k < n; k++) {
            mem.asSlice(layout.out(k) + sliceOffset, sliceBytes).fill((byte) 0xFF);
        }
    }

    @Override
    public void beforeCheck() {
        poisonOutput();
    }

    @Override
    public void iteration(int seq) {
        iteration();
    }

    /** One iteration of the pattern. */
    void iteration() {
        if (n == 1) {
            MemorySegment.copy(mem, layout.input() + sliceOffset, mem, layout.output() + sliceOffset, sliceBytes);
            return;
        }
        if (pattern.reduceScatter()) {
            reduceScatter();
        }
        if (pattern.allGather()) {
            allGather();
        }
    }

    private void reduceScatter() {
        long c = sliceBytes;
        long o = sliceOffset;
        for (int s = 0; s < n - 1; s++) {
            long g = rsSteps++;
            int slot = (int) (g & 1);
            long t0 = System.nanoTime();
            while (credits + 2 <= g) {
                int m = links.awaitNext();
                expect(m, CREDIT, "a credit", mod(rank + 1));
                credits++;
            }
            int k = mod(rank - s);
            links.writeNext((s == 0 ? layout.in(k) : layout.out(k)) + o, c, layout.slot(slot) + o, imm(RS_DATA, g));
            long t1 = System.nanoTime();
            int got = links.awaitPrev();
            if (timed) {
                long w = System.nanoTime() - t1;
                sendNanos[s] += t1 - t0;
                waitNanos[s] += w;
            }
            expect(got, RS_DATA, "reduce-scatter data", mod(rank - 1));
            int j = mod(rank - s - 1);
            if (reduce) {
                add(layout.slot(slot) + o, layout.in(j) + o, layout.out(j) + o, c);
            }
            links.signalPrev(imm(CREDIT, g));
        }
        long t0 = System.nanoTime();
        links.awaitSends();
        if (timed) {
            sendNanos[n - 2] += System.nanoTime() - t0;
        }
    }

    private void add(long a, long b, long to, long bytes) {
        long ia = a / 4;
        long ib = b / 4;
        long it = to / 4;
        long count = bytes / 4;
        for (long i = 0; i < count; i++) {
            float v = mem.getAtIndex(JAVA_FLOAT_UNALIGNED, ia + i) + mem.getAtIndex(JAVA_FLOAT_UNALIGNED, ib + i);
            mem.setAtIndex(JAVA_FLOAT_UNALIGNED, it + i, v);
        }
    }

    private void allGather() {
        long c = sliceBytes;
        long o = sliceOffset;
        int owner = pattern.reduceScatter() ? mod(rank + 1) : rank;
        if (!pattern.reduceScatter()) {
            MemorySegment.copy(mem, layout.input() + o, mem, layout.out(owner) + o, c);
        }
        int base = pattern.reduceScatter() ? n - 1 : 0;
        long t0 = System.nanoTime();
        links.signalPrev(imm(READY, 0));
        for (;;) {
            int m = links.awaitNext();
            if (m >>> 28 == CREDIT) {
                credits++; // a credit not needed yet: the next reduce-scatter will not wait for it
                continue;
            }
            expect(m, READY, "ready", mod(rank + 1));
            break;
        }
        for (int s = 0; s < n - 1; s++) {
            int k = mod(owner - s);
            links.writeNext(layout.out(k) + o, c, layout.out(k) + o, imm(AG_DATA, s));
            long t1 = System.nanoTime();
            int got = links.awaitPrev();
            if (timed) {
                long w = System.nanoTime() - t1;
                sendNanos[base + s] += t1 - t0;
                waitNanos[base + s] += w;
            }
            expect(got, AG_DATA, "all-gather data", mod(rank - 1));
            t0 = System.nanoTime();
        }
        links.awaitSends();
        if (timed) {
            sendNanos[base + n - 2] += System.nanoTime() - t0;
        }
    }

    /** Payload bytes this lane writes (and receives) per iteration. */
    long bytesPerIteration() {
        return pattern.steps(n) * sliceBytes;
    }

    /**
     * Elements of this lane's part of the result that are not what they must be: of the whole output (all-reduce,
     * all-gather) or the rank's reduced chunk (reduce-scatter); -1 without a check ({@code --no-reduce} with a
     * reduce-scatter half).
     */
    long wrong() {
        if (!reduce && pattern.reduceScatter()) {
            return -1;
        }
        long per = layout.chunk() / 4;
        long from = sliceOffset / 4;
        long count = sliceBytes / 4;
        long bad = 0;
        for (int k = 0; k < n; k++) {
            if (pattern == FabricPattern.REDUCESCATTER && k != mod(rank + 1) && n > 1) {
                continue;
            }
            long base = layout.out(k) / 4;
            for (long i = from; i < from + count; i++) {
                long j = k * per + i;
                float want = pattern.reduceScatter() ? sum(n, j) : input(k, j);
                if (mem.getAtIndex(JAVA_FLOAT_UNALIGNED, base + i) != want) {
                    bad++;
                }
            }
        }
        return bad;
    }
}
