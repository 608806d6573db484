package io.rdmaffm.perftest.doctor;

import io.rdmaffm.verbs.topology.Reading;

import java.util.List;

/**
 * Where PFC state comes from. Upstream kernels keep PFC in the DCB netlink API, not in sysfs, so the
 * doctor asks {@code dcb} on a live host and reports "unknown, because ..." otherwise.
 */
@FunctionalInterface
public interface PfcProbe {

    /**
     * @param netdev the interface
     * @return the priorities (0–7) with PFC enabled, or why that is unknown
     */
    Reading<List<Integer>> pfcPriorities(String netdev);

    /**
     * @param reason why PFC is not asked
     * @return a probe that answers unknown with that reason
     */
    static PfcProbe unavailable(String reason) {
        return netdev -> Reading.unknown(reason);
    }
}
