package io.rdmaffm.perftest.report.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The run's {@code parameters}: what the command line resolved to. The keys a report needs are typed; the
 * rest stay in {@link #entries} (strings, numbers as {@link Double}, booleans, null), in file order.
 *
 * @param tool {@code ib_write_bw} ...; null when absent (an empty object in old files)
 * @param role {@code client} or {@code server}
 * @param size the message size, or null with {@code -a} (written as {@code "all"}) or when absent
 * @param sweep whether {@code -a} ran every size ({@code size} is {@code "all"})
 * @param iterations {@code -n}; null in duration mode
 * @param durationSeconds {@code -D}; null in iteration mode
 * @param entries every parameter as written
 */
public record Parameters(String tool, String role, Long size, boolean sweep, Long iterations, Double durationSeconds,
                         Map<String, Object> entries) {

    public Parameters {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
    }

    static Parameters read(Fields f) {
        if (f == null) {
            return new Parameters(null, null, null, false, null, null, Map.of());
        }
        boolean sweep = "all".equals(f.raw().get("size"));
        Long size = sweep ? null : f.integer("size");
        return new Parameters(f.string("tool"), f.string("role"), size, sweep, f.integer("iterations"),
                f.number("duration_s"), TestInfo.stringKeys(f.raw()));
    }
}
