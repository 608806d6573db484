package io.rdmaffm.verbs.internal;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

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
}
