package io.rdmaffm.perftest.params;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * {@code --pkey_index} is checked against the port's P_Key table as the device reports it; on a device the
 * rdma-tagged InteropRdmaTest runs the refusal on Soft-RoCE (one entry).
 */
class PkeyIndexTest {
    /** A table query that must not happen. */
    private static final java.util.function.IntSupplier NO_QUERY = () -> {
        throw new AssertionError("the P_Key table was queried");
    };

    @Test
    void anIndexBeyondThePortsTableIsRefusedWithTheTablesLength() {
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class,
                () -> DeviceRules.pkeyIndex(1, 1, "rxe0", 1, NO_QUERY));
        assertEquals("--pkey_index 1: port 1 of rxe0 has 1 P_Key table entry (pkey_tbl_len), index 0 only",
                one.getMessage());
        IllegalArgumentException many = assertThrows(IllegalArgumentException.class,
                () -> DeviceRules.pkeyIndex(128, 128, "mlx5_0", 2, NO_QUERY));
        assertEquals("--pkey_index 128: port 2 of mlx5_0 has 128 P_Key table entries (pkey_tbl_len), index 0..127 only",
                many.getMessage());
    }

    @Test
    void indexZeroNeedsNoQuery() {
        DeviceRules.pkeyIndex(0, 1, "rxe0", 1, NO_QUERY); // nothing queried: index 0 always holds the default
    }
}
