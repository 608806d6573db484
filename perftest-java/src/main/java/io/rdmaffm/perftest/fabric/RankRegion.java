package io.rdmaffm.perftest.fabric;

import io.rdmaffm.perftest.engine.OpenDevice;
import io.rdmaffm.verbs.Access;
import io.rdmaffm.verbs.MemoryRegion;
import io.rdmaffm.verbs.ProtectionDomain;

/**
 * A rank's one protection domain and one registered region, shared by all its lanes' endpoints (each lane writes
 * and is written in its own share of every slot). Closed only after every endpoint's QPs are drained and closed:
 * memory stays registered while a work request may still point into it.
 */
final class RankRegion implements AutoCloseable {
    private final ProtectionDomain pd;
    private final MemoryRegion mr;

    RankRegion(OpenDevice dev, long bytes) {
        pd = dev.context().allocateProtectionDomain();
        try {
            mr = pd.allocateRegion(Math.max(bytes, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        } catch (RuntimeException e) {
            pd.close();
            throw e;
        }
    }

    ProtectionDomain pd() {
        return pd;
    }

    MemoryRegion mr() {
        return mr;
    }

    @Override
    public void close() {
        mr.close();
        pd.close();
    }
}
