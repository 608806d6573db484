package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.engine.memory.RunBuffer;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.params.RunPlan;
import io.rdmaffm.perftest.vocab.BwReport;
import io.rdmaffm.perftest.vocab.Connection;
import io.rdmaffm.perftest.vocab.Mismatch;
import io.rdmaffm.perftest.vocab.Verb;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * {@code --verify}: sources carry the {@link Pattern}, targets start zeroed; after a run each side checks
 * what arrived in its buffer. The buffer holds one slot per QP for sending (QP order), then one per QP for
 * receiving. The pattern is written to and checked in the buffer's host view: GPU memory is copied in after the
 * fill and out before each check ({@link RunBuffer}).
 */
final class Verifier {
    private final RunParameters p;
    private final RunBuffer mem;
    private final MemorySegment buf;
    private final long slot;
    private final int qps;

    Verifier(RunParameters p, RunBuffer mem, long slot) {
        this.p = p;
        this.mem = mem;
        this.buf = mem.hostView();
        this.slot = slot;
        this.qps = p.workload().numQps();
    }

    /** Fills the sources with the pattern (read: the targets the peer reads from too). */
    void fill(long largest) {
        for (int i = 0; i < qps; i++) {
            Pattern.fill(buf, i * slot, largest);
            if (p.verb() == Verb.READ) {
                Pattern.fill(buf, (qps + i) * slot, largest);
            }
        }
        mem.pushToDevice();
    }

    /** Messages received (send tools), on the sides that receive. */
    Verification received(long size) {
        boolean receives = !p.isClient() || !p.tool().bandwidth() || p.workload().bidirectional();
        if (!p.output().verify() || !receives) {
            return Verification.none();
        }
        mem.pullFromDevice();
        long grh = p.endpoint().connection() == Connection.UD ? RunPlan.GRH_BYTES : 0;
        List<Mismatch> found = new ArrayList<>();
        for (int i = 0; i < qps; i++) {
            check(found, "receive buffer of QP " + i, (qps + i) * slot + grh, size);
        }
        return new Verification(true, found);
    }

    /** ib_write_lat: the last byte carries the iteration counter; the rest is the sender's pattern. */
    Verification writeLatency(long size) {
        if (!p.output().verify() || size <= 1) {
            return Verification.none();
        }
        mem.pullFromDevice();
        List<Mismatch> found = new ArrayList<>();
        check(found, "RDMA write target", qps * slot, size - 1);
        return new Verification(true, found);
    }

    /** What the client read (nothing for atomics, whose 8 bytes are the old target values). */
    Verification read(long size) {
        if (!p.output().verify() || !p.isClient()) {
            return Verification.none();
        }
        mem.pullFromDevice();
        List<Mismatch> found = new ArrayList<>();
        for (int i = 0; i < qps; i++) {
            check(found, "RDMA read destination of QP " + i, i * slot, p.verb() == Verb.ATOMIC ? 0 : size);
        }
        return new Verification(true, found);
    }

    /**
     * A server whose memory the peer wrote or updated checks it after the run; {@code peer} is the client's
     * report (its iterations decide what fetch-and-add left), or null.
     */
    Verification asTarget(long lastSize, BwReport peer) {
        if (!p.output().verify()) {
            return Verification.none();
        }
        mem.pullFromDevice();
        List<Mismatch> found = new ArrayList<>();
        for (int i = 0; i < qps; i++) {
            long off = (qps + i) * slot;
            if (p.verb() == Verb.WRITE) {
                check(found, "RDMA write target of QP " + i, off, lastSize);
            } else if (p.verb() == Verb.ATOMIC) {
                long v = buf.get(JAVA_LONG, off);
                long expected = p.workload().compareAndSwap() ? 0 : peer == null ? -1 : peer.iters() / qps;
                if (v != expected) {
                    found.add(new Mismatch.AtomicValue(i, v, expected));
                }
            }
        }
        return new Verification(true, found);
    }

    private void check(List<Mismatch> found, String what, long offset, long length) {
        long bad = Pattern.mismatches(buf, offset, length);
        if (bad > 0) {
            found.add(new Mismatch.Bytes(what, bad, length, Pattern.firstMismatch(buf, offset, length)));
        }
    }
}
