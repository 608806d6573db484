package io.rdmaffm.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.connect.Connection;
import io.rdmaffm.verbs.connect.ConnectionException;
import io.rdmaffm.verbs.connect.RdmaServer;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Opening and closing every kind of verbs object many times, and failing many rdma_cm connects, leaves the
 * process where it started: the same open file descriptors, the same mappings of the uverbs device (each CQ,
 * QP and SRQ queue of rxe is an mmap of it), the same counts in {@code rdma resource show}, and the same JVM
 * native allocations of NMT's "Other" kind (every FFM segment is one; libibverbs' own malloc is not seen by NMT,
 * but each of its objects shows in the fds, mappings or rdma counts). The process's
 * total mappings may move with the JVM (code cache, GC, thread stacks), so they get a slack far below one per
 * cycle. Counts: {@code -Dleak.cycles} / {@code -Dleak.connects} / {@code -Dleak.serverCloses} (per push 150, 50
 * and 6, ~25 s under the emulated CPU of CI; 10,000, 10,000 and 200 with {@code -Dfaults.full=true}).
 */
@Tag("rdma")
class LeakRdmaTest {
    private static final boolean FULL = Boolean.getBoolean("faults.full");
    private static final int CYCLES = Integer.getInteger("leak.cycles", FULL ? 10_000 : 150);
    private static final int CONNECTS = Integer.getInteger("leak.connects", FULL ? 10_000 : 50);
    private static final int SERVER_CLOSES = Integer.getInteger("leak.serverCloses", FULL ? 200 : 6);

