package io.rdmaffm.benchmarks;

import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * The JNI entry points of {@code src/main/c/bench_jni.c}: what a JNI binding such as DiSNI does per verb
 * (Java → JNI → {@code ibv_post_send} / {@code ibv_poll_cq}), plus the same work as loops in C. The library
 * is built by this module's pom into {@code target/}, next to {@code target/classes}, and loaded from there.
 */
final class JniVerbs {
    static {
        load();
    }

    private JniVerbs() {
    }

    /** Prepares a signaled RDMA WRITE of {@code length} bytes from local to remote on the QP; 0 if out of memory. */
    static native long open(long qp, long cq, long local, int length, int lkey, long remote, int rkey);

    static native void close(long bench);

    /** {@code ibv_post_send} of the prepared write: 0 or an errno value. */
    static native int postSend(long bench);

    /** {@code ibv_poll_cq} for one entry: 0, 1, or negative (a failed poll, or -1000 - status of a failed completion). */
    static native int pollCq(long bench);

    /** {@code ops} times post + poll until the completion, in C: the empty polls seen, or negative on an error. */
    static native long postPollLoop(long bench, int ops);

    /** {@code ops} times {@code ibv_poll_cq} of an empty CQ, in C: 0, or negative on an error. */
    static native long pollLoop(long bench, int ops);

    /** {@code ops} reads of {@code CLOCK_MONOTONIC} in C (what System.nanoTime reads): their sum. */
    static native long clockLoop(int ops);

    /** {@code ops} reads of the time-stamp counter in C (C perftest's clock on x86): their sum, or -1 elsewhere. */
    static native long tscLoop(int ops);

    @SuppressWarnings("restricted") // the forks run with --enable-native-access=ALL-UNNAMED
    private static void load() {
        System.load(library().toString());
    }

    private static Path library() {
        try {
            // target/classes (or the module's jar in target/) → target/librdmaffm_bench_jni.so
            Path classes = Path.of(JniVerbs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return classes.getParent().resolve("librdmaffm_bench_jni.so");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
