package io.rdmaffm.perftest.engine;

import io.rdmaffm.perftest.params.Flag;
import io.rdmaffm.perftest.params.RunParameters;
import io.rdmaffm.perftest.vocab.Tool;
import io.rdmaffm.verbs.Access;

/**
 * The access flags the flags add to the run buffer's registration, as perftest's setup_mr_flags does: on-demand
 * paging with {@code --odp} (the device was checked for it when opened), PCIe Relaxed Ordering unless
 * {@code --disable_pcie_relaxed}. Relaxed Ordering is optional to a device (one that has none ignores it) and
 * ib_write_lat never asks for it: it polls the buffer for the peer's write, whose bytes must land in order.
 */
public final class MemoryAccess {
    private MemoryAccess() {
    }

    /** Whether the registration asks for Relaxed Ordering (the banner's "PCIe relax order"). */
    public static boolean relaxedOrdering(RunParameters p) {
        return !p.on(Flag.NO_PCIE_RELAXED) && p.tool() != Tool.WRITE_LAT;
    }

    /** IBV_ACCESS_ON_DEMAND and IBV_ACCESS_RELAXED_ORDERING as {@code p} asks. */
    static int optional(RunParameters p) {
        return (p.on(Flag.ODP) ? Access.ON_DEMAND : 0) | (relaxedOrdering(p) ? Access.RELAXED_ORDERING : 0);
    }
}
