package io.rdmaffm.benchmarks;

import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.AddressVector;
import io.rdmaffm.verbs.CompletionQueue;
import io.rdmaffm.verbs.Completions;
import io.rdmaffm.verbs.Context;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.Mtu;
import io.rdmaffm.verbs.ProtectionDomain;
import io.rdmaffm.verbs.QueuePair;
import io.rdmaffm.verbs.QueuePairAttributes;
import io.rdmaffm.verbs.QueuePairInit;
import io.rdmaffm.verbs.QueuePairType;
import io.rdmaffm.verbs.SendFlags;
import io.rdmaffm.verbs.SendOpcode;
import io.rdmaffm.verbs.SendWorkRequests;
import io.rdmaffm.verbs.raw.NativeLibraries;
import io.rdmaffm.verbs.raw.Shim;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * One RC QP on the device connected to itself, one registered 4 KiB buffer, and one signaled 8-byte RDMA
 * WRITE inside it, prepared once for each path: a {@link SendWorkRequests} and {@link Completions} for
 * verbs-ffm, and the same work request in C for the JNI and C paths. A fork checks at set-up that each path
 * really writes the 8 bytes through this QP, then measures one path. The device is {@code $RDMA_DEVICE} (default rxe0), its RoCE v2 GID index
 * {@code $RDMA_GID_INDEX} (default 1), as scripts/rdma-env.sh exports them.
 */
@State(Scope.Thread)
public class LoopbackQp {
    static final int LENGTH = 8;
    /** A system property: when true the QP and CQ are confined to the benchmark thread after set-up. */
    static final String CONFINED_PROPERTY = "bench.confined";
    private static final int REMOTE_OFFSET = 2048;

