package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Failure;
import java.util.List;
import java.util.Map;

/**
 * How one rank ended: its result line's JSON (null when it printed none), its exit status, and a
 * {@link Failure} naming the host when it did not end well. The analogue of the matrix's {@code Attempt}.
 *
 * @param rank     the planned rank
 * @param exitCode the launcher process's exit status, -1 when the driver stopped it
 * @param result   the worker's result object (docs/fabric-contract.md), null when none came
 * @param failure  why the rank did not end well, null when it did
 * @param stderr   the last of what it printed on stderr (kept for a failed rank's report)
 */
public record RankResult(FabricPlan.Rank rank, int exitCode, Map<String, Object> result, Failure failure,
        String stderr) {

    /** Whether the rank ran to its end with a result and no error. */
    public boolean ok() {
        return failure == null;
    }

    /** A number field of the result, or null when absent, null or not a number. */
    public Double number(String field) {
        return result == null ? null : Fields.number(result.get(field));
    }

    /** This rank's mean time per iteration in µs, or null. */
    public Double meanUs() {
        return result == null ? null : Fields.number(Fields.path(result, "time_us", "mean"));
    }

    /** The result's role ("sender", "receiver", "idle", "member"), or null. */
    public String role() {
        return result == null || !(result.get("role") instanceof String s) ? null : s;
    }

    /**
     * This rank's entry for one case of the run (its {@code cases}: bytes, target, role, time_us, bytes_sent,
     * bytes_received, wrong, link_send), or null when it has none; a result from before sweeps (no {@code cases})
     * stands for its one case, its own {@code bytes}.
     *
     * @param target incast's target rank, -1 for the other patterns
     */
    public Map<String, Object> caseResult(long bytes, int target) {
        if (result == null) {
            return null;
        }
        if (!(result.get("cases") instanceof List<?> cs)) {
            Double b = number("bytes");
            return b != null && b.longValue() == bytes ? result : null;
        }
        for (Object o : cs) {
            Map<String, Object> c = Fields.map(o);
            Double b = Fields.number(c.get("bytes"));
            Double t = Fields.number(c.get("target"));
            if (b != null && b.longValue() == bytes && (t == null ? target < 0 : t.intValue() == target)) {
                return c;
            }
        }
        return null;
    }

    /** The counter deltas of the result (name → value or null), or an empty map. */
    public Map<String, Object> deltas() {
        return Fields.map(Fields.path(result, "counters", "delta"));
    }

    /** The absent counters of the result (name → reason), or an empty map. */
    public Map<String, Object> absent() {
        return Fields.map(Fields.path(result, "counters", "absent"));
    }
}
