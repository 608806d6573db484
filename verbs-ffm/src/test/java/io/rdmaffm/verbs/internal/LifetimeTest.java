package io.rdmaffm.verbs.internal;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lifetime rules without a device: a refused close names what is still open, by kind and handle or number. */
class LifetimeTest {

    private static final class Fake extends Lifetime {
        private final String name;
        int destroyed;

        Fake(Lifetime parent, String kind, long address, String name) {
            super(parent, kind, MemorySegment.ofAddress(address));
            this.name = name;
        }

        @Override
        protected void destroy(MemorySegment handle) {
            destroyed++;
        }

        @Override
        protected String describe() {
            return name;
        }
    }

    private static Fake child(Fake parent, String kind, long address, String name) {
        return parent.create(h -> new Fake(parent, kind, address, name));
    }

    @Test
    void aRefusedCloseNamesTheOpenChildrenAndUsers() {
        Fake pd = new Fake(null, "protection domain", 0x1000, "");
        Fake mr = child(pd, "memory region", 0x2000, " (lkey 0x42)");
        Fake qp = child(pd, "queue pair", 0x3000, " (QP 0x11)");
        Fake srq = child(pd, "shared receive queue", 0xabc0, "");
        IllegalStateException e = assertThrows(IllegalStateException.class, pd::close);
        String m = e.getMessage();
        assertTrue(m.contains("3 object(s)") && m.contains("still open"), m);
        assertTrue(m.contains("memory region (lkey 0x42)") && m.contains("queue pair (QP 0x11)")
                && m.contains("shared receive queue 0xabc0"), m);
        assertEquals(0, pd.destroyed);

        // A user that is not a child (a QP of its CQ): anonymous until named.
        Fake cq = new Fake(null, "completion queue", 0x4000, "");
        cq.reserve();
        assertTrue(assertThrows(IllegalStateException.class, cq::close).getMessage().contains("1 being created"));
        cq.name(qp);
        assertTrue(assertThrows(IllegalStateException.class, cq::close).getMessage().contains("queue pair (QP 0x11)"));
        cq.release(qp);
        cq.close();
        assertEquals(1, cq.destroyed);

        mr.close();
        qp.close();
        srq.close();
        assertFalse(pd.isClosed());
        pd.close();
        assertTrue(pd.isClosed());
        assertEquals(1, pd.destroyed);
    }

    @Test
    void manyOpenChildrenAreCountedAfterTheFirstEight() {
        Fake parent = new Fake(null, "context", 0x1, "");
        for (int i = 0; i < 11; i++) {
            child(parent, "protection domain", 0x100 + i, "");
        }
        String m = assertThrows(IllegalStateException.class, parent::close).getMessage();
        assertTrue(m.contains("11 object(s)") && m.contains("and 3 more"), m);
    }

    /** Runs {@code call} on a new thread named "other" and returns what it threw (null when nothing). */
    private static Throwable onAnotherThread(Executable call) throws InterruptedException {
        return OtherThread.thrownBy("other", call);
    }

    @Test
    void aConfinedObjectServesOnlyItsThreadAndClosesThereOrAfterItEnds() throws Exception {
        Fake cq = new Fake(null, "completion queue", 0x4000, " (cq 1)");
        cq.confine();
        cq.confine(); // again on the same thread: nothing
        assertEquals(Thread.currentThread(), cq.owner());
        assertEquals(0x4000, cq.enter().address());
        cq.exit();

        Throwable call = onAnotherThread(cq::enter);
        assertTrue(call instanceof WrongThreadException, String.valueOf(call));
        assertTrue(call.getMessage().contains("completion queue (cq 1)") && call.getMessage().contains("\"other\""),
                call.getMessage());
        assertTrue(onAnotherThread(cq::close) instanceof WrongThreadException);
        assertTrue(onAnotherThread(cq::confine) instanceof WrongThreadException);
        assertEquals(0, cq.destroyed);

        // A shared call on another thread that backed out left the count as it was: close does not wait.
        cq.close();
        assertEquals(1, cq.destroyed);
        assertThrows(IllegalStateException.class, cq::enter);
        cq.close();
        assertEquals(1, cq.destroyed);
    }

    @Test
    void anObjectConfinedToAThreadThatEndedClosesFromAnother() throws Exception {
        Fake qp = new Fake(null, "queue pair", 0x3000, "");
        assertEquals(null, onAnotherThread(() -> {
            qp.confine();
            qp.enter();
            qp.exit();
        }));
        assertTrue(assertThrows(WrongThreadException.class, qp::enter).getMessage().contains("\"other\""));
        qp.close();
        assertEquals(1, qp.destroyed);
    }

    @Test
    void confiningIsRefusedWhileAnotherThreadIsInACall() throws Exception {
        Fake srq = new Fake(null, "shared receive queue", 0x5000, "");
        srq.enter(); // this thread's call in flight
        Throwable t = onAnotherThread(srq::confine);
        assertTrue(t instanceof IllegalStateException && t.getMessage().contains("in flight"), String.valueOf(t));
        srq.exit();
        assertEquals(null, onAnotherThread(srq::confine));
        Fake closed = new Fake(null, "memory region", 0x6000, "");
        closed.close();
        assertTrue(assertThrows(IllegalStateException.class, closed::confine).getMessage().contains("closed"));
    }

    @Test
    void anArenaIsFreedOnlyOnceTheCallInFlightHasReturned() throws Exception {
        Arena arena = Arena.ofShared();
        MemorySegment memory = arena.allocate(64);
        ArenaLifetime life = new ArenaLifetime("send work requests", arena);
        life.enter(); // a post in flight on this thread
        CountDownLatch closed = new CountDownLatch(1);
        Thread closer = Thread.ofPlatform().name("closer").start(() -> {
            life.close();
            closed.countDown();
        });
        assertFalse(closed.await(300, TimeUnit.MILLISECONDS),
                "close returned while a call was in flight");
        assertTrue(memory.scope().isAlive(), "the memory was freed under the call");
        memory.set(JAVA_LONG, 0, 7L); // still usable by the call
        life.exit();
        assertTrue(closed.await(10, TimeUnit.SECONDS), "close never returned");
        closer.join();
        assertFalse(memory.scope().isAlive());
        IllegalStateException e = assertThrows(IllegalStateException.class, life::enter);
        assertTrue(e.getMessage().contains("send work requests is closed"), e.getMessage());
        life.close(); // idempotent
    }
}