    private Context context;
    private ProtectionDomain pd;
    private MemoryRegion buffer;
    private CompletionQueue cq;
    private QueuePair qp;
    private SendWorkRequests write;
    private Completions completions;
    /** The CQ's pointer, read once: {@link #unguardedPoll} reads no field of the CQ object. */
    private MemorySegment cqHandle;
    /** Room for one {@code struct ibv_wc} (48 bytes) for {@link #unguardedPoll}. */
    private final MemorySegment rawCompletion = Arena.ofAuto().allocate(64, 8);
    /**
     * The same critical rdmaffm_poll_cq with its pointers declared as segments (one integer register either way on
     * x86-64), as verbs-ffm declared them before 2026-12-06: the linker then checks each segment and keeps its
     * arena alive per call.
     */
    private static final MethodHandle POLL_BY_SEGMENT = Linker.nativeLinker().downcallHandle(
            NativeLibraries.shim().find("rdmaffm_poll_cq").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS), Linker.Option.critical(false));
    private long cqAddress;
    private final long rawCompletionAddress = rawCompletion.address();
    /** The C side's copy of the same work request ({@link JniVerbs#open}). */
    private long jni;
    /** Operations and empty polls counted by the post+poll methods, for one line at the end of the fork. */
    private long ops;
    private long emptyPolls;
    /** How long {@link #open()} took: on an emulated CPU most of a fork's time is this and the JVM's start. */
    private long setUpNanos;

    @Setup(Level.Trial)
    public void open() {
        long start = System.nanoTime();
        String device = env("RDMA_DEVICE", "rxe0");
        int gidIndex = Integer.parseInt(env("RDMA_GID_INDEX", "1"));
        context = Context.open(device);
        pd = context.allocateProtectionDomain();
        buffer = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        cq = context.createCompletionQueue(16);
        qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(16));
        byte[] gid = context.queryGid(1, gidIndex).gid();
        qp.modify(QueuePairAttributes.init(1, Access.REMOTE_WRITE));
        qp.modify(QueuePairAttributes.rtrRc(Mtu.MTU_1024, qp.qpNumber(), 0,
                new AddressVector().port(1).global(gid, gidIndex), 1));
        qp.modify(QueuePairAttributes.rtsRc(0, 14, 7, 7, 1));

        long remote = buffer.address() + REMOTE_OFFSET;
        write = new SendWorkRequests(1, 1);
        write.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED)
                .local(buffer, 0, LENGTH).rdma(remote, buffer.rkey());
        completions = new Completions(1);
        cqHandle = cq.nativeHandle();
        cqAddress = cqHandle.address();
        // The C side works on the same ibv_qp and ibv_cq, through verbs-ffm's public native handles.
        jni = JniVerbs.open(qp.nativeHandle().address(), cq.nativeHandle().address(), buffer.address(), LENGTH,
                buffer.lkey(), remote, buffer.rkey());
        if (jni == 0) {
            throw new OutOfMemoryError("JniVerbs.open");
        }
        // Each path must really write the 8 bytes, so that a broken one cannot pass for a fast one.
        verify("FFM", 0x0123456789abcdefL, this::ffmPostPoll);
        verify("JNI", 0x1122334455667788L, this::jniPostPoll);
        verify("C", 0x7766554433221100L, () -> cPostPolls(1));
        // A thread-scoped state is set up on the thread that runs the benchmark.
        if (Boolean.getBoolean(CONFINED_PROPERTY)) {
            qp.confineToCurrentThread();
            cq.confineToCurrentThread();
        }
        ops = 0;
        emptyPolls = 0;
        setUpNanos = System.nanoTime() - start;
    }

    @TearDown(Level.Trial)
    public void close(BenchmarkParams params) {
        System.out.printf("%n%s: set-up %.1f s", params.getBenchmark(), setUpNanos / 1e9);
        if (ops > 0) {
            System.out.printf(", %d operations, %.2f empty polls per operation", ops, (double) emptyPolls / ops);
        }
        System.out.println();
        if (jni != 0) {
            JniVerbs.close(jni);
        }
        // Children first: the binding refuses to close a parent under a live child.
        for (AutoCloseable c : new AutoCloseable[] {completions, write, qp, cq, buffer, pd, context}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    throw new IllegalStateException("closing " + c, e);
                }
            }
        }
    }

    /** verbs-ffm: post, then poll until the completion; returns the empty polls. */
    int ffmPostPoll() {
        qp.postSend(write, 1);
        int empty = 0;
        while (cq.poll(completions) == 0) {
            empty++;
        }
        if (!completions.isSuccess(0)) {
            throw new IllegalStateException("RDMA WRITE completed with " + completions.describe(0));
        }
        ops++;
        emptyPolls += empty;
        return empty;
    }

    /** Java → JNI → ibv_post_send, then Java → JNI → ibv_poll_cq until the completion; returns the empty polls. */
    int jniPostPoll() {
        int rc = JniVerbs.postSend(jni);
        if (rc != 0) {
            throw new IllegalStateException("ibv_post_send failed: errno " + rc);
        }
        int n;
        int empty = 0;
        while ((n = JniVerbs.pollCq(jni)) == 0) {
            empty++;
        }
        check(n, "ibv_poll_cq");
        ops++;
        emptyPolls += empty;
        return empty;
    }

    /** {@code n} post+poll operations in one C loop (one JNI call); returns the empty polls. */
    long cPostPolls(int n) {
        long empty = JniVerbs.postPollLoop(jni, n);
        check(empty, "C post+poll loop");
        ops += n;
        emptyPolls += empty;
        return empty;
    }

    /** verbs-ffm: one poll of the empty CQ. */
    int ffmPoll() {
        return expectEmpty(cq.poll(completions));
    }

    /**
     * The critical downcall that {@link #ffmPoll} makes, without the lifetime guard around it: one poll of the
     * empty CQ through the shim's handle, as verbs-ffm's raw layer holds it.
     */
    int unguardedPoll() {
        try {
            return expectEmpty((int) Shim.DataPath.rdmaffm_poll_cq.invokeExact(cqAddress, 1, rawCompletionAddress));
        } catch (Throwable t) {
            throw new IllegalStateException("rdmaffm_poll_cq", t);
        }
    }

    /** {@link #unguardedPoll} with the pointers passed as segments. */
    int segmentPoll() {
        try {
            return expectEmpty((int) POLL_BY_SEGMENT.invokeExact(cqHandle, 1, rawCompletion));
        } catch (Throwable t) {
            throw new IllegalStateException("rdmaffm_poll_cq", t);
        }
    }

    /** Java → JNI → ibv_poll_cq of the empty CQ. */
    int jniPoll() {
        return expectEmpty(JniVerbs.pollCq(jni));
    }

    /** {@code n} polls of the empty CQ in one C loop. */
    long cPolls(int n) {
        return expectEmpty((int) JniVerbs.pollLoop(jni, n));
    }

    private static int expectEmpty(int n) {
        if (n != 0) {
            throw new IllegalStateException("the CQ was not empty, or the poll failed: " + n);
        }
        return n;
    }

    private void verify(String path, long pattern, Runnable op) {
        MemorySegment mem = buffer.segment();
        mem.set(JAVA_LONG_UNALIGNED, 0, pattern);
        mem.set(JAVA_LONG_UNALIGNED, REMOTE_OFFSET, 0L);
        op.run();
        long got = mem.get(JAVA_LONG_UNALIGNED, REMOTE_OFFSET);
        if (got != pattern) {
            throw new IllegalStateException(path + " post+poll completed but wrote 0x" + Long.toHexString(got)
                    + ", not 0x" + Long.toHexString(pattern));
        }
    }

    private static void check(long rc, String what) {
        if (rc < 0) {
            throw new IllegalStateException(what + " failed: " + rc);
        }
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}