    @Test
    @Timeout(value = 3600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void everyObjectKindOpenedAndClosedLeavesNothing() throws Exception {
        String device = RdmaTestDevice.name();
        cycle(device); // libibverbs and the provider load once; that is not a leak
        Snapshot.take(device); // and the JDK's buffers for what Snapshot reads
        Snapshot before = Snapshot.baseline(device);
        long t0 = System.nanoTime();
        for (int i = 0; i < CYCLES; i++) {
            cycle(device);
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Snapshot after = Snapshot.take(device);
        System.out.printf("leak test: %d cycles of context, PD, MR, MW (1 and 2), CQ with channel, RC/UC/UD QPs, "
                + "SRQ, AH in %.1f s; before %s, after %s%n", CYCLES, seconds, before, after);
        before.assertSameAs(after, CYCLES);
    }

    @Test
    @Timeout(value = 3600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void failedConnectsLeaveNothing() throws Exception {
        String device = RdmaTestDevice.name();
        InetSocketAddress unused;
        try (RdmaServer s = RdmaServer.listen(new InetSocketAddress(RdmaTestDevice.ipv4Address(), 0))) {
            unused = s.localAddress();
        }
        InetSocketAddress nobody = unused;
        assertThrows(ConnectionException.class, () -> Connection.connect(nobody, Duration.ofSeconds(10)));
        Snapshot.take(device);
        Snapshot before = Snapshot.baseline(device);
        long t0 = System.nanoTime();
        for (int i = 0; i < CONNECTS; i++) {
            ConnectionException e = assertThrows(ConnectionException.class,
                    () -> Connection.connect(nobody, Duration.ofSeconds(10)), "connect " + i);
            assertEquals(ConnectionException.Reason.CONNECT_FAILED, e.reason(), e.getMessage());
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Snapshot after = Snapshot.take(device);
        System.out.printf("leak test: %d refused rdma_cm connects in %.1f s; before %s, after %s%n", CONNECTS,
                seconds, before, after);
        before.assertSameAs(after, CONNECTS);
    }

    /**
     * {@code RdmaServer.close()} while another thread waits in {@code accept}: the close succeeds (it used to throw
     * "Session is acquired by 1 clients", closing the event channel under the acceptor's poll), the accept ends
     * with {@code ConnectionException(CLOSED)}, a second close does nothing, and after many rounds (acceptors on
     * virtual and platform threads alternately) the process holds what it held before.
     */
    @Test
    @Timeout(value = 3600, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void closingAServerWhileItAcceptsEndsTheAcceptAndLeavesNothing() throws Exception {
        String device = RdmaTestDevice.name();
        InetSocketAddress at = new InetSocketAddress(RdmaTestDevice.ipv4Address(), 0);
        closeWhileAccepting(at, true); // the classes and the rdma-cm-wait thread that load or start once
        closeWhileAccepting(at, false);
        Snapshot.take(device);
        Snapshot before = Snapshot.baseline(device);
        long t0 = System.nanoTime();
        long slowest = 0;
        for (int i = 0; i < SERVER_CLOSES; i++) {
            slowest = Math.max(slowest, closeWhileAccepting(at, (i & 1) == 0));
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        Snapshot after = Snapshot.take(device);
        System.out.printf("leak test: %d server closes during accept in %.1f s (slowest close %d ms); before %s, "
                + "after %s%n", SERVER_CLOSES, seconds, slowest / 1_000_000, before, after);
        before.assertSameAs(after, SERVER_CLOSES);
    }

    /** Listens, blocks a thread in accept(60 s), closes the server under it; returns how long close() took. */
    private static long closeWhileAccepting(InetSocketAddress at, boolean virtual) throws Exception {
        RdmaServer server = RdmaServer.listen(at);
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread acceptor = (virtual ? Thread.ofVirtual() : Thread.ofPlatform()).start(() -> {
            try {
                server.accept(Duration.ofSeconds(60)).close();
                ended.complete(new AssertionError("accept returned a connection nobody made"));
            } catch (Throwable e) {
                ended.complete(e);
            }
        });
        awaitWaitingInAccept(acceptor);
        long c0 = System.nanoTime();
        server.close();
        long closeNanos = System.nanoTime() - c0;
        Throwable e = ended.get(20, TimeUnit.SECONDS);
        assertTrue(e instanceof ConnectionException ce && ce.reason() == ConnectionException.Reason.CLOSED,
                "accept ended with " + e);
        assertTrue(e.getMessage().contains(String.valueOf(server.localAddress().getPort())), e.getMessage());
        assertTrue(closeNanos < TimeUnit.SECONDS.toNanos(10), "close took " + closeNanos / 1_000_000 + " ms");
        server.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> server.accept(Duration.ofSeconds(1)));
        acceptor.join();
        return closeNanos;
    }

    /**
     * Waits until a platform thread is in the wait for a connect request on the server's behalf: the acceptor itself,
     * or the rdma-cm-wait thread a virtual acceptor hands its wait to.
     */
    private static void awaitWaitingInAccept(Thread acceptor) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
                boolean inAccept = false;
                boolean inChannel = false;
                for (StackTraceElement f : stack) {
                    inAccept |= f.getClassName().endsWith("RdmaServer") && f.getMethodName().startsWith("accept");
                    inChannel |= f.getClassName().endsWith("EventChannel");
                }
                if (inAccept && inChannel) {
                    return;
                }
            }
            assertTrue(acceptor.isAlive(), "the acceptor ended before it waited");
            Thread.sleep(20);
        }
        throw new AssertionError("no thread waited in accept within 30 s");
    }

    /** One of each object, created in dependency order and closed in reverse. */
    private static void cycle(String device) {
        try (Context ctx = Context.open(device);
             ProtectionDomain pd = ctx.allocateProtectionDomain();
             MemoryRegion mr = pd.allocateRegion(4096, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
             MemoryWindow mw1 = pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_1);
             MemoryWindow mw2 = pd.allocateMemoryWindow(MemoryWindow.Type.TYPE_2);
             CompletionChannel channel = ctx.createCompletionChannel();
             CompletionQueue cq = ctx.createCompletionQueue(16, channel, 0);
             SharedReceiveQueue srq = pd.createSharedReceiveQueue(16, 1, 0);
             QueuePair rc = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq));
             QueuePair uc = pd.createQueuePair(new QueuePairInit(QueuePairType.UC, cq, cq));
             QueuePair ud = pd.createQueuePair(new QueuePairInit(QueuePairType.UD, cq, cq));
             QueuePair onSrq = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq)
                     .sharedReceiveQueue(srq));
             AddressHandle ah = pd.createAddressHandle(new AddressVector().port(1)
                     .global(ctx.queryGid(1, RdmaTestDevice.gidIndex()).gid(), RdmaTestDevice.gidIndex()))) {
            assertTrue(rc.qpNumber() != uc.qpNumber() && ud.qpNumber() != onSrq.qpNumber() && mr.rkey() != mw1.rkey()
                    && mw2 != null && ah != null);
        }
    }

    /**
     * What the process and the device hold at one moment; {@code nativeBlocks}: the JVM's native allocations of
     * NMT's "Other" kind, where every FFM arena's segments are (-XX:NativeMemoryTracking=summary, set for these
     * tests in verbs-ffm's pom).
     */
    private record Snapshot(long fds, long uverbsMaps, long maps, String rdma, long nativeBlocks) {
        private static final Pattern OTHER =
                Pattern.compile("Other \\(reserved=[^\\n]*\\n\\s*\\(malloc=\\d+KB[^#]*#(\\d+)");

        /**
         * The state to compare against, taken once the garbage of earlier tests in this JVM is gone: a stream some
         * test left open is closed by its Cleaner at a GC, and a GC during the loop would otherwise lower the
         * count of open files under a real leak.
         */
        static Snapshot baseline(String device) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            long fds = openFiles();
            while (System.nanoTime() < deadline) {
                System.gc();
                Thread.sleep(200); // Cleaners run on their own thread
                long now = openFiles();
                if (now == fds) {
                    break;
                }
                fds = now;
            }
            return take(device);
        }

        static Snapshot take(String device) throws Exception {
            long fds = openFiles();
            List<String> maps = Files.readAllLines(Path.of("/proc/self/maps"));
            long uverbs = maps.stream().filter(l -> l.contains("/dev/infiniband/")).count();
            return new Snapshot(fds, uverbs, maps.size(), rdmaResources(device), liveNativeBlocks());
        }

        private static long openFiles() throws IOException {
            try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
                return s.count();
            }
        }

        void assertSameAs(Snapshot after, int cycles) {
            // fewer is not a leak: a JDK-internal file (a class file, a Cleaner's catch) may close under the loop
            assertTrue(after.fds <= fds, "open file descriptors grew from " + fds + " to " + after.fds + " over "
                    + cycles + " cycles");
            assertEquals(uverbsMaps, after.uverbsMaps, "mappings of /dev/infiniband");
            assertEquals(rdma, after.rdma, "rdma resource show");
            // slack for the JDK's own lazily made buffers (NIO's per-thread cache holds up to 16); a segment
            // leaked per cycle would be one per cycle, 150 per push
            assertTrue(after.nativeBlocks - nativeBlocks <= 16, "native allocations (NMT Other) grew from "
                    + nativeBlocks + " to " + after.nativeBlocks + " over " + cycles + " cycles");
            assertTrue(after.maps - maps < Math.max(64, cycles / 10), "mappings grew from " + maps + " to "
                    + after.maps + " over " + cycles + " cycles");
        }
    }

    /** NMT's count of live "Other" allocations (FFM segments among them); fails where NMT is off. */
    private static long liveNativeBlocks() throws Exception {
        String summary = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
                new Object[] {new String[] {"summary"}}, new String[] {String[].class.getName()});
        Matcher m = Snapshot.OTHER.matcher(summary);
        assertTrue(m.find(), "no NMT summary (run with -XX:NativeMemoryTracking=summary): " + summary);
        return Long.parseLong(m.group(1));
    }

    /** The device's line of {@code rdma resource show}, e.g. "pd 1 cq 2 qp 1 cm_id 0 mr 1 ctx 1 srq 0". */
    private static String rdmaResources(String device) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("rdma", "resource", "show").redirectErrorStream(true)
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        String out;
        // closed here, not by the JDK's reaper thread, which closes a pipe only after waitFor has returned and so
        // races with the next count of open files
        try (var stdout = p.getInputStream()) {
            out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0, "rdma resource show: " + out);
        String key = ": " + device + ": ";
        for (String line : out.split("\n")) {
            int at = line.indexOf(key);
            if (at >= 0) {
                return line.substring(at + key.length()).strip();
            }
        }
        throw new AssertionError("rdma resource show lists no " + device + ": " + out);
    }
}
