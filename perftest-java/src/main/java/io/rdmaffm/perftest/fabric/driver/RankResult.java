package io.rdmaffm.perftest.fabric.driver;

import io.rdmaffm.perftest.cluster.Failure;
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

    /** The counter deltas of the result (name → value or null), or an empty map. */
    public Map<String, Object> deltas() {
        return Fields.map(Fields.path(result, "counters", "delta"));
    }

    /** The absent counters of the result (name → reason), or an empty map. */
    public Map<String, Object> absent() {
        return Fields.map(Fields.path(result, "counters", "absent"));
    }
}
