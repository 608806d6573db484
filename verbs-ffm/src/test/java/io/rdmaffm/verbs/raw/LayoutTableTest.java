package io.rdmaffm.verbs.raw;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The Java layouts against the table of the shim this JVM loads, compiled from the installed rdma-core
 * headers. Needs no RDMA device, only the shim and libibverbs, so it runs on every host build.
 */
class LayoutTableTest extends LayoutTableChecks {
    private static LayoutTable table;

    @BeforeAll
    static void load() {
        table = LayoutTable.load();
    }

    @Override
    LayoutTable table() {
        return table;
    }

    @Test
    void shimReportsItsAbi() throws Throwable {
        int abi = (int) Shim.rdmaffm_shim_abi.invokeExact();
        assertEquals(ShimInfo.EXPECTED_ABI, abi);
    }
}
