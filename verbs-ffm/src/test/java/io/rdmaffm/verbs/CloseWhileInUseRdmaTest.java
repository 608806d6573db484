package io.rdmaffm.verbs;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The close-against-use contract under stress: threads post RDMA WRITEs, poll, query the device and register
 * memory while another thread closes the QP, CQ, MR, PD and context in various orders, round after round. Every
 * outcome must be one the contract names: the call completed before the close, or it threw IllegalStateException
 * (closed, or a parent that refuses to close while a child is open); never a JVM crash, never a call that began
 * after its object's close() returned and succeeded. rdma.stress.seconds bounds the run (default 20 s).
 */
@Tag("rdma")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CloseWhileInUseRdmaTest {
    private static final long SECONDS = Long.getLong("rdma.stress.seconds", 20);
    private static final int MIN_ROUNDS = 10;
    private static final int DEPTH = 16;
    private static final List<List<String>> ORDERS = List.of(
            List.of("qp", "cq", "mr", "pd", "ctx"),
            List.of("mr", "qp", "cq", "pd", "ctx"),
            List.of("ctx", "pd", "cq", "qp", "mr", "cq", "pd", "ctx"),
            List.of("cq", "qp", "cq", "mr", "pd", "ctx"),
            List.of("pd", "mr", "qp", "pd", "cq", "ctx"));

    /** What the threads saw, over all rounds. */
    private final AtomicLong succeeded = new AtomicLong();
    private final AtomicLong refusedAsClosed = new AtomicLong();
    private final AtomicLong closeRefused = new AtomicLong();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

    @Test
    void closingOnOneThreadWhileOthersUseTheObjectsEndsInExceptionsNeverInACrash() throws Exception {
        // The memory stays allocated for the whole test: a WRITE still in flight when its region is deregistered
        // lands in memory the test still owns (keeping it alive is the caller's part of the contract).
        try (Arena memory = Arena.ofShared()) {
            MemorySegment buffer = memory.allocate(8192, 4096);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SECONDS);
            int rounds = 0;
            while (rounds < MIN_ROUNDS || System.nanoTime() < deadline) {
                round(buffer, ORDERS.get(rounds % ORDERS.size()));
                rounds++;
            }
            System.out.printf("close-while-in-use: %d rounds, %,d calls completed, %,d refused as closed, "
                    + "%d closes refused for open children%n", rounds, succeeded.get(), refusedAsClosed.get(),
                    closeRefused.get());
        }
        assertTrue(violations.isEmpty(), violations.size() + " violation(s), first: "
                + violations.subList(0, Math.min(5, violations.size())));
        assertTrue(succeeded.get() > 0, "no call ever completed: the workers never ran against open objects");
        assertTrue(refusedAsClosed.get() > 0, "no call was ever refused: the closes never overlapped the workers");
        assertTrue(closeRefused.get() > 0, "no close was refused for open children");
    }

    /** One set of objects, four workers, one closer following {@code order}. */
    private void round(MemorySegment buffer, List<String> order) throws InterruptedException {
        Round r = new Round(buffer);
        List<Thread> workers = List.of(
                Thread.ofPlatform().name("poster").start(() -> r.post(this)),
                Thread.ofPlatform().name("poller").start(() -> r.poll(this)),
                Thread.ofPlatform().name("querier").start(() -> r.query(this)),
                Thread.ofPlatform().name("registrar").start(() -> r.register(this)));
        Thread.sleep(ThreadLocalRandom.current().nextInt(4));
        for (String what : order) {
            close(r, what);
            Thread.sleep(0, ThreadLocalRandom.current().nextInt(500_000));
        }
        r.stop = true;
        for (Thread t : workers) {
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(!t.isAlive(), t.getName() + " did not stop");
        }
        for (String what : List.of("qp", "cq", "mr", "pd", "ctx")) {
            r.object(what).close(); // whatever the order left open; idempotent for the rest
        }
        assertTrue(r.ctx.isClosed() && r.pd.isClosed() && r.qp.isClosed() && r.cq.isClosed() && r.mr.isClosed());
        r.send.close();
        r.wc.close();
    }

    private void close(Round r, String what) {
        NativeObject o = r.object(what);
        try {
            o.close();
            r.markClosed(what);
        } catch (IllegalStateException e) {
            if (e.getMessage() == null || !e.getMessage().startsWith("cannot close")) {
                violations.add("close of " + what + ": " + e);
            }
            closeRefused.incrementAndGet();
        } catch (RuntimeException e) {
            violations.add("close of " + what + ": " + e);
        }
    }

    /** A call's outcome: {@code closedBefore} says its object's close() had returned before the call began. */
    void outcome(String call, boolean closedBefore, RuntimeException failure) {
        if (failure == null) {
            if (closedBefore) {
                violations.add(call + " succeeded after its object was closed");
            }
            succeeded.incrementAndGet();
        } else if (failure instanceof IllegalStateException) {
            refusedAsClosed.incrementAndGet();
        } else if (!(failure instanceof VerbsException)) {
            violations.add(call + ": " + failure);
        }
        // A VerbsException is the device's answer (e.g. a post to a QP the MR's loss moved to ERR): allowed.
    }

    /** The objects of one round and what each worker does with them. */
    private static final class Round {
        final Context ctx = Context.open(RdmaTestDevice.name());
        final ProtectionDomain pd = ctx.allocateProtectionDomain();
        final CompletionQueue cq = ctx.createCompletionQueue(4 * DEPTH);
        final QueuePair qp = pd.createQueuePair(new QueuePairInit(QueuePairType.RC, cq, cq).maxSendWr(2 * DEPTH));
        final MemoryRegion mr;
        final SendWorkRequests send = new SendWorkRequests(1, 1);
        final Completions wc = new Completions(DEPTH);
        final MemorySegment scratch;
        final AtomicInteger outstanding = new AtomicInteger();
        volatile boolean stop;
        volatile boolean qpClosed;
        volatile boolean cqClosed;
        volatile boolean pdClosed;
        volatile boolean ctxClosed;

        Round(MemorySegment buffer) {
            RcLoopback.connectToSelf(qp, ctx);
            mr = pd.registerMemory(buffer.asSlice(0, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            scratch = buffer.asSlice(4096, 4096);
            send.get(0).wrId(1).opcode(SendOpcode.RDMA_WRITE).flags(SendFlags.SIGNALED).local(mr, 0, 64)
                    .rdma(mr.addressOf(1024, 64), mr.rkey());
        }

        NativeObject object(String what) {
            return switch (what) {
                case "qp" -> qp;
                case "cq" -> cq;
                case "mr" -> mr;
                case "pd" -> pd;
                case "ctx" -> ctx;
                default -> throw new IllegalArgumentException(what);
            };
        }

        void markClosed(String what) {
            switch (what) {
                case "qp" -> qpClosed = true;
                case "cq" -> cqClosed = true;
                case "pd" -> pdClosed = true;
                case "ctx" -> ctxClosed = true;
                default -> { }
            }
        }

        void post(CloseWhileInUseRdmaTest test) {
            work(test, "postSend", () -> qpClosed, () -> {
                if (outstanding.get() >= DEPTH) {
                    return false; // the send queue is full: no call this time
                }
                qp.postSend(send, 1);
                outstanding.incrementAndGet();
                return true;
            });
        }

        void poll(CloseWhileInUseRdmaTest test) {
            work(test, "poll", () -> cqClosed, () -> {
                outstanding.addAndGet(-cq.poll(wc));
                return true;
            });
        }

        void query(CloseWhileInUseRdmaTest test) {
            work(test, "queryPort", () -> ctxClosed, () -> {
                ctx.queryPort(1);
                return true;
            });
        }

        /** Creation against close: a registration holds the PD open; a PD closed first refuses it. */
        void register(CloseWhileInUseRdmaTest test) {
            work(test, "registerMemory", () -> pdClosed, () -> {
                pd.registerMemory(scratch, Access.LOCAL_WRITE).close();
                return true;
            });
        }

        /**
         * Repeats {@code call} (which returns false when it made no call) until the round stops, reporting each
         * outcome with whether its object's close() had returned before the call began.
         */
        private void work(CloseWhileInUseRdmaTest test, String name, BooleanSupplier closed, BooleanSupplier call) {
            while (!stop) {
                boolean closedBefore = closed.getAsBoolean();
                RuntimeException failure = null;
                try {
                    if (!call.getAsBoolean()) {
                        Thread.onSpinWait();
                        continue;
                    }
                } catch (RuntimeException e) {
                    failure = e;
                }
                test.outcome(name, closedBefore, failure);
                if (failure != null) {
                    Thread.yield();
                }
            }
        }
    }
}
