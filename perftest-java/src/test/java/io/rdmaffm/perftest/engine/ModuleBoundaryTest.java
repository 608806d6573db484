package io.rdmaffm.perftest.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.rdmaffm.verbs.Context;
import org.junit.jupiter.api.Test;

/** perftest-java and its tests run as the named module on the module path: verbs-ffm's boundary holds. */
class ModuleBoundaryTest {

    @Test
    void testsRunInsideTheNamedModule() {
        assertEquals("io.rdmaffm.perftest", PerftestEngine.class.getModule().getName());
        assertEquals(PerftestEngine.class.getModule(), getClass().getModule(), "tests are patched into the module");
    }

    @Test
    void verbsRawLayerIsOutOfReach() {
        Module verbs = Context.class.getModule();
        assertEquals("io.rdmaffm.verbs", verbs.getName());
        Module us = PerftestEngine.class.getModule();
        assertTrue(verbs.isExported("io.rdmaffm.verbs", us));
        assertTrue(verbs.isExported("io.rdmaffm.verbs.cm", us));
        assertFalse(verbs.isExported("io.rdmaffm.verbs.raw", us), "the raw layer is not exported");
        assertFalse(verbs.isExported("io.rdmaffm.verbs.internal", us));
    }
}
